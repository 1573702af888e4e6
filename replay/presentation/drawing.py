"""The table as the pages draw it in SVG, for the first paint: the figure table.js draws.

Millimetres as in the rules: x across the table, y along it from the breaking end.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _

from matches.domain.rules.ruleset import Ruleset, pin_positions
from matches.domain.rules.table import (
    BALL_RADIUS,
    BALLS,
    CENTRE_LINE,
    SPOTS,
    TABLE_LENGTH,
    TABLE_WIDTH,
)

RAIL = 70  # mm of cushion rail drawn around the playing surface (as table.js)
PIN_MARK = 15.0  # the radius a pin is drawn with (larger than its 10 mm, as table.js)
COLOURS = {"white": "#fbfaf4", "yellow": "#f2c230", "red": "#c8102e"}


def ball_name(ball: str) -> str:
    """Return the word for a ball's colour in the active language."""
    return {"white": _("white"), "yellow": _("yellow"), "red": _("red")}.get(ball, ball)


def legend(
    positions: Mapping[str, Any],
    balls: Mapping[str, str],
    names: Mapping[str, str],
    known: Mapping[str, Any] | None = None,
) -> list[dict[str, Any]]:
    """Return the balls as the legend under the table lists them: owner, unknown, unconfirmed.

    `known`: where each ball was last known to be (replay.projections.positions), for a
    ball the state has no position for.
    """
    owner = {ball: player for player, ball in balls.items()}
    entries = []
    for ball in BALLS:
        if ball in owner:
            label = _("%(ball)s ball: %(player)s") % {
                "ball": ball_name(ball),
                "player": names.get(owner[ball], owner[ball]),
            }
        else:
            label = _("%s ball") % (ball_name(ball),)
        missing = positions.get(ball) is None
        guessed = missing and bool((known or {}).get(ball))
        entries.append(
            {
                "ball": ball,
                "label": label,
                "unknown": missing and not guessed,
                "unconfirmed": guessed,
            }
        )
    return entries


def drawing(
    positions: Mapping[str, Any],
    fallen: list[str],
    zone: str | None,
    ruleset: Ruleset,
    balls: Mapping[str, str],
    names: Mapping[str, str],
    known: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Return the table as the SVG template draws it: the same figure table.js draws.

    A ball with no position is drawn where it was last known (`known`), not confirmed.
    """
    pins = pin_positions(ruleset)
    owner = {ball: player for player, ball in balls.items()}
    halves: dict[str, list[tuple[float, float, float, float]]] = {
        "lower": [(0, 0, TABLE_WIDTH, CENTRE_LINE)],
        "upper": [(0, CENTRE_LINE, TABLE_WIDTH, CENTRE_LINE)],
        "any": [(0, 0, TABLE_WIDTH, CENTRE_LINE), (0, CENTRE_LINE, TABLE_WIDTH, CENTRE_LINE)],
    }
    return {
        "view_box": f"{-RAIL} {-RAIL} {TABLE_WIDTH + 2 * RAIL:g} {TABLE_LENGTH + 2 * RAIL:g}",
        "rail": {"x": -RAIL, "y": -RAIL, "w": TABLE_WIDTH + 2 * RAIL, "h": TABLE_LENGTH + 2 * RAIL},
        "width": TABLE_WIDTH,
        "length": TABLE_LENGTH,
        "centre_line": CENTRE_LINE,
        "zone": zone,
        "zones": [dict(zip("xywh", half, strict=True)) for half in halves.get(zone or "", [])],
        "spots": [
            {"name": name, "x": x, "y": y} for name, (x, y) in SPOTS.items() if name != "centre"
        ],
        "pins": [
            {
                "name": name,
                "x": x,
                "y": y,
                "fallen": name in fallen,
                "ring": PIN_MARK + 12,
                "r": PIN_MARK,
            }
            for name, (x, y) in pins.items()
        ],
        "balls": [
            {
                "ball": ball,
                "x": at[0],
                "y": at[1],
                "r": BALL_RADIUS,
                "fill": COLOURS[ball],
                "player": owner.get(ball, ""),
                "name": names.get(owner.get(ball, ""), ""),
                "confirmed": positions.get(ball) is not None,
            }
            for ball in BALLS
            if (at := positions.get(ball) or (known or {}).get(ball)) is not None
        ],
    }
