"""GET /api/ratings/: every rated player's Glicko-2 rating at the end of a day, to anyone."""

from __future__ import annotations

from rest_framework.test import APIClient

from matches.models import Match
from replay.projections import projector
from tests.support.league import dated_league, names, win


def test_the_ratings_as_of_a_day_place_the_winner_first_with_the_system_named(db):
    first, *_ = dated_league()
    win(first, "A")
    projector.catch_up()
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
    projector.catch_up()
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
    projector.catch_up()
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
