"""The hall's read: a card shows its match as of the card's seq."""

from __future__ import annotations

import pytest

from matches import services, store
from matches.models import Match
from replay.queries.hall import _now
from tests.support.cast import new_match, open_game, play

pytestmark = pytest.mark.usefixtures("projector_forgotten", "db")


def test_a_card_read_as_its_match_moves_on_shows_the_match_at_the_cards_seq():
    new_match("cup-a-1")
    services.tables_set(competition_id="cup", names=["1"], by="federation")
    services.match_assign_table(match_id="cup-a-1", table="1", by="federation")
    open_game("cup-a-1")
    read = store.with_head(Match.objects.filter(pk="cup-a-1")).get()  # the hall's first query
    before = _now(read, {})

    play("cup-a-1", 3)  # committed between the hall's query of heads and its states

    assert _now(read, {}) == before
    assert before["seq"] == 3
