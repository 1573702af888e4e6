"""Reading a match through the API: anyone may; states at any seq, events, the record."""

import pytest

from matches import services
from matches.records import record_export, record_header
from replay.projections.states import match_state
from tests.support.builders import BY, CAROM_A, QUIET, open_game, play
from tests.support.logins import api


@pytest.fixture
def amended(match):
    """A's shot at seq 4 recorded quiet, then amended at seq 6 into a kiss carom (4 points)."""
    open_game(match.id)
    play(match.id, 3, QUIET)
    play(match.id, 4, QUIET)
    services.ruling_amend(
        match_id=match.id, expected_seq=5, by=BY, shot=4, facts=CAROM_A, reason="video review"
    )
    return match


def test_a_match_answers_its_record_header_and_its_state_to_anyone(amended):
    answer = api().get(f"/api/matches/{amended.id}")

    assert answer.status_code == 200
    assert answer.json() == {"match": record_header(amended), "state": match_state(amended)}
    assert answer.json()["state"]["games"][0]["score"] == {"A": 4, "B": 0}


def test_the_state_after_an_event_is_amended_by_default_and_as_seen_then_in_the_live_view(
    amended,
):
    url = f"/api/matches/{amended.id}/state"

    as_amended = api().get(url, {"upto": 5}).json()
    as_seen_live = api().get(url, {"upto": 5, "view": "live"}).json()

    assert as_amended["seq"] == as_seen_live["seq"] == 5
    assert as_amended["games"][0]["score"]["A"] == 4
    assert as_seen_live["games"][0]["score"]["A"] == 0
    assert api().get(url).json() == match_state(amended)


def test_the_state_after_an_event_not_recorded_yet_is_a_422_naming_upto(amended):
    answer = api().get(f"/api/matches/{amended.id}/state", {"upto": 7})

    assert answer.status_code == 422
    assert answer.json() == {"error": "must be between 0 and 6", "field": "upto"}


@pytest.mark.parametrize(
    ("path", "query", "field"),
    [
        ("state", {"upto": "three"}, "upto"),
        ("state", {"upto": "-1"}, "upto"),
        ("state", {"upto": "2.5"}, "upto"),
        ("state", {"upto": ""}, "upto"),
        ("state", {"upto": "5001"}, "upto"),
        ("state", {"view": "sideways"}, "view"),
        ("events", {"after": "x"}, "after"),
        ("events", {"after": "99999999999999999999999"}, "after"),
    ],
)
def test_a_query_that_is_not_of_its_shape_is_a_400_naming_it(match, path, query, field):
    answer = api().get(f"/api/matches/{match.id}/{path}", query)

    assert answer.status_code == 400
    assert answer.json()["field"] == field


def test_the_events_after_a_seq_are_those_that_follow_it_with_seq_at_by_and_hash(amended):
    answer = api().get(f"/api/matches/{amended.id}/events", {"after": 4})

    events = answer.json()["events"]
    assert answer.status_code == 200
    assert [(event["seq"], event["type"]) for event in events] == [
        (5, "shot"),
        (6, "shot_amended"),
    ]
    assert all({"seq", "at", "by", "hash"} <= set(event) for event in events)
    assert events[0]["by"] == BY


def test_every_event_is_sent_without_after_and_none_after_the_last(amended):
    url = f"/api/matches/{amended.id}/events"

    assert [event["seq"] for event in api().get(url).json()["events"]] == [1, 2, 3, 4, 5, 6]
    assert api().get(url, {"after": 6}).json() == {"events": []}


def test_the_export_is_the_match_record_every_event_hashed(amended):
    answer = api().get(f"/api/matches/{amended.id}/export")

    assert answer.status_code == 200
    assert answer.json() == record_export(amended.id)
    assert answer.json()["format"] == "carambole.match/1"


@pytest.mark.parametrize("path", ["", "/state", "/events", "/export"])
def test_an_unknown_match_is_a_404_naming_its_id(db, path):
    answer = api().get(f"/api/matches/cup-2026-z-9{path}")

    assert answer.status_code == 404
    assert answer.json() == {
        "error": "no match 'cup-2026-z-9'",
        "field": "id",
        "code": "no_match",
        "params": {"id": "'cup-2026-z-9'"},
    }


@pytest.mark.parametrize("match_id", ["-starts-with-a-dash", "a" * 101, "nul%00", "sp%20ace"])
def test_an_id_that_cannot_name_a_match_is_a_json_404(db, match_id):
    answer = api().get(f"/api/matches/{match_id}/state")

    assert answer.status_code == 404
    assert answer["Content-Type"] == "application/json"
    assert answer.json()["error"].startswith("no such path")
