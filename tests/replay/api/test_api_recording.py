"""Recording events through the API: 201 and the scoreboard, 409 on a stale seq, idempotency."""

import threading

import pytest
from django.db import connections

from matches import store
from matches.models import Event
from tests.support.builders import CAROM_A, MISS, QUIET, open_game
from tests.support.logins import REFEREE, api

LAG = {"type": "lag", "A": {"distance": 90}, "B": {"distance": 150}}


def record(key, match_id, body, **headers):
    return api(key).post(f"/api/matches/{match_id}/events", body, format="json", **headers)


def shot(facts=QUIET, **fields):
    return {"type": "shot", **facts, **fields}


def stored(match):
    return list(Event.objects.filter(match=match).order_by("seq"))


def test_the_assigned_referee_records_an_event_and_gets_its_seq_and_the_scoreboard(match, referee):
    answer = record(referee.key, match.id, {"expected_seq": 0, "event": LAG})

    assert answer.status_code == 201
    assert answer.json()["seq"] == 1
    assert answer.json()["state"]["status"] == "lag"
    assert answer.json()["state"]["ruling"] is None  # not a shot
    assert [event.type for event in stored(match)] == ["lag"]
    state = api(referee.key).get(f"/api/matches/{match.id}/state").json()
    assert [lag["winner"] for lag in state["lags"]] == ["A"]  # the full state, a GET away


def test_a_lag_recorded_by_its_winner_alone_is_a_201_and_the_state_says_who_won(match, referee):
    answer = record(
        referee.key, match.id, {"expected_seq": 0, "event": {"type": "lag", "winner": "B"}}
    )

    assert answer.status_code == 201
    state = api(referee.key).get(f"/api/matches/{match.id}/state").json()
    assert [(lag["winner"], lag["reason"]) for lag in state["lags"]] == [
        ("B", "the referee's word")
    ]
    assert [event.data for event in stored(match)] == [{"type": "lag", "winner": "B"}]


def test_a_lag_winner_its_faults_contradict_is_a_422_naming_the_winner_in_the_page_language(
    match, referee
):
    event = {"type": "lag", "winner": "A", "A": {"fault": "long_cushion"}}

    answer = record(
        referee.key, match.id, {"expected_seq": 0, "event": event}, HTTP_ACCEPT_LANGUAGE="uk"
    )

    assert answer.status_code == 422
    assert answer.json() == {
        "error": "за вказаними порушеннями й відстанями переможець — гравець B",
        "field": "winner",
        "seq": 1,
        "code": "lag_won_by",
        "params": {"player": "B"},
    }
    assert stored(match) == []


def test_a_recorded_shot_answers_the_scoreboard_with_its_ruling(opened_for_referee, referee):
    answer = record(referee.key, opened_for_referee.id, {"expected_seq": 3, "event": shot()})

    state = api(referee.key).get(f"/api/matches/{opened_for_referee.id}/state").json()
    board = answer.json()["state"]
    assert board["ruling"] == state["shots"][-1]["ruling"]
    assert {key: board[key] for key in ("games", "next", "positions")} == {
        key: state[key] for key in ("games", "next", "positions")
    }
    assert "shots" not in board


def test_a_recorded_event_carries_the_username_of_who_recorded_it(
    opened_for_referee, referee, staff
):
    record(referee.key, opened_for_referee.id, {"expected_seq": 3, "event": shot()})
    record(staff.key, opened_for_referee.id, {"expected_seq": 4, "event": shot()})

    assert [event.recorded_by for event in stored(opened_for_referee)[3:]] == [
        REFEREE,
        "federation",
    ]


def test_a_shot_without_a_player_is_recorded_as_whoever_is_due(opened_for_referee, referee):
    answer = record(referee.key, opened_for_referee.id, {"expected_seq": 3, "event": shot(MISS)})

    assert answer.status_code == 201
    assert stored(opened_for_referee)[-1].data["player"] == "A"
    assert answer.json()["state"]["next"] == {
        "game": 1,
        "player": "B",
        "ball_in_hand": True,
        "zone": None,
        "break": False,
    }


def test_a_shot_by_the_wrong_player_is_a_422_naming_the_player_and_the_seq(
    opened_for_referee, referee
):
    answer = record(
        referee.key, opened_for_referee.id, {"expected_seq": 3, "event": shot(player="B")}
    )

    assert answer.status_code == 422
    assert answer.json() == {
        "error": "it is A's shot",
        "field": "player",
        "seq": 4,
        "code": "not_due",
        "params": {"player": "A"},
    }
    assert len(stored(opened_for_referee)) == 3


@pytest.mark.parametrize(
    ("event", "field"),
    [
        ({"type": "stroke"}, "type"),
        (shot({"contacts": [{"ball": "white", "hit": "pins", "pins": ["middle"]}]}), None),
        ({**shot(), "by": "someone else"}, "by"),
        ({**shot(), "hash": "0" * 64}, "hash"),
        ({"type": "game_started", "game": 2, "breaker": "B"}, "game"),
    ],
)
def test_an_event_the_rules_or_the_match_refuse_is_a_422_and_stores_nothing(
    opened_for_referee, referee, event, field
):
    answer = record(referee.key, opened_for_referee.id, {"expected_seq": 3, "event": event})

    assert answer.status_code == 422
    assert answer.json()["seq"] == 4
    if field is not None:
        assert answer.json()["field"] == field
    else:
        assert answer.json()["field"].startswith("contacts[0].pins[0]")
    assert len(stored(opened_for_referee)) == 3


def test_a_stale_expected_seq_is_a_409_carrying_the_current_seq_and_stores_nothing(
    opened_for_referee, referee
):
    answer = record(referee.key, opened_for_referee.id, {"expected_seq": 2, "event": shot()})

    assert answer.status_code == 409
    assert answer.json() == {
        "error": "the match is at seq 3",
        "field": "expected_seq",
        "seq": 3,
        "code": "stale_seq",
        "params": {"current": 3},
    }
    assert len(stored(opened_for_referee)) == 3


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"event": LAG}, "expected_seq"),
        ({"expected_seq": "0", "event": LAG}, "expected_seq"),
        ({"expected_seq": 0.0, "event": LAG}, "expected_seq"),
        ({"expected_seq": True, "event": LAG}, "expected_seq"),
        ({"expected_seq": -1, "event": LAG}, "expected_seq"),
        ({"expected_seq": 0}, "event"),
        ({"expected_seq": 0, "event": [LAG]}, "event"),
        ({"expected_seq": 0, "event": LAG, "player": "A"}, "player"),
        ([{"expected_seq": 0, "event": LAG}], None),
    ],
)
def test_a_body_not_of_the_expected_shape_is_a_400_naming_the_field(match, referee, body, field):
    answer = record(referee.key, match.id, body)

    assert answer.status_code == 400
    assert answer.json()["field"] == field
    assert stored(match) == []


def test_an_unknown_match_is_a_404_for_whoever_may_record_any_match(db, staff):
    answer = record(staff.key, "cup-2026-z-9", {"expected_seq": 0, "event": LAG})

    assert answer.status_code == 404
    assert answer.json()["field"] == "id"


# -- Idempotency ------------------------------------------------------------------------


def test_the_same_idempotency_key_resent_answers_the_first_answer_and_records_one_event(
    opened_for_referee, referee
):
    body = {"expected_seq": 3, "event": shot(CAROM_A)}
    first = record(referee.key, opened_for_referee.id, body, HTTP_IDEMPOTENCY_KEY="tablet-1-4")
    # Meanwhile B plays: the resent command still answers as it first did.
    record(referee.key, opened_for_referee.id, {"expected_seq": 4, "event": shot()})

    again = record(referee.key, opened_for_referee.id, body, HTTP_IDEMPOTENCY_KEY="tablet-1-4")

    assert first.status_code == again.status_code == 201
    assert again.json() == first.json()
    assert again["Idempotent-Replayed"] == "true"
    assert not first.has_header("Idempotent-Replayed")
    assert [event.seq for event in stored(opened_for_referee)] == [1, 2, 3, 4, 5]


def test_the_same_idempotency_key_with_another_body_is_a_422_naming_the_first_seq(
    opened_for_referee, referee
):
    record(
        referee.key,
        opened_for_referee.id,
        {"expected_seq": 3, "event": shot()},
        HTTP_IDEMPOTENCY_KEY="k",
    )

    answer = record(
        referee.key,
        opened_for_referee.id,
        {"expected_seq": 4, "event": shot()},
        HTTP_IDEMPOTENCY_KEY="k",
    )

    assert answer.status_code == 422
    assert answer.json()["field"] == "Idempotency-Key"
    assert answer.json()["seq"] == 4
    assert len(stored(opened_for_referee)) == 4


def test_an_idempotency_key_over_200_characters_is_a_422(opened_for_referee, referee):
    answer = record(
        referee.key,
        opened_for_referee.id,
        {"expected_seq": 3, "event": shot()},
        HTTP_IDEMPOTENCY_KEY="k" * 201,
    )

    assert answer.status_code == 422
    assert answer.json()["field"] == "Idempotency-Key"


# -- Two clients at once, on real connections -----------------------------------------------


def record_at_once(keys, match_id, bodies, **headers):
    """Send each body from its own client and thread at the same moment; return the answers."""
    answers = [None] * len(bodies)
    start = threading.Barrier(len(bodies))

    def client(index):
        try:
            start.wait()
            answers[index] = record(keys[index], match_id, bodies[index], **headers)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=client, args=(i,)) for i in range(len(bodies))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(thread.is_alive() for thread in threads), "a client hung"
    return answers


def test_two_clients_recording_the_same_seq_get_one_201_and_one_409_and_nothing_is_lost(
    event_db, match, referee, staff
):
    open_game(match.id)
    rounds = 5

    for expected in range(3, 3 + rounds):
        bodies = [
            {"expected_seq": expected, "event": shot(QUIET)},
            {"expected_seq": expected, "event": shot(QUIET, called=[])},
        ]
        answers = record_at_once([referee.key, staff.key], match.id, bodies)

        assert sorted(answer.status_code for answer in answers) == [201, 409]
        conflict = next(answer for answer in answers if answer.status_code == 409)
        assert conflict.json()["seq"] == expected + 1

    assert [event.seq for event in stored(match)] == list(range(1, 3 + rounds + 1))
    assert store.verify_chain(match) == []


def test_one_command_sent_twice_at_once_with_its_key_is_recorded_once_and_answered_alike(
    event_db, match, referee
):
    open_game(match.id)
    body = {"expected_seq": 3, "event": shot(CAROM_A)}

    answers = record_at_once([referee.key] * 2, match.id, [body, body], HTTP_IDEMPOTENCY_KEY="t1")

    assert [answer.status_code for answer in answers] == [201, 201]
    assert answers[0].json() == answers[1].json()
    assert [event.seq for event in stored(match)] == [1, 2, 3, 4]
