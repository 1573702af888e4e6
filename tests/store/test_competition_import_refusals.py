"""A competition's zip that is not what an export writes: refused naming the file and the
field, nothing stored, and the log goes on taking events after it."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.db import connection, transaction
from hypothesis import event, given
from hypothesis import strategies as st

from matches import store
from matches.competition_archive import competition_import
from matches.domain.log_document import LARGEST_ID, parse_log_document
from matches.models import Competition, Entry, Event, Match, Player
from matches.records import archive_verify
from matches.services.competition_log import verify_log
from replay.projections import projector
from tests.support.builders import new_match, open_game, play
from tests.support.competition_zip import downloaded, emptied, played, views
from tests.support.hostile import SHORT_MESSAGE
from tests.support.zips import MANGLING, mangled, members, with_json, zipped

_MADE: dict[str, bytes] = {}


@pytest.fixture
def euro(db, client) -> bytes:
    """The zip of a championship played (groups, a knockout drawn, a semi-final won) after
    a match of another's began, so that its ids begin past 1 (as they do in a database
    that has a past), in an empty database: made once, by the first test that asks."""
    if "euro" not in _MADE:
        match = new_match()
        play(match.id, open_game(match.id))
        played()
        _MADE["euro"] = downloaded(client)
        emptied()
    return _MADE["euro"]


def counts() -> tuple[int, ...]:
    return tuple(model.objects.count() for model in (Competition, Match, Player, Entry, Event))


def put(path: str, value: Any) -> Callable[[Any], None]:
    """Set the value at a dotted path (`events.0.id`) of a document."""

    def change(document: Any) -> None:
        *parents, last = path.split(".")
        node = document
        for key in parents:
            node = node[int(key)] if isinstance(node, list) else node[key]
        node[int(last) if isinstance(node, list) else last] = value

    return change


def drop(path: str) -> Callable[[Any], None]:
    """Delete the key at a dotted path of a document."""

    def change(document: Any) -> None:
        *parents, last = path.split(".")
        node = document
        for key in parents:
            node = node[int(key)] if isinstance(node, list) else node[key]
        del node[last]

    return change


def shorten(path: str) -> Callable[[Any], None]:
    """Take the last item off the list at a dotted path of a document."""

    def change(document: Any) -> None:
        node = document
        for key in path.split("."):
            node = node[key]
        node.pop()

    return change


def log(change: Callable[[Any], Any]) -> Callable[[bytes], bytes]:
    return lambda body: with_json(body, "log.json", change)


def competition(change: Callable[[Any], Any]) -> Callable[[bytes], bytes]:
    return lambda body: with_json(body, "competition.json", change)


def refused(path: Any) -> str:
    """Run import_competition, which must refuse the zip; return what it says."""
    with pytest.raises(CommandError) as error:
        call_command("import_competition", str(path), stdout=io.StringIO())
    message = str(error.value)
    assert message.startswith(f"{path}: refused, nothing stored: "), message
    return message


A1 = "match_event_ids.euro-groups-A1"

HOSTILE = {
    "log.json without its ruleset": (log(drop("ruleset")), "log.json: ruleset"),
    "log.json without its stages": (log(drop("stages")), "log.json: stages"),
    "log.json without its events": (log(drop("events")), "log.json: events"),
    "log.json without match_event_ids": (log(drop("match_event_ids")), "log.json: match_event_ids"),
    "an event without its id": (log(drop("events.0.id")), "log.json: events[0].id"),
    "an event without its by": (log(drop("events.0.by")), "log.json: events[0].by"),
    "an event without its hash": (log(drop("events.0.hash")), "log.json: events[0].hash"),
    "an id that is a string": (log(put("events.0.id", "1")), "log.json: events[0].id"),
    "an id that is a float": (log(put("events.0.id", 1.0)), "log.json: events[0].id"),
    "an id that is true": (log(put("events.0.id", True)), "log.json: events[0].id"),
    "a negative id": (log(put("events.0.id", -1)), "log.json: events[0].id"),
    "an id of 0": (log(put("events.0.id", 0)), "log.json: events[0].id"),
    "an id past a bigint": (log(put("events.0.id", 2**63)), "log.json: events[0].id"),
    "an id far past a bigint": (log(put("events.0.id", 10**400)), "log.json: events[0].id"),
    "ids out of order in the log": (log(put("events.0.id", 2**63 - 1)), "log.json: events[1].id"),
    "a match's id that is a string": (log(put(f"{A1}.0", "x")), f"log.json: {A1}[0]"),
    "a match's id that is negative": (log(put(f"{A1}.0", -5)), f"log.json: {A1}[0]"),
    "an id given twice": (
        log(lambda document: put(f"{A1}.0", document["events"][0]["id"])(document)),
        f"log.json: {A1}[0]",
    ),
    "a match's ids out of order": (
        log(lambda document: document["match_event_ids"]["euro-groups-A1"].reverse()),
        f"log.json: {A1}[1]",
    ),
    "ids for a match not scheduled": (
        log(put("match_event_ids.elsewhere", [10**12])),
        "log.json: match_event_ids.elsewhere",
    ),
    "a match short of ids": (log(shorten(A1)), f"log.json: {A1}"),
    "an event of no known kind": (log(put("events.0.type", "rm -rf")), "log.json: events[0].type"),
    "an event out of its seq": (log(put("events.0.seq", 2)), "log.json: events[0].seq"),
    "an event whose seq is true": (log(put("events.0.seq", True)), "log.json: events[0].seq"),
    "an event at no time": (log(put("events.0.at", "yesterday")), "log.json: events[0].at"),
    "an event whose by is no text": (log(put("events.0.by", 7)), "log.json: events[0].by"),
    "a player with a NUL": (
        log(put("events.0.player.name", "Ro\x00ssi")),
        "log.json: events[0].player.name",
    ),
    "a seed past any column": (log(put("events.0.seed", 2**40)), "log.json: events[0].seed"),
    "two players with one seed": (log(put("events.1.seed", 1)), "log.json: events[1]"),
    "an event that is no object": (log(put("events.0", [1, 2])), "log.json: events[0]"),
    "log.json that is a list": (log(lambda document: [document]), "log.json"),
    "log.json that is no JSON": (log(lambda document: b"{"), "log.json"),
    "a log event with a changed seed": (log(put("events.3.seed", 99)), "log.json: events[3].hash"),
    "a NUL in the competition's id": (competition(put("id", "eu\x00ro")), "competition.json: id"),
    "a competition id that is a list": (competition(put("id", ["euro"])), "competition.json: id"),
    "a competition's name that is a number": (
        competition(put("name", 5)),
        "competition.json: name",
    ),
    "competition.json that is a list": (
        competition(lambda document: [document]),
        "competition.json",
    ),
    "competition.json that is no JSON": (competition(lambda document: b"\xff"), "competition.json"),
    "a schedule that is no list": (competition(put("schedule", {})), "competition.json: schedule"),
    "a schedule entry that is no object": (
        competition(put("schedule.0", "matches/x.json")),
        "competition.json: schedule[0].record",
    ),
    "a schedule naming no record in the zip": (
        competition(put("schedule.2.record", "matches/x.json")),
        "competition.json: schedule[2].record",
    ),
    "a ruleset in the log no competition can have": (
        log(put("ruleset.target", -4)),
        "log.json: ruleset.target",
    ),
    "stages in the log no competition can have": (
        log(put("stages.0.kind", "pyramid")),
        "log.json: stages[0].kind",
    ),
    "a record of another competition": (
        lambda body: with_json(
            body, "matches/euro-groups-A1.json", put("match.competition", "cup")
        ),
        "matches/euro-groups-A1.json: match.competition",
    ),
    "a record with a changed event": (
        lambda body: with_json(
            body, "matches/euro-groups-A1.json", put("events.3.at", "2020-01-01T00:00:00.000Z")
        ),
        "matches/euro-groups-A1.json: hash",
    ),
}


@pytest.mark.parametrize("case", list(HOSTILE))
def test_a_hostile_competition_zip_is_refused_naming_the_file_and_field(euro, tmp_path, case):
    change, field = HOSTILE[case]
    path = tmp_path / "euro.carambole.zip"
    path.write_bytes(change(euro))

    message = refused(path)

    assert f"{field}: " in message
    assert counts() == (0, 0, 0, 0, 0)


def test_a_zip_without_competition_json_is_refused_naming_it(euro, tmp_path):
    files = members(euro)
    del files["competition.json"]
    path = tmp_path / "euro.carambole.zip"
    path.write_bytes(zipped(files))

    assert refused(path).endswith(": competition.json: is missing from a competition's zip")


def every_id_moved(by: int) -> Callable[[Any], None]:
    """Add `by` to every global id of a log, keeping their order, as an import that moved
    them says it did (`id_offset`: the hashes cover the ids as they were recorded)."""

    def change(document: Any) -> None:
        document["id_offset"] = document.get("id_offset", 0) + by
        for logged in document["events"]:
            logged["id"] += by
        for ids in document["match_event_ids"].values():
            ids[:] = [i + by for i in ids]

    return change


def largest_id_at(largest: int) -> Callable[[Any], None]:
    """Move every global id of a log up so that the largest is `largest`."""

    def change(document: Any) -> None:
        every = [event["id"] for event in document["events"]]
        every += [i for ids in document["match_event_ids"].values() for i in ids]
        every_id_moved(largest - max(every))(document)

    return change


@pytest.fixture
def sequence_put_back(db):
    """Put the events' id sequence back where it was after a test that takes it far:
    PostgreSQL's sequences are not rolled back with the test's transaction."""
    if connection.vendor != "postgresql":
        yield
        return
    sequence = f"pg_get_serial_sequence('{Event._meta.db_table}', 'id')"
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT last_value, is_called FROM {Event._meta.db_table}_id_seq")
        last, called = cursor.fetchone()
    yield
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT setval({sequence}, %s, %s)", [last, called])


def test_ids_that_would_take_the_log_past_the_largest_an_import_stores_are_refused(euro, tmp_path):
    path = tmp_path / "euro.carambole.zip"
    path.write_bytes(log(put("events.9.id", 2**63 - 1))(euro))  # a draw given the last bigint

    message = refused(path)

    assert "log.json: events[9].id: is " in message
    assert f"the ids would pass {LARGEST_ID:,}, the most an import stores" in message
    assert counts() == (0, 0, 0, 0, 0)
    match = new_match()
    play(match.id, open_game(match.id))
    assert Event.objects.filter(match=match).count() == 4


def test_ids_past_the_largest_an_import_stores_move_back_to_follow_the_log(euro, tmp_path):
    kept, moved = tmp_path / "kept.zip", tmp_path / "moved.zip"
    kept.write_bytes(euro)
    moved.write_bytes(log(every_id_moved(LARGEST_ID))(euro))
    with transaction.atomic():
        competition_import(str(kept))
        projector.catch_up()
        as_kept = views()
        transaction.set_rollback(True)
    projector.rebuild()
    out = io.StringIO()

    call_command("import_competition", str(moved), stdout=out)
    projector.catch_up()

    assert "every version moved by -" in out.getvalue()
    assert Event.objects.order_by("id").first().id == 1  # following an empty log
    shown = views()
    assert shown[0]["stages"] == as_kept[0]["stages"]
    assert shown[1]["rows"] == as_kept[1]["rows"]
    match = new_match()
    play(match.id, open_game(match.id))


def test_a_log_whose_ids_an_import_moved_back_says_an_offset_below_0(euro):
    written = json.loads(members(euro)["log.json"])
    written["id_offset"] = -1000  # recorded 1,000 further on than stored

    assert parse_log_document(written).id_offset == -1000


def test_a_competition_whose_ids_moved_back_exports_a_zip_that_imports_again(
    euro, tmp_path, client
):
    moved, again = tmp_path / "moved.zip", tmp_path / "again.zip"
    moved.write_bytes(log(every_id_moved(LARGEST_ID))(euro))
    competition_import(str(moved))
    offset = Competition.objects.get(pk="euro").id_offset
    again.write_bytes(downloaded(client))
    emptied()

    competition_import(str(again))

    assert offset < 0  # its ids were recorded past 1, and are stored from 1
    assert json.loads(members(again.read_bytes())["log.json"])["id_offset"] == offset
    assert Competition.objects.get(pk="euro").id_offset == offset
    assert verify_log(Competition.objects.get(pk="euro")) == []


def test_the_largest_id_an_import_stores_leaves_the_log_room_for_what_follows(
    euro, tmp_path, sequence_put_back
):
    path = tmp_path / "euro.carambole.zip"
    path.write_bytes(log(largest_id_at(LARGEST_ID))(euro))

    call_command("import_competition", str(path), stdout=io.StringIO())
    largest = Event.objects.order_by("-id").first()
    match = new_match()
    play(match.id, open_game(match.id))

    assert largest is not None and largest.id == LARGEST_ID
    ids = list(Event.objects.filter(match=match).order_by("seq").values_list("id", flat=True))
    assert ids == [LARGEST_ID + 1, LARGEST_ID + 2, LARGEST_ID + 3, LARGEST_ID + 4]


def test_ids_that_past_this_database_s_log_would_pass_the_largest_an_import_stores_are_refused(
    euro, tmp_path, sequence_put_back
):
    written = json.loads(members(euro)["log.json"])
    ids = [event["id"] for event in written["events"]]
    first = min(ids + [i for found in written["match_event_ids"].values() for i in found])
    moved = log(every_id_moved(1 - first))(euro)  # from 1: whatever is recorded passes it
    path = tmp_path / "euro.carambole.zip"
    path.write_bytes(log(put("events.9.id", LARGEST_ID))(moved))
    match = new_match()
    play(match.id, open_game(match.id))  # this database's log has passed the zip's first id
    before = counts()

    message = refused(path)

    assert "log.json: events[9].id: is " in message
    assert f"after this database's log (at {store.log_head():,})" in message
    assert counts() == before
    play(match.id, 4)
    assert Event.objects.filter(match=match).count() == 5


# -- Any zip at all ------------------------------------------------------------------------


@MANGLING
@given(data=st.data())
def test_any_mangled_competition_zip_is_imported_or_refused_in_words_storing_nothing(
    euro, tmp_path, data
):
    path = tmp_path / "mangled.zip"
    path.write_bytes(data.draw(mangled(euro)))

    with transaction.atomic():
        try:
            call_command("import_competition", str(path), stdout=io.StringIO())
        except CommandError as error:
            event("refused")
            said = f"{path}: refused, nothing stored: "
            assert str(error).startswith(said), str(error)
            assert len(str(error)) <= len(said) + SHORT_MESSAGE, str(error)
            assert counts() == (0, 0, 0, 0, 0)
        else:
            event("imported")
            assert archive_verify() == {match: [] for match in archive_verify()}
            assert verify_log(Competition.objects.get()) == []
        transaction.set_rollback(True)
