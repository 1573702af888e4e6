"""The hall's read: a card shows its match as of the card's seq."""

from __future__ import annotations

import pytest

from matches import services, store
from matches.models import Match
from replay.queries.hall import _now, hall_get
from tests.support.builders import new_match, open_game, play
from tests.support.league import RULESET, league

pytestmark = pytest.mark.usefixtures("projector_forgotten", "db")


def test_a_card_read_as_its_match_moves_on_shows_the_match_at_the_cards_seq():
    new_match("cup-a-1")
    services.tables_set(competition_id="cup", names=["1"], by="federation")
    services.match_assign_table(match_id="cup-a-1", table="1", by="federation")
    open_game("cup-a-1")
    read = store.with_head(Match.objects.filter(pk="cup-a-1")).get()  # the hall's first query
    before = _now(read, {}, {}, {})

    play("cup-a-1", 3)  # committed between the hall's query of heads and its states

    assert _now(read, {}, {}, {}) == before
    assert before["seq"] == 3


def places_of(competition: str) -> dict[str, dict | None]:
    return {waiting["id"]: waiting["place"] for waiting in hall_get(competition)["waiting"]}


def test_a_round_robins_matches_wait_with_their_round():
    made = league()

    places = places_of("cup")

    assert [places[match] for match in made] == [{"round": n} for n in (1, 1, 2, 2, 3, 3)]


def test_a_groups_matches_wait_with_their_group_and_round_and_a_knockouts_with_its_round():
    services.competition_create(
        id="euro",
        name="Euro",
        ruleset=RULESET,
        stages=[
            {"id": "groups", "kind": "groups", "groups": 2, "advance": 2},
            {"id": "ko", "kind": "knockout", "from": "groups", "third_place": True},
        ],
    )
    for seed in range(1, 9):
        services.player_enter(
            competition_id="euro", player={"name": f"Player {seed}"}, seed=seed, by="director"
        )
    services.stage_draw(competition_id="euro", stage_id="groups", by="director")

    places = places_of("euro")

    group_a = [place for match, place in places.items() if "-groups-A" in match]
    assert len(group_a) == 6
    assert sorted(place["round"] for place in group_a) == [1, 1, 2, 2, 3, 3]
    assert {place["group"] for place in group_a} == {"A"}


def test_a_knockouts_matches_wait_with_their_round_and_the_knockouts_rounds():
    services.competition_create(
        id="open",
        name="Open",
        ruleset=RULESET,
        stages=[{"id": "ko", "kind": "knockout", "third_place": True}],
    )
    for seed in range(1, 5):
        services.player_enter(
            competition_id="open", player={"name": f"Player {seed}"}, seed=seed, by="director"
        )
    services.stage_draw(competition_id="open", stage_id="ko", by="director")

    places = places_of("open")

    assert places == {
        "open-ko-1-1": {"round": 1, "rounds": 2},
        "open-ko-1-2": {"round": 1, "rounds": 2},
    }
