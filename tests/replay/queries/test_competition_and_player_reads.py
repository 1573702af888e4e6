"""The reads behind a competition's page and a player's page, apart from the pages."""

import pytest

from matches import services
from matches.domain.simulator import iter_competition
from matches.models import Competition, Player
from matches.records import record_import
from replay.projections import projector
from replay.queries.competitions import competition_entrants, competition_matches
from replay.queries.player_matches import player_lines, player_totals
from tests.support.builders import PLAYERS, open_game

PAIR = [{"name": "Ann Able"}, {"name": "Bo Baker"}]


@pytest.fixture
def ann_and_bo_played(db):
    """Two finished matches of Ann and Bo in "cup", one under way, one not started."""
    for record in iter_competition(7, 2, PAIR, competition="cup"):
        record_import(record, by="demo")
    services.match_create(id="cup-live", competition="cup", players=PLAYERS, date="2026-12-01")
    open_game("cup-live")
    services.match_create(id="cup-later", competition="cup", players=PLAYERS, date="2026-12-02")
    projector.catch_up()
    return Competition.objects.get(pk="cup")


def test_a_competitions_results_are_its_finished_matches_and_the_rest_its_schedule(
    ann_and_bo_played,
):
    matches = competition_matches(ann_and_bo_played)

    assert [line["status"] for line in matches.results] == ["finished", "finished"]
    assert {line["match"]: line["status"] for line in matches.schedule} == {
        "cup-live": "playing",
        "cup-later": "scheduled",
    }
    result = matches.results[0]
    assert max(result["games"]) >= 1 and result["winner"] in ("A", "B")


def test_a_competitions_entrants_come_with_the_keys_of_their_pages(ann_and_bo_played):
    services.player_enter(competition_id="cup", player={"name": "Cy Cole"}, by="staff")

    assert [(e["name"], bool(e["key"])) for e in competition_entrants(ann_and_bo_played)] == [
        ("Cy Cole", True)
    ]


def test_a_players_lines_put_their_own_games_and_points_first_from_either_side(ann_and_bo_played):
    ann, bo = Player.objects.get(name="Ann Able"), Player.objects.get(name="Bo Baker")

    for mine, theirs in zip(player_lines(ann), player_lines(bo), strict=True):
        assert mine["match"] == theirs["match"]
        assert mine["games"] == theirs["games"][::-1]
        assert mine["points"] == theirs["points"][::-1]
        assert {mine["outcome"], theirs["outcome"]} == {"won", "lost"}
    assert player_lines(ann, versus=Player.objects.get(name="Olena Kovalenko")) == []


def test_a_players_totals_count_decided_matches_and_average_own_points_per_shot():
    lines = [
        {"outcome": "won", "games": (2, 1), "points": (90, 70), "own_points": 60, "shots": 20},
        {"outcome": "lost", "games": (0, 2), "points": (40, 80), "own_points": 30, "shots": 20},
        {"outcome": "", "games": (0, 0), "points": (5, 0), "own_points": 5, "shots": 10},
    ]
    lines = [{**line, "status": "finished" if line["outcome"] else "playing"} for line in lines]
    # A match a decision voided: its record kept, counted in nothing below.
    void = {"outcome": "", "games": (1, 0), "points": (60, 9), "own_points": 60, "shots": 3}
    lines.append({**void, "status": "void"})

    assert player_totals(lines) == {
        "matches": 3,
        "decided": 2,
        "won": 1,
        "lost": 1,
        "games_won": 2,
        "games_lost": 3,
        "points": 135,
        "average": 1.9,
    }
    assert player_totals([])["average"] == 0.0
