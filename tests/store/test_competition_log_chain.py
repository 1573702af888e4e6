"""A competition's log is verified where it is kept, as a match's is: its chain, its
events' global ids (from hash version 2), a deleted or changed event named by the
competition and its seq; and its zip carries the ids under the same chain."""

from __future__ import annotations

import io
import json
import zipfile

import pytest
from django.core.management import CommandError, call_command
from django.db import DatabaseError, connection, transaction

from matches import services, store
from matches.competition_archive import competition_import
from matches.domain.chain import FIRST_HASH_VERSION, IDS_HASHED, event_hash, positions_of
from matches.domain.errors import Refused
from matches.immutability import EVENTS_TABLE, install_triggers, triggers_lifted
from matches.models import Competition, Entry, Event, Match
from matches.records import archive_verify
from matches.services.competition_log import (
    Kept,
    competition_seal,
    log_store,
    logs_verify,
    verify_log,
)
from matches.services.decisions import DISPUTE_DECIDED
from replay.projections import projector
from tests.support.championships import championship, play_groups
from tests.support.competition_zip import downloaded, emptied
from tests.support.corrections import FLIPPED, amend, drawn_with_a_flip_to_come, first_match_begun
from tests.support.league import league, win
from tests.support.triggers import ROW_TRIGGER

ENTERED_THIRD = 3  # the log's third event: the player seeded 3 entered


@pytest.fixture
def knockout(db) -> Competition:
    """The groups played and the knockout drawn: the log's tenth event after the groups'
    matches' events."""
    championship()
    services.stage_draw(competition_id="euro", stage_id="groups", by="director")
    play_groups()
    services.stage_draw(competition_id="euro", stage_id="ko", by="director")
    return Competition.objects.get(pk="euro")


@pytest.fixture
def decided(db) -> Competition:
    """A dispute on a semi-final begun before a staff amendment, decided: keep it as played."""
    drawn_with_a_flip_to_come()
    first_match_begun()
    amend(FLIPPED, staff=True)
    services.dispute_decide(
        competition_id="euro", slot="groups:B2", keep=True, reason="jury: stands", by="chief"
    )
    return Competition.objects.get(pk="euro")


def execute(sql: str, params=()) -> None:
    """Run one statement as a superuser would, the triggers out of the way."""
    with triggers_lifted(), connection.cursor() as cursor:
        cursor.execute(sql, params)


def row(competition: Competition, seq: int) -> Event:
    return Event.objects.get(competition=competition, seq=seq)


def rewrite(competition: Competition, seq: int, change) -> None:
    """Rewrite the data of one event of a competition's log, its hash left as it was."""
    event = row(competition, seq)
    data = change(dict(event.data))
    execute(f"UPDATE {EVENTS_TABLE} SET data = %s WHERE id = %s", [json.dumps(data), event.pk])


def verify(*args: str) -> tuple[str, str, bool]:
    """Run verify_archive; return (its output, its errors, whether it failed)."""
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("verify_archive", *args, stdout=out, stderr=err)
    except CommandError:
        return out.getvalue(), err.getvalue(), True
    return out.getvalue(), err.getvalue(), False


# -- Hashed with their global ids --------------------------------------------------------


def test_every_new_event_of_a_competition_s_log_is_hashed_with_its_global_id(knockout):
    logged = Event.objects.filter(competition=knockout).values_list("hash_version", flat=True)
    played = Event.objects.filter(match__isnull=False).values_list("hash_version", flat=True)

    assert set(logged) == {IDS_HASHED}
    assert set(played) == {FIRST_HASH_VERSION}  # a match's chain is the notation's
    assert verify_log(knockout) == []


def test_a_log_event_given_another_global_id_is_named_by_its_competition_and_seq(groups_drawn):
    last = row(groups_drawn, 9)
    execute(f"UPDATE {EVENTS_TABLE} SET id = %s WHERE id = %s", [last.pk + 1000, last.pk])

    _, errors, failed = verify()

    assert failed
    assert errors.splitlines() == [
        "competition euro seq 9: hash does not match the chain: the event, its global id or "
        "those of its matches' events since the log's previous one changed"
    ]


def test_a_match_s_event_moved_past_a_draw_in_the_global_order_is_named(knockout):
    draw = row(knockout, 10)
    moved = Event.objects.filter(match__stage_id="groups", id__lt=draw.pk).order_by("-id")[0]
    execute(f"UPDATE {EVENTS_TABLE} SET id = %s WHERE id = %s", [draw.pk + 1000, moved.pk])

    assert [seq for seq, _ in verify_log(knockout)] == [10]


def test_the_database_refuses_to_change_or_delete_an_event_of_a_competition_s_log(groups_drawn):
    event = row(groups_drawn, ENTERED_THIRD)
    for statement in (
        f"UPDATE {EVENTS_TABLE} SET data = '{{}}' WHERE id = %s",
        f"DELETE FROM {EVENTS_TABLE} WHERE id = %s",
    ):
        with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(statement, [event.pk])

    assert row(groups_drawn, ENTERED_THIRD).hash == event.hash
    assert verify_log(groups_drawn) == []


def test_verify_archive_of_a_log_alone_names_a_trigger_out_of_force(groups_drawn):
    name = ROW_TRIGGER[connection.vendor]
    with connection.cursor() as cursor:
        table = f" ON {EVENTS_TABLE}" if connection.vendor == "postgresql" else ""
        cursor.execute(f"DROP TRIGGER {name}{table}")

    output, errors, failed = verify("--competition", "euro")
    install_triggers()

    assert failed
    assert f"{name} (missing)" in errors
    assert output.splitlines() == ["1 competition log checked, 0 failing"]


# -- What a superuser changes behind the store's back ------------------------------------


def test_a_rewritten_dispute_decision_is_named_and_fails_verify_archive(decided):
    seq = Event.objects.get(competition=decided, type=DISPUTE_DECIDED).seq
    rewrite(decided, seq, lambda event: {**event, "keep": False, "reason": "jury: replay"})

    output, errors, failed = verify()

    assert failed
    assert f"competition euro seq {seq}: hash does not match the chain" in errors
    assert "1 failing" in output.splitlines()[-1]


def test_a_changed_seed_is_named_and_fails_verify_archive(groups_drawn):
    rewrite(groups_drawn, ENTERED_THIRD, lambda event: {**event, "seed": 1})

    _, errors, failed = verify()

    assert failed
    assert errors.startswith(f"competition euro seq {ENTERED_THIRD}: hash does not match")


def test_a_deleted_log_event_is_named_and_fails_verify_archive(groups_drawn):
    execute(f"DELETE FROM {EVENTS_TABLE} WHERE id = %s", [row(groups_drawn, 4).pk])

    _, errors, failed = verify()

    assert failed
    assert "competition euro seq 4: event seq 4 is missing" in errors.splitlines()
    # The next event chains to the deleted one's hash, and the rest to their own.
    assert [seq for seq, _ in verify_log(groups_drawn)] == [4, 5]


def test_a_changed_type_column_and_an_id_kept_in_the_data_are_named(groups_drawn):
    execute(
        f"UPDATE {EVENTS_TABLE} SET type = 'draw_undone' WHERE id = %s", [row(groups_drawn, 9).pk]
    )
    rewrite(groups_drawn, 2, lambda event: {**event, "id": 1})

    assert verify_log(groups_drawn) == [
        (2, "the data holds 'id', which only the event's position may hold"),
        (9, "the type column ('draw_undone') is not the hashed type ('stage_drawn')"),
    ]


def test_a_row_whose_hash_version_went_back_is_named(groups_drawn):
    execute(f"UPDATE {EVENTS_TABLE} SET hash_version = 1 WHERE id = %s", [row(groups_drawn, 5).pk])
    execute(f"UPDATE {EVENTS_TABLE} SET hash_version = 7 WHERE id = %s", [row(groups_drawn, 7).pk])

    assert verify_log(groups_drawn) == [
        (5, "hash version 1 after version 2"),
        (7, "hash version 7 is none this archive knows"),
    ]


def test_verify_archive_names_a_competition_to_verify_its_log_alone(groups_drawn):
    rewrite(groups_drawn, ENTERED_THIRD, lambda event: {**event, "seed": 1})
    league("cup")

    output, errors, failed = verify("--competition", "cup")
    assert not failed, errors
    assert output.splitlines() == ["1 competition log checked, 0 failing"]

    output, errors, failed = verify("--competition", "euro", "--competition", "cup")
    assert failed and "2 competition logs checked, 1 failing" in output
    assert logs_verify(["cup"]) == {"cup": []}
    with pytest.raises(CommandError, match="no competition 'nope'"):
        call_command("verify_archive", "--competition", "nope", stdout=io.StringIO())


# -- Logs from before version 2 ----------------------------------------------------------


def old_event(competition: Competition, event: dict, by: str = "director") -> None:
    """Store an event of a competition's log as the archive did before hash version 2."""
    with transaction.atomic():
        store.lock_log()
        event_id = store.next_event_id()
        position = positions_of([event_id], [], competition.id_offset)[0]
        log_store(competition, [event], [store.Stamp(by=by)], [Kept(event_id, 1, position)])


def test_a_log_hashed_before_version_2_still_verifies_and_goes_on_in_version_2(db):
    championship(players=0)
    euro = Competition.objects.get(pk="euro")
    for seed, name in enumerate(("Rossi", "Novak"), start=1):
        old_event(euro, {"type": "player_entered", "player": {"name": name}, "seed": seed})
    services.player_enter(competition_id="euro", player={"name": "Weber"}, seed=3, by="director")

    versions = list(Event.objects.filter(competition=euro).values_list("seq", "hash_version"))
    assert versions == [(1, FIRST_HASH_VERSION), (2, FIRST_HASH_VERSION), (3, IDS_HASHED)]
    first = row(euro, 1)
    assert first.hash == event_hash(competition_seal(euro), first.as_record())  # as before
    assert verify_log(euro) == []


# -- The zip: its ids under the chain ----------------------------------------------------


@pytest.fixture
def semi_final_zip(db, client, tmp_path):
    """A championship played through its knockout's first semi-final, downloaded."""
    championship()
    services.stage_draw(competition_id="euro", stage_id="groups", by="director")
    play_groups()
    services.stage_draw(competition_id="euro", stage_id="ko", by="director")
    win("euro-ko-1-1", "B")
    path = tmp_path / "euro.carambole.zip"
    path.write_bytes(downloaded(client))
    return path


def changed(source, target, change) -> None:
    """Copy a competition's zip with its log.json changed."""
    with zipfile.ZipFile(source) as read, zipfile.ZipFile(target, "w") as write:
        for name in read.namelist():
            body = read.read(name)
            if name == "log.json":
                log = json.loads(body)
                change(log)
                body = json.dumps(log).encode()
            write.writestr(name, body)


def test_the_zip_s_log_says_each_event_s_hash_version_and_the_ids_offset(semi_final_zip):
    with zipfile.ZipFile(semi_final_zip) as archive:
        log = json.loads(archive.read("log.json"))

    assert log["format"] == "carambole.competition-log/2"
    assert log["id_offset"] == 0
    assert {event["hash_version"] for event in log["events"]} == {IDS_HASHED}


def withdraw_one_who_is_out() -> None:
    """Withdraw a player whom the groups left out: an event of the log alone."""
    knockout = Match.objects.filter(competition_id="euro", stage_id="ko")
    playing = {player for m in knockout for player in (m.player_a_id, m.player_b_id)}
    entries = Entry.objects.filter(competition_id="euro", withdrawn=False)
    out = entries.exclude(player_id__in=playing).order_by("seed").first()
    services.player_withdraw(
        competition_id="euro", player_key_=out.player_id, reason="left", by="director"
    )


def test_an_imported_log_verifies_where_it_lands_and_goes_on_there_at_any_offset(
    semi_final_zip, client, tmp_path
):
    emptied()
    win(league("cup")[0], "A")  # this database's log has passed the archive's ids
    moved = competition_import(str(semi_final_zip)).offset
    projector.catch_up()
    assert moved > 0 and Competition.objects.get(pk="euro").id_offset == moved
    withdraw_one_who_is_out()
    win("euro-ko-1-2", "A")  # events of a match between two of the log's
    withdraw_one_who_is_out()
    assert {c.pk: verify_log(c) for c in Competition.objects.all()} == {"cup": [], "euro": []}

    again = tmp_path / "again.zip"
    again.write_bytes(downloaded(client))
    emptied()
    for match_id in league("cup"):
        win(match_id, "A")  # further on than the first database was
    assert competition_import(str(again)).offset > moved
    projector.catch_up()
    win("euro-ko-2-1", "B")
    withdraw_one_who_is_out()

    assert {c.pk: verify_log(c) for c in Competition.objects.all()} == {"cup": [], "euro": []}
    assert all(problems == [] for problems in archive_verify().values())


def test_a_zip_whose_log_event_was_given_another_id_is_refused_whole(semi_final_zip, tmp_path):
    emptied()
    broken = tmp_path / "broken.zip"

    def another_id(log):
        every = [i for ids in log["match_event_ids"].values() for i in ids]
        every += [event["id"] for event in log["events"]]
        assert len(log["events"]) == 10  # the last: any id past the others keeps their order
        log["events"][9]["id"] = max(every) + 1

    changed(semi_final_zip, broken, another_id)

    with pytest.raises(Refused) as refused:
        competition_import(str(broken))

    assert (refused.value.field, refused.value.seq) == ("log.json: events[9].hash", 10)
    assert "its global id" in refused.value.message
    assert not Competition.objects.exists() and not Event.objects.exists()


def test_a_zip_whose_match_event_was_moved_past_a_draw_is_refused_whole(semi_final_zip, tmp_path):
    emptied()
    broken = tmp_path / "broken.zip"

    def move(log):
        every = [i for ids in log["match_event_ids"].values() for i in ids]
        every += [event["id"] for event in log["events"]]
        log["match_event_ids"]["euro-groups-A1"][-1] = max(every) + 1000  # after the draw

    changed(semi_final_zip, broken, move)

    with pytest.raises(Refused) as refused:
        competition_import(str(broken))

    assert (refused.value.field, refused.value.seq) == ("log.json: events[9].hash", 10)
    assert not Event.objects.exists()


def first_id(log: dict) -> int:
    every = [i for ids in log["match_event_ids"].values() for i in ids]
    return min(every + [event["id"] for event in log["events"]])


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda log: log["events"][0].update(hash_version=3), "log.json: events[0].hash_version"),
        (lambda log: log["events"][0].update(hash_version=2.0), "log.json: events[0].hash_version"),
        (lambda log: log["events"][4].update(hash_version=1), "log.json: events[4].hash_version"),
        (lambda log: log.update(id_offset=first_id(log)), "log.json: id_offset"),
        (lambda log: log.update(id_offset=-(2**63)), "log.json: id_offset"),
        (lambda log: log.update(id_offset=True), "log.json: id_offset"),
        (
            lambda log: log["events"][2].update(match_event_ids={}),
            "log.json: events[2].match_event_ids",
        ),
    ],
)
def test_a_zip_whose_log_breaks_the_chain_s_rules_is_refused_naming_the_field(
    semi_final_zip, tmp_path, change, field
):
    emptied()
    broken = tmp_path / "broken.zip"
    changed(semi_final_zip, broken, change)

    with pytest.raises(Refused) as refused:
        competition_import(str(broken))

    assert refused.value.field == field
    assert not Event.objects.exists()


def test_a_zip_of_log_format_1_still_imports_and_verifies(semi_final_zip, tmp_path):
    emptied()
    older = tmp_path / "older.zip"

    def as_format_1(log):
        """Hash every event again as version 1 did, as an archive of then exported it."""
        log["format"] = "carambole.competition-log/1"
        del log["id_offset"]
        previous = competition_seal(Competition(pk=log["competition"], **_sealed(log)))
        for event in log["events"]:
            del event["hash_version"]
            body = {k: v for k, v in event.items() if k not in ("id", "hash")}
            event["hash"] = previous = event_hash(previous, body)

    changed(semi_final_zip, older, as_format_1)
    competition_import(str(older))

    euro = Competition.objects.get(pk="euro")
    assert set(Event.objects.filter(competition=euro).values_list("hash_version", flat=True)) == {
        FIRST_HASH_VERSION
    }
    assert verify_log(euro) == []


def _sealed(log: dict) -> dict:
    return {"ruleset": log["ruleset"], "stages": log["stages"]}
