"""Section 1: the table, the balls, the spots and the pins, in millimetres.

x runs across the table (0 to 1420), y along it (0 at the bottom cushion to 2840).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

TABLE_WIDTH = 1420.0
TABLE_LENGTH = 2840.0
BALL_DIAMETER = 61.5
BALL_RADIUS = BALL_DIAMETER / 2
CENTRE_LINE = TABLE_LENGTH / 2
# Where a ball's centre may lie: on the playing surface, no part of it over a cushion.
SURFACE_X = (BALL_RADIUS, TABLE_WIDTH - BALL_RADIUS)
SURFACE_Y = (BALL_RADIUS, TABLE_LENGTH - BALL_RADIUS)

SPOTS: dict[str, tuple[float, float]] = {
    "top": (710.0, 2740.0),
    "red": (710.0, 2130.0),
    "centre": (710.0, 1420.0),
    "lower_centre": (710.0, 710.0),
    "bottom": (710.0, 100.0),
}

CUE_BALLS = ("white", "yellow")
BALLS = ("white", "yellow", "red")
# The order in which a ruling lists the pins that fell.
PINS = ("center", "top", "bottom", "left", "right")
WHITE_PINS = ("top", "bottom", "left", "right")


def opponent_ball(own: str) -> str:
    """Return the other player's cue ball."""
    return "yellow" if own == "white" else "white"


def overlaps(a: Sequence[float], b: Sequence[float]) -> bool:
    """Return whether two balls at these centres would overlap (touching is fine)."""
    return math.dist(a, b) < BALL_DIAMETER - 1e-9


def covers(position: Sequence[float] | None, spot: str) -> bool:
    """Return whether a ball here covers a spot: a ball put on the spot would overlap it."""
    return position is not None and overlaps(position, SPOTS[spot])


def on_spot(position: Sequence[float], spot: str) -> bool:
    """Return whether a ball stands on a spot (its centre within one radius, each way)."""
    x, y = SPOTS[spot]
    return abs(position[0] - x) <= BALL_RADIUS and abs(position[1] - y) <= BALL_RADIUS


def half_of(position: Sequence[float] | None) -> str | None:
    """Return the half a ball lies in ("lower", "upper"), "line" across it, None if unknown."""
    if position is None:
        return None
    y = position[1]
    if abs(y - CENTRE_LINE) < BALL_RADIUS:
        return "line"
    return "lower" if y < CENTRE_LINE else "upper"


def in_half(position: Sequence[float], half: str) -> bool:
    """Return whether a ball lies wholly in one half, no part over the centre line."""
    y = position[1]
    if half == "lower":
        return y <= CENTRE_LINE - BALL_RADIUS
    return y >= CENTRE_LINE + BALL_RADIUS
