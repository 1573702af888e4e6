"""The tables endpoints: the hall for everyone; tables set and matches called by staff."""

from __future__ import annotations

import pytest

from matches.models import Match, Table, TableAssignment
from tests.support.builders import new_match, open_game, play
from tests.support.logins import api

pytestmark = pytest.mark.usefixtures("projector_forgotten")


@pytest.fixture
def three_matches_waiting(db):
    """Three matches of the cup, waiting for a table."""
    new_match("cup-a-1")
    new_match("cup-a-2")
    new_match("cup-a-3")


def test_staff_set_tables_call_matches_and_anyone_reads_the_hall(three_matches_waiting, staff):
    client = api(staff.key)
    answer = client.post("/api/competitions/cup/tables", {"tables": ["1", "2"]}, format="json")
    assert answer.status_code == 200
    assert [card["table"] for card in answer.json()["tables"]] == ["1", "2"]
    assert {m["id"] for m in answer.json()["waiting"]} == {"cup-a-1", "cup-a-2", "cup-a-3"}

    called = client.post("/api/competitions/cup/tables/1/call", {"match": "cup-a-1"}, format="json")
    assert called.status_code == 201
    assert called.json()["next"]["id"] == "cup-a-1" and called.json()["match"] is None

    seq = open_game("cup-a-1")
    play(
        "cup-a-1",
        seq,
        {"contacts": [{"ball": "white", "hit": "yellow"}, {"ball": "white", "hit": "red"}]},
    )

    hall = api().get("/api/competitions/cup/tables").json()
    first = hall["tables"][0]
    assert first["match"]["id"] == "cup-a-1"
    assert first["match"]["players"] == {"A": "Olena Kovalenko", "B": "Marco Marchetti"}
    assert first["match"]["score"] == {"A": 4, "B": 0}
    assert first["match"]["games_won"] == {"A": 0, "B": 0}
    assert first["match"]["due"] == "B" and first["match"]["status"] == "playing"
    assert first["match"]["active_at"] is not None
    assert hall["tables"][1]["match"] is None
    assert {m["id"] for m in hall["waiting"]} == {"cup-a-2", "cup-a-3"}
    assert hall["quiet_seconds"] == 120
    assert Match.objects.get(pk="cup-a-1").table == "1"


def test_staff_move_a_match_and_each_move_is_kept(three_matches_waiting, staff):
    client = api(staff.key)
    client.post("/api/competitions/cup/tables", {"tables": ["1", "2"]}, format="json")
    first = client.put("/api/matches/cup-a-1/table", {"table": "1"}, format="json")
    moved = client.put("/api/matches/cup-a-1/table", {"table": "2"}, format="json")
    assert first.status_code == moved.status_code == 200
    assert moved.json()["table"] == "2" and moved.json()["assigned_by"] == "federation"
    assert TableAssignment.objects.filter(match_id="cup-a-1").count() == 2
    off = client.put("/api/matches/cup-a-1/table", {"table": None}, format="json")
    assert off.json()["table"] is None


@pytest.mark.parametrize(
    ("method", "path", "body", "code", "field"),
    [
        ("post", "/api/competitions/cup/tables", {"tables": "1"}, 400, "tables"),
        ("post", "/api/competitions/cup/tables", {"tables": ["1", "1"]}, 422, "tables[1]"),
        ("post", "/api/competitions/cup/tables/9/call", {"match": "cup-a-1"}, 404, "table"),
        ("post", "/api/competitions/cup/tables/1/call", {"match": "nope"}, 404, "match"),
        ("post", "/api/competitions/cup/tables/1/call", {}, 400, "match"),
        ("put", "/api/matches/cup-a-1/table", {"table": "9"}, 404, "table"),
    ],
)
def test_bad_requests_name_the_field(three_matches_waiting, staff, method, path, body, code, field):
    client = api(staff.key)
    client.post("/api/competitions/cup/tables", {"tables": ["1"]}, format="json")
    answer = getattr(client, method)(path, body, format="json")
    assert (answer.status_code, answer.json()["field"]) == (code, field)


def test_a_started_match_is_not_called(three_matches_waiting, staff):
    client = api(staff.key)
    client.post("/api/competitions/cup/tables", {"tables": ["1"]}, format="json")
    open_game("cup-a-2")
    answer = client.post("/api/competitions/cup/tables/1/call", {"match": "cup-a-2"}, format="json")
    assert (answer.status_code, answer.json()["field"]) == (422, "match")


def test_a_table_with_a_match_called_refuses_another_with_a_409_naming_it(
    three_matches_waiting, staff
):
    client = api(staff.key)
    client.post("/api/competitions/cup/tables", {"tables": ["1"]}, format="json")
    client.post("/api/competitions/cup/tables/1/call", {"match": "cup-a-1"}, format="json")

    called = client.post("/api/competitions/cup/tables/1/call", {"match": "cup-a-2"}, format="json")
    put = client.put("/api/matches/cup-a-3/table", {"table": "1"}, format="json")

    for answer in (called, put):
        assert (answer.status_code, answer.json()["field"]) == (409, "table")
        assert answer.json()["error"] == "table '1' has match 'cup-a-1' called already"
    hall = api().get("/api/competitions/cup/tables").json()
    assert {m["id"] for m in hall["waiting"]} == {"cup-a-2", "cup-a-3"}


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("post", "/api/competitions/cup/tables", {"tables": ["1"]}),
        ("post", "/api/competitions/cup/tables/1/call", {"match": "cup-a-1"}),
        ("put", "/api/matches/cup-a-1/table", {"table": "1"}),
    ],
)
def test_only_staff_change_tables(three_matches_waiting, referee, method, path, body):
    assert getattr(api(), method)(path, body, format="json").status_code == 401
    assert getattr(api(referee.key), method)(path, body, format="json").status_code == 403
    assert not Table.objects.exists() and not TableAssignment.objects.exists()


def test_an_unknown_competition_has_no_hall(db):
    answer = api().get("/api/competitions/nope/tables")
    assert (answer.status_code, answer.json()["field"]) == (404, "id")


def test_the_schema_describes_the_tables_endpoints(db):
    paths = api().get("/api/schema/").json()["paths"]
    assert {"get", "post"} <= set(paths["/api/competitions/{id}/tables"])
    assert "post" in paths["/api/competitions/{id}/tables/{table}/call"]
    assert "put" in paths["/api/matches/{id}/table"]
