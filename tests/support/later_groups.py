"""A groups stage drawn from another's in the open: four players in two groups, then a
second stage of groups and a knockout; group B's places swapped by a staff amendment."""

from __future__ import annotations

from tests.support import championship_shapes as shapes
from tests.support.builders import CAROM_A
from tests.support.league import win

GROUPS_INTO_GROUPS = [
    {"id": "groups", "kind": "groups", "groups": 2, "advance": 2},
    {"id": "second", "kind": "groups", "from": "groups", "groups": 1, "advance": 2},
    {"id": "ko", "kind": "knockout", "from": "second"},
]
INTO_TWO_GROUPS = [
    GROUPS_INTO_GROUPS[0],
    {**GROUPS_INTO_GROUPS[1], "groups": 2, "advance": 1},
    GROUPS_INTO_GROUPS[2],
]
A_CAROM_FIRST = {
    "type": "shot_amended",
    "shot": 4,
    "facts": CAROM_A,
    "reason": "video review: white touched the red",
}


def second_stage_drawn(stages: list[dict]) -> int:
    """Four players in two groups, each group's match won by side B, the second stage
    drawn from them; return the seq of group B's last shot."""
    shapes.entered("open", stages, 4)
    shapes.draw("open", "groups")
    win("open-groups-A1", "B")
    last = win("open-groups-B1", "B")
    shapes.draw("open", "second")
    return last


def second_stage_begun_then_group_b_flipped(
    winner_begun: bool = False,
) -> tuple[str, str, list[str]]:
    """Groups into one group of four; the first match of group B's runner-up begun (and,
    `winner_begun`, one of its winner's without him), then group B's two places swapped by
    staff: return the runner-up as played and as amended, and the runner-up's matches."""
    second_stage_drawn(GROUPS_INTO_GROUPS)
    runner_up = [match_id for match_id, _ in shapes.fold("open").position_matches("groups:B2")]
    shapes.start(runner_up[0])
    if winner_begun:
        winner = [match_id for match_id, _ in shapes.fold("open").position_matches("groups:B1")]
        shapes.start(next(match_id for match_id in winner if match_id not in runner_up))
    as_played = shapes.fold("open").holder("groups:B2").key
    shapes.amend("open-groups-B1", A_CAROM_FIRST)
    as_amended = shapes.fold("open").amended_holder("groups:B2").key
    assert as_played and as_amended and as_played != as_amended
    return as_played, as_amended, runner_up
