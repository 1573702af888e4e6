"""Sections 9, 10 and 11: where the referee puts the balls.

The break position (and the re-spot after balls in contact), a ball that left the
table, and the ball in hand with the half it may be placed in.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from matches.rules.table import SPOTS, covers, half_of, opponent_ball

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
