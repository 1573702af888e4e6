"""Finding matches through the API: every match, newest first, by competition and status."""

import datetime

import pytest

from matches import services
from replay.projections import projector
from replay.queries import listing
from tests.support.builders import BY, PLAYERS, new_match, open_game, play
from tests.support.logins import api


def listed(query=None, **client):
    answer = api(**client).get("/api/matches/", query or {})
    assert answer.status_code == 200, answer.json()
    return answer.json()


def ids(answer):
    return [item["id"] for item in answer["matches"]]


def dated(match_id, day, competition="cup"):
    match = new_match(match_id, competition)
    match.date = datetime.date(2026, 3, day) if day else None
    match.save(update_fields=["date"])
    return match


@pytest.fixture
def three_listed(db):
    """cup-a-1 finished (B forfeits, A wins 1–0), cup-a-2 under way, cup-a-3 scheduled."""
    new_match("cup-a-1", best_of=1)
    open_game("cup-a-1")
    play("cup-a-1", 3)
    services.match_forfeit(match_id="cup-a-1", expected_seq=4, by=BY, player="B", reason="left")
    new_match("cup-a-2")
    open_game("cup-a-2")
    projector.catch_up()
    new_match("cup-a-3")  # after the projector ran: no summary of its own yet


def test_anyone_lists_the_matches_without_logging_in_each_with_its_summary_and_link(three_listed):
    answer = listed()

    by_id = {item["id"]: item for item in answer["matches"]}
    assert answer["next"] is None
    assert by_id["cup-a-1"] == {
        "id": "cup-a-1",
        "competition": "cup",
        "date": None,
        "stage": None,
        "table": None,
        "players": PLAYERS,
        "status": "finished",
        "games_won": {"A": 1, "B": 0},
        "winner": "A",
        "seq": 5,
        "url": "http://testserver/api/matches/cup-a-1",
    }
    assert (by_id["cup-a-2"]["status"], by_id["cup-a-2"]["seq"]) == ("playing", 3)
    assert api().get(by_id["cup-a-2"]["url"]).json()["state"]["seq"] == 3


def test_a_match_scheduled_with_no_event_is_listed_before_the_projector_summarises_it(three_listed):
    answer = listed({"status": "scheduled"})

    assert answer["matches"] == [
        {
            "id": "cup-a-3",
            "competition": "cup",
            "date": None,
            "stage": None,
            "table": None,
            "players": PLAYERS,
            "status": "scheduled",
            "games_won": {"A": 0, "B": 0},
            "winner": None,
            "seq": 0,
            "url": "http://testserver/api/matches/cup-a-3",
        }
    ]
    projector.catch_up(scheduled=True)  # the sweep gives it its summary: the same line
    assert listed({"status": "scheduled"}) == answer


def test_the_filters_select_by_competition_and_by_status_together(three_listed):
    new_match("league-1", "league")

    assert ids(listed({"competition": "league"})) == ["league-1"]
    assert ids(listed({"status": "finished"})) == ["cup-a-1"]
    assert ids(listed({"competition": "cup", "status": "playing"})) == ["cup-a-2"]
    assert ids(listed({"competition": "league", "status": "playing"})) == []


def test_matches_come_newest_first_the_undated_before_the_dated_then_by_id_descending(db):
    for match_id, day in (("m-1", 9), ("m-2", 11), ("m-3", None), ("m-4", 11), ("m-5", None)):
        dated(match_id, day)

    assert ids(listed()) == ["m-5", "m-3", "m-4", "m-2", "m-1"]


def test_pages_follow_one_another_through_next_and_a_page_past_the_last_is_empty(db, monkeypatch):
    monkeypatch.setattr(listing, "PER_PAGE", 2)
    for day in range(1, 6):
        dated(f"m-{day}", day)
    new_match("other-1", "other")

    first = listed({"competition": "cup"})
    second = api().get(first["next"]).json()
    third = api().get(second["next"]).json()

    assert first["next"] == "http://testserver/api/matches/?competition=cup&page=2"
    assert [ids(first), ids(second), ids(third)] == [["m-5", "m-4"], ["m-3", "m-2"], ["m-1"]]
    assert third["next"] is None
    assert listed({"competition": "cup", "page": "4"}) == {"matches": [], "next": None}


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ({"status": "started"}, "status"),
        ({"status": ""}, "status"),
        ({"page": "0"}, "page"),
        ({"page": "-1"}, "page"),
        ({"page": "2.5"}, "page"),
        ({"page": "two"}, "page"),
        ({"page": ""}, "page"),
        ({"page": "100001"}, "page"),
        ({"page": "99999999999999999999999"}, "page"),
    ],
)
def test_a_filter_that_is_not_of_its_shape_is_a_400_naming_it(db, query, field):
    answer = api().get("/api/matches/", query)

    assert answer.status_code == 400
    assert answer.json()["field"] == field


@pytest.mark.parametrize("competition", ["nowhere", "not a slug", ""])
def test_a_competition_that_names_none_is_a_404_naming_the_filter(db, competition):
    answer = api().get("/api/matches/", {"competition": competition})

    assert answer.status_code == 404
    assert answer.json()["field"] == "competition"


def test_a_header_of_stage_table_and_date_is_listed_as_the_record_writes_it(db):
    services.competition_create(id="cup", name="Cup")
    services.match_create(
        id="cup-final",
        competition="cup",
        players=PLAYERS,
        stage="Final",
        table="1",
        date="2026-11-29",
    )

    (item,) = listed()["matches"]
    assert (item["stage"], item["table"], item["date"]) == ("Final", "1", "2026-11-29")


def test_the_list_is_described_in_the_schema_as_a_public_read_with_its_filters(db):
    operation = api().get("/api/schema/").json()["paths"]["/api/matches/"]["get"]

    parameters = {p["name"]: p["schema"] for p in operation["parameters"]}
    assert set(parameters) == {"competition", "status", "page"}
    assert parameters["status"]["enum"] == list(listing.STATUSES)
    assert parameters["page"]["minimum"] == 1
    assert {"200", "400", "404"} <= set(operation["responses"])


def test_a_match_under_way_is_listed_as_the_store_has_it_before_the_projector_catches_up(db):
    new_match("cup-b-1")
    open_game("cup-b-1")  # three events; the projector has not run since

    item = listed({"status": "playing"})["matches"]

    assert [(i["id"], i["status"], i["seq"]) for i in item] == [("cup-b-1", "playing", 3)]
    assert listed({"status": "scheduled"})["matches"] == []
