"""Bad input to the services, to imports and to the commands: Refused, and nothing stored.

On SQLite and on PostgreSQL alike (CI runs this file on both): no traceback, no
DataError, nothing half stored; what is stored verifies and imports again unchanged.
The notation's side of the same guarantees is in `tests/matches/test_hostile_input.py`.
"""

from __future__ import annotations

import inspect
import io
import json
import math
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matches import services, store
from matches.domain.errors import NotFound, Refused
from matches.models import Assignment, Competition, Event, Match, Player
from matches.records import record_export, record_import
from tests.support.builders import BY, PLAYERS, QUIET, new_match
from tests.support.hostile import (
    FILE_TEXTS,
    JSON_VALUES,
    MEGABYTE,
    NUMBERS,
    SHORT_MESSAGE,
    TEXTS,
    events,
    example_record,
    plausible,
    records,
)

DATABASE_PROPERTY = settings(
    # Each example is a database round trip: a tenth of the profile's examples (tests/conftest.py).
    max_examples=max(1, settings.default.max_examples // 10),
    deadline=None,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
    ],
)
MATCH_ID = "cup-a-1"
BIG = "m" * MEGABYTE


def counts() -> tuple[int, ...]:
    models = (Competition, Match, Player, get_user_model(), Assignment, Event)
    return tuple(model.objects.count() for model in models)


def assert_short(error: Refused) -> None:
    assert len(str(error)) <= SHORT_MESSAGE, str(error)[:SHORT_MESSAGE]


def refused(call, field: str | None = None) -> Refused:
    """Call, expecting Refused (naming `field` when given), and check nothing was stored."""
    before = counts()
    with pytest.raises(Refused) as refusal:
        call()
    if field is not None:
        assert refusal.value.field == field, str(refusal.value)
    assert_short(refusal.value)
    assert counts() == before
    return refusal.value


def assert_stored_soundly(match_id: str) -> None:
    """What was stored verifies, and its export imports again changing nothing."""
    match = Match.objects.get(pk=match_id)
    assert store.verify_chain(match) == []
    exported = json.loads(json.dumps(record_export(match_id), ensure_ascii=False))
    assert record_import(exported).outcome == "unchanged"


# -- Commands cannot change what an event is ---------------------------------------------

NOT_SHOT_FACTS = [
    pytest.param({"type": "match_forfeited", "reason": "walked out"}, id="type"),
    pytest.param({"player": "B"}, id="player"),
    pytest.param({"seq": 5}, id="seq"),
    pytest.param({"at": "2026-01-01T00:00:00Z"}, id="at"),
    pytest.param({"by": "mallory"}, id="by"),
    pytest.param({"hash": "0" * 64}, id="hash"),
    pytest.param({"reason": "kept"}, id="a field of another kind"),
]


@pytest.mark.parametrize("extra", NOT_SHOT_FACTS)
def test_a_shot_whose_facts_set_its_type_player_or_envelope_is_refused_and_nothing_is_stored(
    opened_and_shot, extra
):
    error = refused(
        lambda: services.shot_record(
            match_id=opened_and_shot.id, expected_seq=4, by=BY, player="B", facts={**QUIET, **extra}
        ),
        "facts",
    )

    assert next(iter(extra)) in error.message
    opened_and_shot.refresh_from_db()
    assert opened_and_shot.status == Match.Status.PLAYING


@pytest.mark.parametrize("extra", NOT_SHOT_FACTS)
def test_an_amendment_whose_facts_set_its_type_player_or_envelope_is_refused(
    opened_and_shot, extra
):
    refused(
        lambda: services.ruling_amend(
            match_id=opened_and_shot.id,
            expected_seq=4,
            by=BY,
            shot=4,
            facts={**QUIET, **extra},
            reason="video",
        ),
        f"facts.{next(iter(extra))}",
    )


@pytest.mark.parametrize("key", ["seq", "at", "by", "hash"])
def test_a_lag_result_cannot_carry_an_envelope_key(db, key):
    match = new_match()

    refused(
        lambda: services.lag_record(
            match_id=match.id, expected_seq=0, by=BY, a={"distance": 90, key: 1}, b={"distance": 9}
        ),
        f"A.{key}",
    )


@pytest.mark.parametrize(
    ("verb", "arguments", "field"),
    [
        pytest.param("shot_record", {"facts": None}, "facts", id="shot facts None"),
        pytest.param("shot_record", {"facts": [QUIET]}, "facts", id="shot facts a list"),
        pytest.param("shot_record", {"facts": "QUIET"}, "facts", id="shot facts text"),
        pytest.param(
            "ruling_amend",
            {"shot": 4, "facts": None, "reason": "video"},
            "facts",
            id="amended facts None",
        ),
        pytest.param("lag_record", {"a": None, "b": {"distance": 9}}, "A", id="lag a None"),
        pytest.param("lag_record", {"a": {"distance": 9}, "b": [9]}, "B", id="lag b a list"),
        pytest.param("ball_place", {"ball": "white", "pos": None, "reason": "break"}, "pos"),
        pytest.param("game_start", {"game": None, "breaker": "A"}, "game"),
        pytest.param("foul_record", {"player": None, "code": "touched"}, "player"),
    ],
)
def test_a_verb_given_no_object_where_it_needs_one_is_refused_naming_it(
    opened_and_shot, verb, arguments, field
):
    call = getattr(services, verb)

    refused(lambda: call(match_id=opened_and_shot.id, expected_seq=4, by=BY, **arguments), field)


# -- Numbers out of range, through the services ----------------------------------------------


@pytest.mark.parametrize("distance", [10**400, -(10**400), math.nan, math.inf, 2840.5, -1])
def test_a_lag_distance_out_of_range_is_refused_naming_it_and_nothing_is_stored(db, distance):
    match = new_match()

    error = refused(
        lambda: services.lag_record(
            match_id=match.id, expected_seq=0, by=BY, a={"distance": distance}, b={"distance": 9}
        ),
        "A.distance",
    )

    assert error.seq == 1


def test_a_number_past_pythons_digit_limit_is_refused_and_nothing_is_stored(db):
    match = new_match()

    refused(
        lambda: services.lag_record(
            match_id=match.id, expected_seq=0, by=BY, a={"distance": 10**4301}, b={"distance": 9}
        )
    )


@pytest.mark.parametrize(
    ("verb", "arguments", "field"),
    [
        pytest.param("ball_place", {"ball": "red", "pos": [10**400, 400]}, "pos[0]", id="x"),
        pytest.param("ball_place", {"ball": "red", "pos": [700, math.nan]}, "pos[1]", id="y"),
        pytest.param("intermission_record", {"minutes": 10**400}, "minutes", id="minutes huge"),
        pytest.param("intermission_record", {"minutes": math.inf}, "minutes", id="minutes inf"),
        pytest.param("intermission_record", {"minutes": 121}, "minutes", id="minutes over"),
        pytest.param("shot_retract", {"shot": 10**400, "reason": "oops"}, "shot", id="shot"),
        pytest.param("game_start", {"game": 10**400, "breaker": "B"}, "game", id="game"),
    ],
)
def test_a_number_out_of_range_given_to_a_verb_is_refused_naming_it(
    opened_and_shot, verb, arguments, field
):
    call = getattr(services, verb)
    if verb == "ball_place":
        arguments = {**arguments, "reason": "respot"}

    refused(lambda: call(match_id=opened_and_shot.id, expected_seq=4, by=BY, **arguments), field)


@pytest.mark.parametrize("pin_pitch", [10**400, math.nan, math.inf, 61.4, 200.5])
def test_a_pin_pitch_out_of_range_is_refused_for_a_competition_and_a_match(cup, pin_pitch):
    refused(
        lambda: services.competition_create(id="c2", ruleset={"pin_pitch": pin_pitch}),
        "ruleset.pin_pitch",
    )
    refused(
        lambda: services.match_create(
            competition="cup", players=PLAYERS, ruleset={"pin_pitch": pin_pitch}
        ),
        "ruleset.pin_pitch",
    )


# -- What a database cannot store -------------------------------------------------------


def players_with(player: str, **entry: Any) -> dict[str, Any]:
    changed = {p: dict(v) for p, v in PLAYERS.items()}
    changed[player].update(entry)
    return changed


STORE_CANNOT_KEEP = [
    pytest.param({"rating": math.nan}, "rating", id="NaN"),
    pytest.param({"rating": math.inf}, "rating", id="infinity"),
    pytest.param({"rating": -0.0}, "rating", id="negative zero"),
    pytest.param({"rating": 10**16}, "rating", id="past the largest number"),
    pytest.param({"name": "Olena\x00Kovalenko"}, "name", id="NUL in the name"),
    pytest.param({"federation_id": "UA-\x00101"}, "federation_id", id="NUL in the federation id"),
    pytest.param({"name": "Olena\ud800"}, "name", id="lone surrogate in the name"),
    pytest.param({"club": "a\x00b"}, "club", id="NUL in an extra key"),
    pytest.param({"club": {"n\x00": 1}}, "club", id="NUL in a key"),
]


@pytest.mark.parametrize(("entry", "key"), STORE_CANNOT_KEEP)
def test_a_player_match_create_cannot_store_is_refused_naming_the_field(cup, entry, key):
    refused(
        lambda: services.match_create(competition="cup", players=players_with("A", **entry)),
        f"players.A.{key}",
    )


@pytest.mark.parametrize(("entry", "key"), STORE_CANNOT_KEEP)
def test_a_record_whose_player_a_database_cannot_store_is_refused_and_nothing_is_stored(
    db, entry, key
):
    record = example_record()
    record["match"]["players"]["B"].update(entry)

    refused(lambda: record_import(record), f"match.players.B.{key}")


@pytest.mark.parametrize("text", ["wall\x00", "\ud800", "r" * 1001])
@pytest.mark.parametrize(
    "verb",
    ["shot_retract", "ruling_amend", "foul_record", "game_forfeit", "match_forfeit"],
)
def test_a_reason_a_database_cannot_store_is_refused_naming_it(opened_and_shot, verb, text):
    arguments = {
        "shot_retract": {"shot": 4},
        "ruling_amend": {"shot": 4, "facts": QUIET},
        "foul_record": {"player": "B", "code": "touched"},
        "game_forfeit": {"player": "B"},
        "match_forfeit": {"player": "B"},
    }[verb]
    call = getattr(services, verb)

    refused(
        lambda: call(match_id=opened_and_shot.id, expected_seq=4, by=BY, reason=text, **arguments),
        "event" if text == "\ud800" else "reason",
    )


@pytest.mark.parametrize(
    ("arguments", "field"),
    [
        pytest.param({"by": "pe\x00trenko"}, "by", id="NUL in by"),
        pytest.param({"by": "\ud800"}, "by", id="lone surrogate in by"),
        pytest.param({"by": "  "}, "by", id="blank by"),
        pytest.param({"by": BY, "idempotency_key": "k\x00"}, "Idempotency-Key", id="NUL in key"),
    ],
)
def test_who_records_and_the_idempotency_key_are_texts_a_database_can_store(
    opened_and_shot, arguments, field
):
    refused(
        lambda: services.shot_record(
            match_id=opened_and_shot.id, expected_seq=4, facts=QUIET, **arguments
        ),
        field,
    )


# -- Ids: text that names nothing never reaches the database -----------------------------------

BAD_IDS = [
    pytest.param("cup-a-1\x00", id="NUL"),
    pytest.param("cup-a-\ud800", id="lone surrogate"),
    pytest.param("\udcff", id="undecodable byte of a command line"),
    pytest.param("cup-a-1\n", id="trailing newline"),
    pytest.param(BIG, id="a megabyte"),
    pytest.param("", id="empty"),
]


@pytest.mark.parametrize("match_id", BAD_IDS)
def test_an_event_for_a_match_id_that_names_nothing_is_not_found_and_nothing_is_stored(
    opened_and_shot, match_id
):
    error = refused(
        lambda: services.shot_record(match_id=match_id, expected_seq=4, by=BY, facts=QUIET), "id"
    )

    assert isinstance(error, NotFound)


@pytest.mark.parametrize("match_id", [["cup-a-1"], {"id": "cup-a-1"}, 7, None])
def test_an_event_for_a_match_id_that_is_no_text_is_refused(opened_and_shot, match_id):
    refused(
        lambda: services.shot_record(match_id=match_id, expected_seq=4, by=BY, facts=QUIET), "id"
    )


@pytest.mark.parametrize("competition", BAD_IDS)
def test_a_match_for_a_competition_id_that_names_nothing_is_not_found(cup, competition):
    error = refused(
        lambda: services.match_create(competition=competition, players=PLAYERS), "competition"
    )

    assert isinstance(error, NotFound)


@pytest.mark.parametrize("match_id", BAD_IDS)
def test_assigning_a_referee_to_a_match_id_that_names_nothing_is_not_found(
    opened_and_shot, match_id
):
    get_user_model().objects.create_user("petrenko")

    error = refused(
        lambda: services.referee_assign(match_id=match_id, username="petrenko", by="staff"), "id"
    )

    assert isinstance(error, NotFound)


@pytest.mark.parametrize("match_id", BAD_IDS)
def test_export_match_of_an_id_that_names_nothing_is_a_command_error(opened_and_shot, match_id):
    with pytest.raises(CommandError, match="no match") as error:
        call_command("export_match", match_id, stdout=io.StringIO())

    assert len(str(error.value)) <= SHORT_MESSAGE


@pytest.mark.parametrize(
    ("key", "value"),
    [("id", "a" * 100 + "\n"), ("competition", "c" * 100 + "\n"), ("id", "a" * 101)],
)
def test_an_id_one_longer_than_its_column_is_refused_on_import(db, key, value):
    record = example_record()
    record["match"][key] = value

    refused(lambda: record_import(record), f"match.{key}")


@pytest.mark.parametrize("match_id", ["a" * 100 + "\n", "a\n"])
def test_an_id_one_longer_than_its_column_is_refused_by_match_create(cup, match_id):
    refused(lambda: services.match_create(id=match_id, competition="cup", players=PLAYERS), "id")
    refused(lambda: services.competition_create(id=match_id), "id")


# -- Any input, any service: recorded or refused, and a refusal stores nothing -----------------

EXPECTED_SEQS = st.sampled_from([4, 4, 4, 3, 5, 0]) | JSON_VALUES
BYS = st.just(BY) | TEXTS | JSON_VALUES
IDEMPOTENCY_KEYS = st.none() | TEXTS | JSON_VALUES
MATCH_IDS = st.just(MATCH_ID) | st.just(MATCH_ID) | TEXTS | JSON_VALUES


def recorded_or_refused(call, match_id: Any) -> None:
    """Call a service in a transaction rolled back after: Refused storing nothing, or sound."""
    with transaction.atomic():
        before = counts()
        try:
            answer = call()
        except Refused as error:
            assert_short(error)
            assert counts() == before
        else:
            json.dumps(answer.state, allow_nan=False, ensure_ascii=False).encode("utf-8")
            assert_stored_soundly(match_id)
        transaction.set_rollback(True)


@DATABASE_PROPERTY
@given(event=events(), match_id=MATCH_IDS, seq=EXPECTED_SEQS, by=BYS, key=IDEMPOTENCY_KEYS)
def test_any_event_given_to_event_record_is_recorded_or_refused_storing_nothing(
    opened_and_shot, event, match_id, seq, by, key
):
    recorded_or_refused(
        lambda: services.event_record(
            match_id=match_id, expected_seq=seq, event=event, by=by, idempotency_key=key
        ),
        match_id,
    )


VERBS = (
    "lag_record",
    "game_start",
    "ball_place",
    "shot_record",
    "ruling_amend",
    "shot_retract",
    "balls_respot",
    "foul_record",
    "intermission_record",
    "game_forfeit",
    "match_forfeit",
)
ENVELOPE_ARGUMENTS = ("match_id", "expected_seq", "by", "idempotency_key")


@st.composite
def verb_calls(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    """Draw a verb and its own arguments: plausible ones, anything at all, some left out."""
    verb = draw(st.sampled_from(VERBS))
    arguments = {}
    for parameter in inspect.signature(getattr(services, verb)).parameters.values():
        if parameter.name in ENVELOPE_ARGUMENTS:
            continue
        if parameter.default is not parameter.empty and draw(st.booleans()):
            continue
        arguments[parameter.name] = draw(plausible(parameter.name))
    return verb, arguments


@DATABASE_PROPERTY
@given(call=verb_calls(), match_id=MATCH_IDS, seq=EXPECTED_SEQS, by=BYS, key=IDEMPOTENCY_KEYS)
def test_any_arguments_given_to_a_verb_are_recorded_or_refused_storing_nothing(
    opened_and_shot, call, match_id, seq, by, key
):
    verb, arguments = call
    service = getattr(services, verb)

    recorded_or_refused(
        lambda: service(
            match_id=match_id, expected_seq=seq, by=by, idempotency_key=key, **arguments
        ),
        match_id,
    )


NAMES = st.sampled_from(["Ann", "Bea", PLAYERS["A"]["name"], PLAYERS["B"]["name"]]) | TEXTS
FEDERATION_IDS = st.sampled_from(["UA-101", "IT-202", "FR-303", ""]) | TEXTS | JSON_VALUES
ENTRIES = st.fixed_dictionaries(
    {"name": NAMES | JSON_VALUES},
    optional={"federation_id": FEDERATION_IDS, "club": JSON_VALUES, "rating": NUMBERS},
)
TWO_PLAYERS = st.fixed_dictionaries({"A": ENTRIES, "B": ENTRIES}) | JSON_VALUES
MATCH_FIELDS = st.fixed_dictionaries(
    {"competition": st.just("cup") | TEXTS | JSON_VALUES, "players": TWO_PLAYERS},
    optional={
        "id": st.just("cup-b-1") | TEXTS | JSON_VALUES,
        "balls": st.fixed_dictionaries({"A": plausible("ball"), "B": plausible("ball")})
        | JSON_VALUES,
        "ruleset": st.dictionaries(TEXTS, NUMBERS | st.booleans(), max_size=3) | JSON_VALUES,
        "stage": TEXTS | JSON_VALUES,
        "table": TEXTS | JSON_VALUES,
        "date": st.sampled_from(["2026-02-28", "2026-02-30", ""]) | TEXTS | JSON_VALUES,
        "referee_username": TEXTS | JSON_VALUES,
        "referee_name": TEXTS | JSON_VALUES,
    },
)


@DATABASE_PROPERTY
@given(fields=MATCH_FIELDS)
def test_any_fields_given_to_match_create_create_the_match_or_are_refused_storing_nothing(
    opened_and_shot, fields
):
    with transaction.atomic():
        before = counts()
        try:
            match = services.match_create(**fields)
        except Refused as error:
            assert_short(error)
            assert counts() == before
        else:
            stored = Match.objects.get(pk=match.pk)
            assert stored.header().sealed() == match.header().sealed()
            assert_stored_soundly(match.pk)
        transaction.set_rollback(True)


@DATABASE_PROPERTY
@given(
    fields=st.fixed_dictionaries(
        {"id": TEXTS | JSON_VALUES},
        optional={
            "name": TEXTS | JSON_VALUES,
            "ruleset": st.dictionaries(TEXTS, NUMBERS | st.booleans(), max_size=3) | JSON_VALUES,
        },
    )
)
def test_any_fields_given_to_competition_create_create_it_or_are_refused_storing_nothing(
    db, fields
):
    with transaction.atomic():
        before = counts()
        try:
            services.competition_create(**fields)
        except Refused as error:
            assert_short(error)
            assert counts() == before
        transaction.set_rollback(True)


@DATABASE_PROPERTY
@given(record=records(), by=st.just("import") | TEXTS | JSON_VALUES)
def test_any_record_is_imported_whole_or_refused_storing_nothing(db, record, by):
    with transaction.atomic():
        before = counts()
        try:
            imported = record_import(record, by=by)
        except Refused as error:
            assert_short(error)
            assert counts() == before
        else:
            assert_stored_soundly(imported.match_id)
        transaction.set_rollback(True)


@DATABASE_PROPERTY
@given(text=FILE_TEXTS)
def test_import_matches_imports_any_file_or_refuses_it_with_a_short_message(db, tmp_path, text):
    path = tmp_path / "record.json"
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()

    with transaction.atomic():
        before = counts()
        try:
            call_command("import_matches", str(path), stdout=out, stderr=err)
        except CommandError as error:
            assert str(error) == "0 of 1 imported"
            assert err.getvalue().startswith(f"{path}: refused: ")
            assert len(err.getvalue()) <= len(f"{path}: refused: \n") + SHORT_MESSAGE
            assert counts() == before
        else:
            assert out.getvalue().endswith("1 of 1 imported\n")
        transaction.set_rollback(True)


# -- import_matches goes on past what it refuses ------------------------------------------


def test_import_matches_refuses_each_bad_file_with_a_line_and_imports_the_others(db, tmp_path):
    good = example_record()
    files = {
        "deep.json": '{"format": ' + "[" * 100_000 + "]" * 100_000 + "}",
        "nan.json": json.dumps(example_record()).replace('"UA-501"', '"UA-501", "rating": NaN'),
        "nul.json": json.dumps(example_record()).replace("Iryna", "Iry\\u0000na"),
        "huge.json": json.dumps(example_record()).replace('"distance": 150', '"distance": 1e400'),
        "digits.json": json.dumps(example_record()).replace("150", "9" * 4301),
        "good.json": json.dumps(good),
    }
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    (tmp_path / "latin1.json").write_bytes('{"x": "é"}'.encode("latin-1"))
    paths = [str(tmp_path / name) for name in [*files, "latin1.json", "missing.json"]]
    out, err = io.StringIO(), io.StringIO()

    with pytest.raises(CommandError, match="^1 of 8 imported$"):
        call_command("import_matches", *paths, stdout=out, stderr=err)

    refusals = err.getvalue().splitlines()
    assert [line.split(": refused: ")[0] for line in refusals] == paths[:5] + paths[6:]
    assert all(len(line) <= 200 + SHORT_MESSAGE for line in refusals)
    assert out.getvalue() == f"{paths[5]}: example-1 created (44 events)\n"
    assert_stored_soundly("example-1")
    assert Match.objects.count() == 1


def test_import_matches_refuses_an_importer_a_database_cannot_store(db, tmp_path):
    path = tmp_path / "record.json"
    path.write_text(json.dumps(example_record()), encoding="utf-8")

    for by in ["b" * 151, "imp\x00ort", " "]:
        with pytest.raises(CommandError, match="0 of 1 imported"):
            call_command("import_matches", str(path), "--by", by, stderr=io.StringIO())

    assert counts() == (0, 0, 0, 0, 0, 0)
