"""Match records in and out: import whole or not at all, export, re-import, verify the archive."""

import copy
import io
import json

import pytest
from django.core.management import call_command, execute_from_command_line
from django.core.management.base import CommandError
from django.db import connection, transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matches import store
from matches.domain.errors import NotFound, Refused
from matches.domain.simulator import simulate_match
from matches.immutability import EVENTS_TABLE, triggers_lifted
from matches.models import Competition, Event, Match, Player
from matches.records import archive_verify, record_export, record_import
from tests.support.exports import empty_the_database
from tests.support.records import MATCH_ID, RECORD, example

TAMPERED_SEQ = 14  # A's shot: white on yellow


def nothing_stored():
    return not (Event.objects.exists() or Match.objects.exists() or Competition.objects.exists())


def swap_first_contact(event):
    """Return the event with its first contact written the other way round: same ruling."""
    changed = copy.deepcopy(event)
    contact = changed["contacts"][0]
    contact["ball"], contact["hit"] = contact["hit"], contact["ball"]
    return changed


# -- Import and export ---------------------------------------------------------------


def test_importing_the_spec_example_creates_the_match_with_every_event(db):
    imported = record_import(example(), by="archivist")

    assert (imported.match_id, imported.outcome, imported.appended) == (MATCH_ID, "created", 44)
    match = Match.objects.get(pk=MATCH_ID)
    assert match.competition_id == "examples"
    assert match.status == "finished"
    assert Event.objects.filter(match=match).count() == 44
    assert set(Event.objects.values_list("recorded_by", flat=True)) == {"archivist"}
    assert store.verify_chain(match) == []


def test_the_export_carries_seq_at_by_and_hash_on_every_event_and_the_full_ruleset(db):
    record_import(example())

    exported = record_export(MATCH_ID)

    assert exported["format"] == "carambole.match/1"
    assert exported["match"]["ruleset"]["target"] == 30
    assert exported["match"]["ruleset"]["foul"] == 2  # a default, written out in full
    assert [e["seq"] for e in exported["events"]] == list(range(1, 45))
    for event in exported["events"]:
        assert {"seq", "at", "by", "hash"} <= event.keys()
        assert event["at"].endswith("Z")
    # The old spelling of a placement's position is exported as `pos`.
    assert exported["events"][3]["pos"] == [700, 400]


def test_an_export_imported_into_an_empty_database_gives_identical_events_and_hashes(db):
    record_import(example())
    exported = record_export(MATCH_ID)
    empty_the_database()

    imported = record_import(json.loads(json.dumps(exported)), by="someone-else")

    assert (imported.outcome, imported.appended) == ("created", 44)
    assert record_export(MATCH_ID) == exported


def test_reimporting_the_same_record_changes_nothing(db):
    record_import(example())
    rows = list(Event.objects.order_by("id").values_list("id", "seq", "hash", "at"))

    again = record_import(example())
    exported_again = record_import(record_export(MATCH_ID))

    assert (again.outcome, again.appended) == ("unchanged", 0)
    assert (exported_again.outcome, exported_again.appended) == ("unchanged", 0)
    assert list(Event.objects.order_by("id").values_list("id", "seq", "hash", "at")) == rows


def test_a_record_without_events_creates_its_match_and_says_so(db):
    first = record_import(example(events=0))
    again = record_import(example(events=0))

    assert (first.outcome, first.appended) == ("created", 0)
    assert (again.outcome, again.appended) == ("unchanged", 0)
    assert Match.objects.filter(pk=MATCH_ID).exists() and not Event.objects.exists()


def test_a_record_that_extends_a_stored_match_appends_only_the_rest(db):
    record_import(example(events=20))
    stored = list(Event.objects.order_by("seq").values_list("id", "hash"))

    extended = record_import(example())

    assert (extended.outcome, extended.appended) == ("extended", 24)
    rows = list(Event.objects.order_by("seq").values_list("id", "hash"))
    assert rows[:20] == stored
    assert len(rows) == 44
    assert store.verify_chain(Match.objects.get(pk=MATCH_ID)) == []
    assert Match.objects.get(pk=MATCH_ID).status == "finished"


def test_an_exported_prefix_followed_by_new_events_extends_the_match(db):
    record_import(example(events=20))
    record = record_export(MATCH_ID)
    record["events"] += example()["events"][20:]

    extended = record_import(record)

    assert (extended.outcome, extended.appended) == ("extended", 24)


def test_a_record_that_contradicts_the_stored_match_is_refused_naming_the_first_differing_seq(db):
    record_import(example(events=20))
    contradicting = example()
    contradicting["events"][TAMPERED_SEQ - 1] = swap_first_contact(
        contradicting["events"][TAMPERED_SEQ - 1]
    )

    with pytest.raises(Refused) as refusal:
        record_import(contradicting)

    assert refusal.value.seq == TAMPERED_SEQ
    assert Event.objects.count() == 20


def test_a_record_with_another_header_is_refused(db):
    record_import(example(events=20))
    other_players = example()
    other_players["match"]["players"]["B"]["name"] = "Someone Else"

    with pytest.raises(Refused) as refusal:
        record_import(other_players)

    assert refusal.value.field == "match"
    assert Event.objects.count() == 20


def test_a_record_tampered_after_export_is_refused_naming_the_tampered_seq(db):
    record_import(example())
    tampered = record_export(MATCH_ID)
    tampered["events"][TAMPERED_SEQ - 1] = swap_first_contact(tampered["events"][TAMPERED_SEQ - 1])
    empty_the_database()

    with pytest.raises(Refused) as refusal:
        record_import(tampered)

    assert (refusal.value.seq, refusal.value.field) == (TAMPERED_SEQ, "hash")
    assert nothing_stored()


def test_a_tampered_record_is_refused_when_the_match_is_stored_too(db):
    record_import(example())
    tampered = record_export(MATCH_ID)
    tampered["events"][TAMPERED_SEQ - 1] = swap_first_contact(tampered["events"][TAMPERED_SEQ - 1])

    with pytest.raises(Refused) as refusal:
        record_import(tampered)

    assert refusal.value.seq == TAMPERED_SEQ
    assert Event.objects.count() == 44


def test_a_tampered_header_breaks_the_chain_at_the_first_event(db):
    record_import(example())
    tampered = record_export(MATCH_ID)
    tampered["match"]["players"]["A"]["name"] = "Iryna Shevchenko-Conti"
    empty_the_database()

    with pytest.raises(Refused) as refusal:
        record_import(tampered)

    assert (refusal.value.seq, refusal.value.field) == (1, "hash")
    assert nothing_stored()


@pytest.mark.parametrize("missing", ["at", "by", "seq"])
def test_an_event_carrying_its_hash_without_what_it_seals_is_refused(db, missing):
    record_import(example())
    record = record_export(MATCH_ID)
    del record["events"][2][missing]
    empty_the_database()

    with pytest.raises(Refused) as refusal:
        record_import(record)

    assert (refusal.value.seq, refusal.value.field) == (3, missing)
    assert nothing_stored()


def test_a_record_with_an_illegal_event_is_refused_whole_not_even_the_match_is_stored(db):
    record = example()
    record["events"][4]["player"] = "A"  # seq 5: B breaks game 1

    with pytest.raises(Refused) as refusal:
        record_import(record)

    assert (refusal.value.seq, refusal.value.field) == (5, "player")
    assert nothing_stored()
    assert not Player.objects.exists()


def test_an_illegal_extension_leaves_the_stored_match_as_it_was(db):
    record_import(example(events=20))
    record = example()
    # Seq 31 starts game 3, which B breaks (A broke game 2).
    record["events"][30] = {"type": "game_started", "game": 3, "breaker": "A"}

    with pytest.raises(Refused) as refusal:
        record_import(record)

    assert (refusal.value.seq, refusal.value.field) == (31, "breaker")
    assert Event.objects.count() == 20


# -- The commands ----------------------------------------------------------------------


def test_import_matches_and_export_match_commands_round_trip_a_record(db, tmp_path):
    path = tmp_path / "match.json"
    path.write_text(RECORD.read_text(encoding="utf-8"), encoding="utf-8")
    out = io.StringIO()

    call_command("import_matches", str(path), stdout=out)
    call_command("import_matches", str(path), stdout=out)
    exported = io.StringIO()
    call_command("export_match", MATCH_ID, stdout=exported)

    assert out.getvalue().splitlines() == [
        f"{path}: {MATCH_ID} created (44 events)",
        "1 of 1 imported",
        f"{path}: {MATCH_ID} unchanged (0 events)",
        "1 of 1 imported",
    ]
    assert json.loads(exported.getvalue()) == record_export(MATCH_ID)


def test_import_matches_names_the_refused_record_and_fails(db, tmp_path):
    record = example()
    record["events"][4]["player"] = "A"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    err = io.StringIO()

    with pytest.raises(CommandError):
        call_command("import_matches", str(path), stderr=err, stdout=io.StringIO())

    assert "seq 5" in err.getvalue() and "player" in err.getvalue()
    assert nothing_stored()


def test_export_match_of_an_unknown_id_is_a_clean_error(db):
    with pytest.raises(CommandError, match="no match 'nope'"):
        call_command("export_match", "nope", stdout=io.StringIO())


def tamper_stored_event(match_id, seq):
    """Change a stored event behind the store's back (test-only: the triggers are lifted)."""
    with triggers_lifted(), connection.cursor() as cursor:
        cursor.execute(
            f"SELECT data FROM {EVENTS_TABLE} WHERE match_id = %s AND seq = %s", [match_id, seq]
        )
        data = json.loads(cursor.fetchone()[0])
        data["contacts"][0]["hit"] = "red"
        cursor.execute(
            f"UPDATE {EVENTS_TABLE} SET data = %s WHERE match_id = %s AND seq = %s",
            [json.dumps(data), match_id, seq],
        )


@pytest.fixture
def two_sound_records(db):
    """Two sound matches: the spec example and its first ten events under another id."""
    record_import(example())
    shorter = example(events=10)
    shorter["match"]["id"] = "example-2"
    record_import(shorter)


def test_verify_archive_passes_on_a_sound_archive(two_sound_records):
    out, err = io.StringIO(), io.StringIO()

    call_command("verify_archive", stdout=out, stderr=err)

    assert out.getvalue().splitlines() == [
        "2 matches checked, 0 failing",
        "1 competition log checked, 0 failing",
    ]
    assert err.getvalue() == ""
    assert archive_verify() == {MATCH_ID: [], "example-2": []}


def test_verify_archive_names_the_match_and_seq_of_a_tampered_row_and_fails(two_sound_records):
    tamper_stored_event(MATCH_ID, TAMPERED_SEQ)
    err = io.StringIO()

    with pytest.raises(CommandError, match="1 match"):
        call_command("verify_archive", stdout=io.StringIO(), stderr=err)

    assert err.getvalue().splitlines() == [f"{MATCH_ID} seq {TAMPERED_SEQ}: hash does not match"]
    assert archive_verify(["example-2"]) == {"example-2": []}


def test_verify_archive_exits_non_zero_on_a_tampered_archive(two_sound_records, capsys):
    tamper_stored_event(MATCH_ID, TAMPERED_SEQ)

    with pytest.raises(SystemExit) as exit:
        execute_from_command_line(["manage.py", "verify_archive"])

    assert exit.value.code != 0
    assert f"{MATCH_ID} seq {TAMPERED_SEQ}" in capsys.readouterr().err


def test_verify_archive_of_an_unknown_match_is_a_clean_error(two_sound_records):
    with pytest.raises(NotFound):
        archive_verify(["nope"])
    with pytest.raises(CommandError, match="no match 'nope'"):
        call_command("verify_archive", "nope", stdout=io.StringIO())


def overwrite_stored_data(match_id, seq, text):
    """Write raw text into a stored event's data column (test-only: the triggers are lifted)."""
    with triggers_lifted(), connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {EVENTS_TABLE} SET data = %s WHERE match_id = %s AND seq = %s",
            [text, match_id, seq],
        )


def verify_archive_command():
    """Return the error lines of verify_archive, which must fail."""
    err = io.StringIO()
    with pytest.raises(CommandError, match="1 match"):
        call_command("verify_archive", stdout=io.StringIO(), stderr=err)
    return err.getvalue().splitlines()


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        pytest.param("{not json", "data is not JSON", id="not JSON"),
        pytest.param("[1, 2]", "data is not a JSON object", id="a list"),
        pytest.param('"shot"', "data is not a JSON object", id="a string"),
    ],
)
def test_verify_archive_names_an_unreadable_event_row_and_checks_every_other_match(
    two_sound_records, text, problem
):
    overwrite_stored_data(MATCH_ID, 5, text)

    problems = archive_verify()

    assert list(problems) == [MATCH_ID, "example-2"]
    assert [seq for seq, _ in problems[MATCH_ID]] == [5]  # the rows after it still chain
    assert problems[MATCH_ID][0][1].startswith(problem)
    assert problems["example-2"] == []
    lines = verify_archive_command()
    assert len(lines) == 1 and lines[0].startswith(f"{MATCH_ID} seq 5: {problem}")


def test_verify_archive_still_finds_a_tampered_row_after_an_unreadable_one(two_sound_records):
    overwrite_stored_data(MATCH_ID, 5, "{not json")
    tamper_stored_event(MATCH_ID, TAMPERED_SEQ)

    assert [seq for seq, _ in archive_verify([MATCH_ID])[MATCH_ID]] == [5, TAMPERED_SEQ]


@pytest.mark.parametrize(
    ("column", "value", "problem"),
    [
        pytest.param("ruleset", {"target": "x"}, "header: ruleset.target: ", id="ruleset value"),
        pytest.param("ruleset", [1], "header: ruleset: must be an object", id="ruleset list"),
        pytest.param("players", [], "header: cannot be read", id="players list"),
    ],
)
def test_verify_archive_names_an_unreadable_match_header_as_seq_0_and_goes_on(
    two_sound_records, column, value, problem
):
    # Match headers have no triggers: a plain UPDATE is enough to corrupt one.
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {Match._meta.db_table} SET {column} = %s WHERE id = %s",
            [json.dumps(value), MATCH_ID],
        )

    problems = archive_verify()

    assert list(problems) == [MATCH_ID, "example-2"]
    assert len(problems[MATCH_ID]) == 1
    seq, text = problems[MATCH_ID][0]
    assert seq == 0 and text.startswith(problem)
    assert problems["example-2"] == []
    lines = verify_archive_command()
    assert len(lines) == 1 and lines[0].startswith(f"{MATCH_ID} seq 0: {problem}")


# -- The law: export then import changes nothing -----------------------------------------

names = st.text(
    alphabet=st.characters(codec="utf-8", categories=("L", "Zs")), min_size=1, max_size=12
).filter(str.strip)


@settings(
    # Each example is a database round trip: a tenth of the profile's examples (tests/conftest.py).
    max_examples=max(1, settings.default.max_examples // 10),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(events=st.integers(min_value=0, max_value=44), a=names, b=names, at_import=st.booleans())
def test_export_then_import_into_an_empty_database_changes_nothing(db, events, a, b, at_import):
    record = example(events)
    record["match"]["players"]["A"]["name"] = a
    record["match"]["players"]["B"]["name"] = b
    with transaction.atomic():
        record_import(record)
        exported = record_export(MATCH_ID)
        if at_import:
            assert record_import(exported).outcome == "unchanged"
        empty_the_database()
        record_import(json.loads(json.dumps(exported, ensure_ascii=False)))
        assert record_export(MATCH_ID) == exported
        transaction.set_rollback(True)


def test_a_record_longer_than_one_statements_parameters_is_stored_whole_and_in_order(db):
    record = simulate_match(7)
    rows_per_statement = (connection.features.max_query_params or 65535) // 10
    assert len(record["events"]) > rows_per_statement or connection.vendor == "postgresql"

    record_import(record)

    stored = list(Event.objects.filter(match_id=record["match"]["id"]).order_by("seq"))
    assert [event.seq for event in stored] == list(range(1, len(record["events"]) + 1))
    assert [event.type for event in stored] == [event["type"] for event in record["events"]]
    assert store.verify_chain(stored[0].match) == []
