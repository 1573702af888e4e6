"""Section 3: the lag, which decides who chooses the breaker of game 1."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from matches.rules.players import other

LAG_FAULTS = ("red_or_pins", "long_cushion", "crossed", "late_start")


@dataclass(frozen=True)
class LagResult:
    """One player's lag: distance from the bottom cushion at rest, and at most one fault."""

    distance: float
    fault: str | None = None


@dataclass(frozen=True)
class LagDecision:
    """Who won one lag ("A", "B"), or None when it must be repeated, and why."""

    winner: str | None
    reason: str


def decide_lag(
    a: LagResult,
    b: LagResult,
    collision: bool = False,
    earlier_late_starts: Mapping[str, int] | None = None,
) -> LagDecision:
    """Decide one lag; `earlier_late_starts` counts each player's late starts before it."""
    earlier = earlier_late_starts or {}
    results = {"A": a, "B": b}
    late = [p for p, r in results.items() if r.fault == "late_start"]
    if late:
        # A second late start in the match loses the lag; a first one repeats it.
        losing = [p for p in late if earlier.get(p, 0) + 1 >= 2]
        if len(losing) == 1:
            return LagDecision(other(losing[0]), "second late start")
        return LagDecision(None, "late start")
    at_fault = [p for p, r in results.items() if r.fault is not None]
    if collision and not at_fault:
        return LagDecision(None, "the balls collided")
    if len(at_fault) == 2:
        return LagDecision(None, "both at fault")
    if len(at_fault) == 1:
        return LagDecision(other(at_fault[0]), f"{at_fault[0]} at fault")
    if a.distance == b.distance:
        return LagDecision(None, "equal distances")
    return LagDecision("A" if a.distance < b.distance else "B", "closer to the cushion")
