"""A corrupt stored row is reported where it is met, never a 500 for the whole page."""

import io
from collections.abc import Callable

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.test import Client

from carambole.caches import clear_every_cache
from matches.domain.errors import Refused
from matches.immutability import EVENTS_TABLE, triggers_lifted
from matches.models import Match
from matches.records import record_export
from matches.selectors import events_after
from replay.live.stream import Stream
from replay.projections.states import match_state
from replay.projections.timeline import match_timeline
from tests.support.builders import new_match, open_game, play

# Every fold of one match's log, and below every reader: each refuses a corrupt row in
# the same words.
FOLDERS: dict[str, Callable[[Match], object]] = {
    "state on demand": lambda match: match_state(match.id),
    "the replay's timeline": match_timeline,
    "a live stream opening": lambda match: Stream.open(match.id),
    "a live stream reading on": lambda match: Stream.open(match.id, after=1).read(100),
}
READERS = {
    **FOLDERS,
    # These hand the events on unfolded.
    "the API's events": events_after,
    "the record's export": lambda match: record_export(match.id),
}


@pytest.fixture
def corrupt(db):
    """Two matches; event 4 of the second no longer reads as JSON."""
    sound, broken = new_match("cup-a-1"), new_match("cup-a-2")
    for match in (sound, broken):
        play(match.id, open_game(match.id))
    with triggers_lifted(), connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {EVENTS_TABLE} SET data = %s WHERE match_id = %s AND seq = 4",
            ['{"type": "shot", "contacts": [', broken.id],
        )
    clear_every_cache()
    return sound, broken


def test_the_home_page_lists_every_match_and_names_the_unreadable_one(corrupt):
    sound, broken = corrupt

    response = Client().get("/")

    assert response.status_code == 200
    body = response.content.decode()
    assert sound.id in body and broken.id in body
    assert "unreadable" in body
    assert "seq 4, data: the stored event cannot be read" in body


def test_the_state_of_a_match_with_a_corrupt_row_is_refused_naming_its_seq(corrupt):
    _, broken = corrupt

    with pytest.raises(Refused) as refused:
        match_state(broken.id)

    assert (refused.value.field, refused.value.seq) == ("data", 4)


def test_export_match_names_the_corrupt_row_instead_of_a_traceback(corrupt):
    _, broken = corrupt

    with pytest.raises(CommandError, match="seq 4, data: the stored event cannot be read"):
        call_command("export_match", broken.id, stdout=io.StringIO())


def test_a_row_that_reads_but_cannot_be_folded_is_refused_too(db):
    match = new_match()
    play(match.id, open_game(match.id))
    with triggers_lifted(), connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {EVENTS_TABLE} SET data = %s WHERE match_id = %s AND seq = 2",
            ['{"type": "game_started"}', match.id],
        )
    clear_every_cache()

    with pytest.raises(Refused, match="cannot be folded"):
        match_state(match.id)


def _store_behind_its_back(match_id, seq, data):
    with triggers_lifted(), connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {EVENTS_TABLE} SET data = %s WHERE match_id = %s AND seq = %s",
            [data, match_id, seq],
        )
    clear_every_cache()


@pytest.mark.parametrize(
    "data",
    [
        pytest.param('{"type": "shot", "contacts": [', id="cut short"),
        pytest.param('[{"type": "shot"}]', id="a list"),
        # Python's own json reads NaN: the model's copy of the decoder let it through to
        # the API and the export.
        pytest.param('{"type": "shot", "contacts": NaN}', id="NaN"),
        pytest.param("4", id="a number"),
    ],
)
@pytest.mark.parametrize("reader", READERS)
def test_every_reader_refuses_a_row_that_is_no_json_object_in_the_same_words(db, reader, data):
    match = new_match()
    play(match.id, open_game(match.id))
    _store_behind_its_back(match.id, 4, data)

    with pytest.raises(Refused) as refused:
        READERS[reader](match)

    assert (refused.value.message, refused.value.field, refused.value.seq) == (
        "the stored event cannot be read: not a JSON object",
        "data",
        4,
    )


@pytest.mark.parametrize("reader", FOLDERS)
def test_every_fold_refuses_a_row_that_reads_but_cannot_be_folded_in_the_same_words(db, reader):
    match = new_match()
    play(match.id, open_game(match.id))
    _store_behind_its_back(match.id, 2, '{"type": "game_started"}')

    with pytest.raises(Refused) as refused:
        FOLDERS[reader](match)

    assert (refused.value.message, refused.value.field) == (
        "a stored event cannot be folded (KeyError)",
        "data",
    )
    # Folded one event at a time, a stream knows which one it was.
    assert refused.value.seq == (2 if reader == "a live stream reading on" else None)
