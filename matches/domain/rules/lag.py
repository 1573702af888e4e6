"""Section 3: the lag, which decides who chooses the breaker of game 1."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from matches.domain.rules.players import other

LAG_FAULTS = ("red_or_pins", "long_cushion", "crossed", "late_start")
# Why a lag went to the winner the referee gave, when nothing measured decides it.
REFEREES_WORD = "the referee's word"


@dataclass(frozen=True)
class LagResult:
    """One player's lag: distance from the bottom cushion at rest (None: not measured), and
    at most one fault."""

    distance: float | None = None
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
    winner: str | None = None,
) -> LagDecision:
    """Decide one lag; `earlier_late_starts` counts each player's late starts before it.

    The faults, a collision and two distances decide it as section 3 says; `winner`, the
    winner the referee gave, decides only what they leave open (a distance not measured).
    Where they decide, the decision may differ from `winner`: the caller refuses that.
    """
    by_the_rules = _by_the_rules(a, b, collision, earlier_late_starts or {})
    if by_the_rules is not None:
        return by_the_rules
    if winner is None:
        raise ValueError("a lag without a winner needs both distances")
    return LagDecision(winner, REFEREES_WORD)


def _by_the_rules(
    a: LagResult, b: LagResult, collision: bool, earlier: Mapping[str, int]
) -> LagDecision | None:
    """Return the decision the facts make, or None when a distance they need is missing."""
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
    if a.distance is None or b.distance is None:
        return None
    if a.distance == b.distance:
        return LagDecision(None, "equal distances")
    return LagDecision("A" if a.distance < b.distance else "B", "closer to the cushion")
