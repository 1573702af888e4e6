"""GET /api/ratings/: every rated player's Glicko-2 rating at the end of a day, to anyone."""

from __future__ import annotations

from rest_framework.test import APIClient

from matches.models import Match
from tests.support.league import ENTRANTS, RULESET, dated_league, names, win
from tests.support.logins import api
from tests.support.projected import projected


def test_the_ratings_as_of_a_day_place_the_winner_first_with_the_system_named(db):
    first, *_ = dated_league()
    win(first, "A")
    projected()
    winner, loser = names(first)

    answer = APIClient().get("/api/ratings/", {"as_of": "2026-05-01"})

    assert answer.status_code == 200
    body = answer.json()
    assert body["as_of"] == "2026-05-01"
    assert body["system"]["name"] == "Glicko-2" and body["system"]["tau"] == 0.5
    assert [(row["place"], row["player"]) for row in body["ratings"]] == [(1, winner), (2, loser)]
    assert body["ratings"][0]["rating"] > 1500 and body["ratings"][0]["matches"] == 1


def test_a_day_later_the_deviation_has_grown_and_before_the_match_no_one_is_rated(db):
    first, *_ = dated_league()
    win(first, "A")
    projected()
    client = APIClient()

    that_day = client.get("/api/ratings/", {"as_of": "2026-05-01"}).json()["ratings"][0]
    a_month_on = client.get("/api/ratings/", {"as_of": "2026-06-01"}).json()["ratings"][0]

    assert a_month_on["rating"] == that_day["rating"]
    assert a_month_on["deviation"] > that_day["deviation"]
    assert client.get("/api/ratings/", {"as_of": "2026-04-30"}).json()["ratings"] == []


def test_a_day_that_is_no_date_is_a_400_naming_as_of(db):
    answer = APIClient().get("/api/ratings/", {"as_of": "May the first"})

    assert answer.status_code == 400
    assert answer.json()["field"] == "as_of"


def test_the_ratings_page_lists_the_players_best_first_and_the_player_page_charts_the_rating(
    db, client
):
    first, *_ = dated_league()
    win(first, "A")
    projected()
    winner, loser = names(first)

    page = client.get("/ratings/", {"as_of": "2026-05-01"}).content.decode()
    key = Match.objects.get(pk=first).players["A"]["federation_id"]
    player = client.get(f"/players/{key}/").content.decode()

    assert page.index(winner) < page.index(loser)
    assert "Glicko-2" in page
    assert 'class="chart rating-chart"' in player
    assert "± " in player


def test_a_ratings_page_asked_for_no_date_says_so_and_shows_today(db, client):
    answer = client.get("/ratings/", {"as_of": "yesterday"})

    assert answer.status_code == 400
    assert "as_of: “yesterday” is no date" in answer.content.decode()


def entered_in_stages(client, seeds):
    """Create the championship "euro" (one group of four), the players of ENTRANTS seeded so."""
    stages = [{"id": "groups", "kind": "groups", "groups": 1, "advance": 2}]
    body = {"id": "euro", "name": "Euro", "ruleset": RULESET, "stages": stages}
    assert client.post("/api/competitions/", body, format="json").status_code == 201
    for player in ENTRANTS:
        entry = {**player, "seed": seeds[player["name"]]}
        assert (
            client.post("/api/competitions/euro/players", entry, format="json").status_code == 201
        )


def test_staff_seed_a_championship_by_the_rating_and_its_history_says_so(staff):
    first, *_ = dated_league()
    win(first, "A")
    projected()
    winner, loser = names(first)
    client = api(staff.key)
    others = [p["name"] for p in ENTRANTS if p["name"] not in (winner, loser)]
    entered_in_stages(client, {loser: 1, others[0]: 2, others[1]: 3, winner: 4})

    answer = client.post("/api/competitions/euro/seeds", {"order": "rating"}, format="json")

    assert answer.status_code == 200, answer.json()
    seeds = [(row["seed"], row["player"]) for row in answer.json()["seeds"]]
    assert seeds == [(1, winner), (2, loser), (3, others[0]), (4, others[1])]
    ranking = client.get("/api/competitions/euro/ranking").json()["rows"]
    assert {row["player"]: row["seed"] for row in ranking}[winner] == 1
    history = client.get("/competitions/euro/history/").content.decode()
    assert f"1. {winner}, 2. {loser}, 3. {others[0]}, 4. {others[1]}" in history


def test_seeding_is_staff_s_by_a_known_order_and_only_before_the_draw(staff, referee):
    client = api(staff.key)
    entered_in_stages(client, {p["name"]: n for n, p in enumerate(ENTRANTS, start=1)})
    seeds = "/api/competitions/euro/seeds"

    by_referee = api(referee.key).post(seeds, {"order": "rating"}, format="json")
    by_alphabet = client.post(seeds, {"order": "alphabet"}, format="json")
    client.post("/api/competitions/euro/stages/groups/draw", {}, format="json")
    after_the_draw = client.post(seeds, {"order": "rating"}, format="json")

    assert by_referee.status_code == 403
    assert by_alphabet.status_code == 400 and by_alphabet.json()["field"] == "order"
    assert after_the_draw.status_code == 422
    assert after_the_draw.json() == {
        "error": "entries closed at the first draw",
        "field": "players",
        "code": "entries_closed",
        "params": {},
    }
