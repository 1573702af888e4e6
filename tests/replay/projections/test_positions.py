"""Where a ball was last known to be, for the drawing: a table of cases, no database."""

from __future__ import annotations

from typing import Any

from matches.domain.header import parse_header
from replay.projections.positions import last_known_positions

W, Y, R = "white", "yellow", "red"
HEADER = parse_header(
    {
        "players": {"A": {"name": "Ann"}, "B": {"name": "Bea"}},
        "balls": {"A": W, "B": Y},
        "ruleset": {"target": 60},
    }
)[1]
START = [
    {"type": "game_started", "game": 1, "breaker": "A"},  # 1
    {"type": "ball_placed", "ball": W, "pos": [700, 400], "reason": "break"},  # 2
]
YELLOW_OFF = [{"ball": W, "hit": Y}, {"ball": Y, "hit": "off"}]


def shot(*contacts: dict[str, Any], **facts: Any) -> dict[str, Any]:
    return {"type": "shot", "contacts": list(contacts), **facts}


def test_a_ball_that_moved_without_a_rest_keeps_its_last_known_position():
    events = [*START, shot({"ball": W, "hit": Y}, rest={W: [300, 900], Y: [900, 1500]})]
    events.append(shot({"ball": Y, "hit": W}))  # both move, no rest given

    known = last_known_positions(HEADER, events)

    assert known[W] == [300.0, 900.0] and known[Y] == [900.0, 1500.0]


def test_a_ball_sent_off_the_table_is_nowhere_until_it_is_placed():
    events = [*START, shot(*YELLOW_OFF)]

    assert last_known_positions(HEADER, events)[Y] is None


def test_an_amendment_of_an_earlier_shot_moves_no_ball_now():
    events = [
        *START,
        shot(*YELLOW_OFF),  # 3: A sends yellow off
        {"type": "ball_placed", "ball": Y, "pos": [700, 900], "reason": "respot"},  # 4
        shot({"ball": Y, "hit": W}),  # 5: B moves yellow, no rest
    ]
    before = last_known_positions(HEADER, events)
    amended = [
        *events,
        {
            "type": "shot_amended",
            "shot": 3,
            "facts": {"contacts": [*YELLOW_OFF, {"ball": W, "hit": "cushion"}]},
            "reason": "video",
        },
    ]

    assert before[Y] == [700.0, 900.0]
    assert last_known_positions(HEADER, amended)[Y] == [700.0, 900.0]
