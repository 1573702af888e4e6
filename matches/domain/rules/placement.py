"""Sections 9, 10 and 11: where the referee puts the balls.

The break position (and the re-spot after balls in contact), a ball that left the
table, and the ball in hand with the half it may be placed in.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from matches.domain.errors import Refused
from matches.domain.rules.players import other
from matches.domain.rules.table import (
    SPOTS,
    covers,
    half_of,
    in_half,
    on_spot,
    opponent_ball,
    overlaps,
)

Positions = dict[str, Sequence[float] | None]

# Section 10: the spots a ball off the table may go to when its own is covered.
RESPOT_SPOTS = ("top", "red", "lower_centre", "bottom")
# Why the referee places a ball: the break, ball in hand, or a ball off the table.
PLACEMENT_REASONS = ("break", "in_hand", "respot")


def break_position(breaker_ball: str) -> Positions:
    """Return the balls at a break: the red on its spot, the other ball on the top spot.

    The breaker's ball is in hand, to be placed in the lower half. Section 9 puts
    the balls back in this position when they are in contact, for the player due.
    """
    positions: Positions = {"white": None, "yellow": None, "red": list(SPOTS["red"])}
    positions[opponent_ball(breaker_ball)] = list(SPOTS["top"])
    return positions


def in_hand_zone(offender_position: Sequence[float] | None) -> str | None:
    """Return the half for the incoming ball: opposite the offender's ball (section 11).

    On the centre line, the lower half; where the offender's ball lies unknown, either (None).
    """
    half = half_of(offender_position)
    if half is None:
        return None
    if half == "line":
        return "lower"
    return "upper" if half == "lower" else "lower"


def placement_zone(in_hand: str | None, offender_position: Sequence[float] | None) -> str | None:
    """Return the half the ball in hand goes in: the lower at a break or re-spot, else opposite."""
    if in_hand in ("break", "respot"):
        return "lower"
    if in_hand == "foul":
        return in_hand_zone(offender_position)
    return None


def offender_spot(red_position: Sequence[float] | None) -> str:
    """Return the spot the incoming player may have the offender's ball put on (section 11).

    The top spot, or the bottom spot when the red covers the top one.
    """
    return "bottom" if covers(red_position, "top") else "top"


def respot_spot(wanted: str, others: Mapping[str, Sequence[float] | None]) -> str | None:
    """Return where a ball off the table goes: its spot, else the nearest free one (section 10).

    None when every spot is covered by the other balls.
    """
    free = [
        spot
        for spot in (wanted,) + RESPOT_SPOTS
        if not any(covers(position, spot) for position in others.values())
    ]
    if not free or free[0] == wanted:
        return free[0] if free else None
    return min(free, key=lambda spot: math.dist(SPOTS[spot], SPOTS[wanted]))


def check_placement(
    ball: str,
    position: Sequence[float],
    reason: str,
    *,
    due: str,
    balls: Mapping[str, str],
    in_hand: str | None,
    positions: Positions,
    zone: str | None,
) -> None:
    """Refuse a ball placed where the referee may not put it (sections 9 to 11).

    `due` is the player due, `balls` each player's ball, `in_hand` why a ball is in hand
    ("break", "foul", "respot" or None), `zone` the half it may go in (None: either).
    """
    due_ball = balls[due]
    # With ball in hand, the incoming ball is in the referee's hand, not on the table.
    lifted = due_ball if in_hand == "foul" else None
    for other_ball, placed in positions.items():
        if other_ball in (ball, lifted) or placed is None:
            continue
        if overlaps(position, placed):
            raise Refused.because("rest_overlaps", "pos", ball=other_ball)
    if reason == "respot":
        return
    if reason == "break" and in_hand not in ("break", "respot"):
        raise Refused("no break position to take", "reason")
    if reason == "in_hand" and in_hand != "foul":
        raise Refused.because("no_ball_in_hand", "reason", player=due)
    if reason == "in_hand" and ball == balls[other(due)]:
        # The incoming player may have the offender's ball put on its spot instead.
        spot = offender_spot(positions["red"])
        if not on_spot(position, spot):
            raise Refused(f"the offender's ball goes on the {spot} spot", "pos")
        return
    if ball != due_ball:
        raise Refused(f"the ball in hand is {due}'s {due_ball} ball", "ball")
    if zone is not None and not in_half(position, zone):
        raise Refused.because("wrong_half", "pos", zone=zone)
