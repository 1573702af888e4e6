"""The shot preview: the ruling a shot would get, as whoever is due or as an amendment."""

import pytest

from matches import services
from matches.models import Event
from tests.support.builders import BY, CAROM_A, MISS, QUIET, play
from tests.support.logins import api

# White on yellow, yellow on the red (a ricochet), the red on the left and centre pins.
PINS_BY_RED = {
    "contacts": [
        {"ball": "white", "hit": "yellow"},
        {"ball": "yellow", "hit": "red"},
        {"ball": "red", "hit": "pins", "pins": ["left", "center"]},
    ]
}


def preview(match_id, body, key=None):
    return api(key).post(f"/api/matches/{match_id}/judge", body, format="json")


def test_the_preview_judges_the_shot_as_the_player_who_is_due_and_records_nothing(
    opened_for_referee,
):
    answer = preview(opened_for_referee.id, CAROM_A)

    assert answer.status_code == 200
    assert answer.json() == {
        "player": "A",
        "valid": True,
        "first_contact": "opponent",
        "carom": "kiss",
        "pins": [],
        "pin_points": 0,
        "carom_points": 4,
        "fouls": [],
        "foul_points": 0,
        "scorer": "shooter",
        "points": 4,
        "ball_in_hand": False,
    }
    assert Event.objects.filter(match=opened_for_referee).count() == 3


def test_the_same_facts_are_judged_for_whoever_is_due_with_their_own_ball(opened_for_referee):
    play(opened_for_referee.id, 3, QUIET)

    ruling = preview(opened_for_referee.id, CAROM_A).json()

    # B plays yellow: yellow on white, then white on the red is B's ricochet.
    assert (ruling["player"], ruling["carom"], ruling["points"]) == ("B", "ricochet", 3)


def test_the_preview_of_a_shot_after_a_respot_scores_nothing_for_the_shooter(opened_for_referee):
    services.balls_respot(match_id=opened_for_referee.id, expected_seq=3, by=BY)

    ruling = preview(opened_for_referee.id, PINS_BY_RED).json()

    assert ruling["pin_points"] == 6 and ruling["points"] == 0


def test_the_preview_of_an_amendment_judges_as_that_shots_player_in_its_context(opened_for_referee):
    services.balls_respot(match_id=opened_for_referee.id, expected_seq=3, by=BY)
    play(opened_for_referee.id, 4, QUIET)  # A's shot at seq 5, right after the re-spot
    play(opened_for_referee.id, 5, QUIET)  # B's at seq 6

    as_amended = preview(opened_for_referee.id, {**PINS_BY_RED, "shot": 5}).json()
    as_next = preview(opened_for_referee.id, PINS_BY_RED).json()

    assert (as_amended["player"], as_amended["points"]) == ("A", 0)
    # The same facts as the next shot, no re-spot before it: pins and a ricochet, 6 + 3.
    assert (as_next["player"], as_next["points"]) == ("A", 9)
    assert Event.objects.filter(match=opened_for_referee).count() == 6


def test_the_preview_of_an_amendment_knows_the_ball_in_hand_the_shot_was_played_with(
    opened_for_referee,
):
    play(opened_for_referee.id, 3, MISS)  # A misses: B has ball in hand
    services.ball_place(
        match_id=opened_for_referee.id,
        expected_seq=4,
        by=BY,
        ball="yellow",
        pos=[700, 2000],
        reason="in_hand",
    )
    play(opened_for_referee.id, 5, QUIET)  # B's shot at seq 6

    ruling = preview(
        opened_for_referee.id, {"shot": 6, "contacts": [{"ball": "yellow", "hit": "white"}]}
    )

    assert ruling.json()["player"] == "B"
    assert ruling.json()["valid"] is True


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"shot": 2, "contacts": []}, "shot"),
        ({"shot": 40, "contacts": []}, "shot"),
        (
            {"contacts": [{"ball": "white", "hit": "pins", "pins": ["middle"]}]},
            "contacts[0].pins[0]",
        ),
        ({"contacts": [{"ball": "white", "hit": "white"}]}, "contacts[0].hit"),
        ({"struck": "blue"}, "struck"),
        ({"called": ["sneezed"]}, "called[0]"),
    ],
)
def test_facts_the_rules_refuse_are_a_422_naming_the_field(opened_for_referee, body, field):
    answer = preview(opened_for_referee.id, body)

    assert answer.status_code == 422
    assert answer.json()["field"] == field


def test_a_retracted_shot_has_no_amendment_to_preview(opened_for_referee):
    play(opened_for_referee.id, 3, QUIET)
    services.shot_retract(
        match_id=opened_for_referee.id, expected_seq=4, by=BY, shot=4, reason="twice"
    )

    answer = preview(opened_for_referee.id, {"shot": 4, "contacts": []})

    assert answer.status_code == 422
    assert answer.json()["field"] == "shot"


def test_a_preview_before_any_game_has_started_is_a_422_blaming_the_match(match):
    answer = preview(match.id, QUIET)

    assert answer.status_code == 422
    assert answer.json() == {
        "error": "no game has started",
        "field": None,
        "seq": 1,
        "code": "no_game",
        "params": {},
    }


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"contacts": "white on yellow"}, "contacts"),
        ({"contacts": ["white"]}, "contacts[0]"),
        ({"called": "feet"}, "called"),
        ({"shot": "4"}, "shot"),
        ({"shot": 0}, "shot"),
        ({"player": "B", "contacts": []}, "player"),
    ],
)
def test_a_preview_body_not_of_its_shape_is_a_400_naming_the_field(opened_for_referee, body, field):
    answer = preview(opened_for_referee.id, body)

    assert answer.status_code == 400
    assert answer.json()["field"] == field


def test_anyone_may_preview_a_shot(opened_for_referee, stranger):
    assert preview(opened_for_referee.id, QUIET, key=stranger.key).status_code == 200
    assert preview(opened_for_referee.id, QUIET).status_code == 200
