"""A corrupt stored row is reported where it is met, never a 500 for the whole page."""

import io

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.test import Client

from matches.errors import Refused
from matches.immutability import EVENTS_TABLE, triggers_lifted
from replay.projections.states import forget, match_state
from tests.support.cast import new_match, open_game, play


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
    forget()
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
    forget()

    with pytest.raises(Refused, match="cannot be folded"):
        match_state(match.id)
