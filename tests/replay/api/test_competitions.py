"""The competition endpoints: standings for everyone, entrants and round robins for staff."""

from __future__ import annotations

import pytest

from matches.models import Assignment, Competition, Entry, Match
from replay.projections import projector
from tests.support.league import RULESET, flip, win
from tests.support.logins import api

# Each starts and ends with no fold or table kept from another test's database.
pytestmark = pytest.mark.usefixtures("projector_forgotten")


def test_anyone_reads_the_standings_in_the_shape_of_api_md(round_robin):
    seq = win(round_robin[0], "B")
    flip(round_robin[0], seq)
    projector.catch_up()

    answer = api().get("/api/competitions/cup/standings")

    assert answer.status_code == 200
    body = answer.json()
    assert set(body) == {"competition", "version", "computed_at", "pending", "rows"}
    assert body["competition"] == "cup" and body["version"] > 0 and body["pending"] == 0
    first = body["rows"][0]
    assert {
        "rank",
        "player",
        "player_id",
        "played",
        "won",
        "lost",
        "match_points",
        "games_won",
        "games_lost",
        "points_for",
        "points_against",
        "average",
    } <= set(first)
    assert first["rank"] == 1 and first["match_points"] == 2


def test_standings_before_any_event_are_version_0_and_empty(round_robin):
    body = api().get("/api/competitions/cup/standings").json()
    assert (body["version"], body["pending"], body["rows"]) == (0, 0, [])


def test_an_unknown_competition_is_a_json_404_naming_the_id(db):
    answer = api().get("/api/competitions/nope/standings")
    assert answer.status_code == 404
    assert answer.json()["field"] == "id"


def test_staff_enter_players_and_entering_one_again_changes_nothing(staff):
    Competition.objects.create(id="open-2026", name="Open", ruleset=RULESET)
    client = api(staff.key)
    player = {"name": "Olena Kovalenko", "federation_id": "UA-101"}

    first = client.post("/api/competitions/open-2026/players", player, format="json")
    again = client.post("/api/competitions/open-2026/players", player, format="json")

    assert first.status_code == again.status_code == 201
    assert first.json() == again.json()
    assert first.json()["federation_id"] == "UA-101"
    assert Entry.objects.filter(competition_id="open-2026").count() == 1


def test_staff_generate_a_round_robin_with_its_referee(staff, referee):
    Competition.objects.create(id="open-2026", name="Open", ruleset=RULESET)
    client = api(staff.key)
    for name in ("Anna", "Bohdan", "Chiara"):
        client.post("/api/competitions/open-2026/players", {"name": name}, format="json")

    answer = client.post(
        "/api/competitions/open-2026/round-robin",
        {"first_date": "2026-12-01", "referee": "petrenko"},
        format="json",
    )

    assert answer.status_code == 201
    created = answer.json()["matches"]
    assert len(created) == 3
    days = sorted(str(m.date) for m in Match.objects.filter(pk__in=created))
    assert days == ["2026-12-01", "2026-12-02", "2026-12-03"]
    assert Assignment.objects.filter(match_id__in=created, user=referee.user).count() == 3
    again = client.post("/api/competitions/open-2026/round-robin", {}, format="json")
    assert again.status_code == 201 and again.json() == {"matches": []}


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"name": ""}, "name"),
        ({"name": 7}, "name"),
        ({"name": "Anna", "club": "x"}, "club"),
        ({"name": "x" * 500}, "name"),
    ],
)
def test_a_bad_player_is_refused_naming_the_field_and_nothing_is_stored(staff, body, field):
    Competition.objects.create(id="open-2026", name="Open")

    answer = api(staff.key).post("/api/competitions/open-2026/players", body, format="json")

    assert answer.status_code in (400, 422)
    assert answer.json()["field"] == field
    assert not Entry.objects.exists()


def test_a_round_robin_of_one_player_or_an_unknown_referee_stores_nothing(staff):
    Competition.objects.create(id="open-2026", name="Open")
    client = api(staff.key)
    client.post("/api/competitions/open-2026/players", {"name": "Anna"}, format="json")
    alone = client.post("/api/competitions/open-2026/round-robin", {}, format="json")
    client.post("/api/competitions/open-2026/players", {"name": "Bohdan"}, format="json")
    nobody = client.post(
        "/api/competitions/open-2026/round-robin", {"referee": "ghost"}, format="json"
    )
    bad_day = client.post(
        "/api/competitions/open-2026/round-robin", {"first_date": "tomorrow"}, format="json"
    )

    assert (alone.status_code, alone.json()["field"]) == (422, "players")
    assert (nobody.status_code, nobody.json()["field"]) == (422, "username")
    assert (bad_day.status_code, bad_day.json()["field"]) == (422, "first_date")
    assert not Match.objects.exists()


STAFF_ONLY = [
    ("/api/competitions/open-2026/players", {"name": "Anna"}),
    ("/api/competitions/open-2026/round-robin", {}),
]


@pytest.mark.parametrize(("path", "body"), STAFF_ONLY)
def test_without_credentials_staff_endpoints_are_401_and_store_nothing(db, path, body):
    Competition.objects.create(id="open-2026", name="Open")

    answer = api().post(path, body, format="json")

    assert answer.status_code == 401
    assert not Entry.objects.exists() and not Match.objects.exists()


@pytest.mark.parametrize(("path", "body"), STAFF_ONLY)
def test_a_referee_is_403_on_staff_endpoints_and_nothing_is_stored(referee, path, body):
    Competition.objects.create(id="open-2026", name="Open")

    answer = api(referee.key).post(path, body, format="json")

    assert answer.status_code == 403
    assert not Entry.objects.exists() and not Match.objects.exists()


def test_the_schema_describes_the_competition_endpoints(db):
    paths = api().get("/api/schema/").json()["paths"]

    assert "get" in paths["/api/competitions/{id}/standings"]
    assert "post" in paths["/api/competitions/{id}/players"]
    assert "post" in paths["/api/competitions/{id}/round-robin"]
