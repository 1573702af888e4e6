"""Where each ball was last known to be, for drawing the table when a rest position is missing.

The match state says null for a ball that moved without a rest position (the notation),
and keeps saying so: this is for the drawing alone, which shows such a ball where it
was last known, marked as not confirmed. The twin of `lastKnown` in table.js.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from matches.domain.fold import evolve
from matches.domain.header import Header
from matches.domain.rules.table import BALLS
from matches.domain.state import Corrections, MatchState

Known = dict[str, list[float] | None]
# A break (and a respot for balls in contact) puts the player's ball in hand: nowhere yet.
IN_HAND = ("game_started", "balls_respotted")


def sent_off(event: Mapping[str, Any]) -> set[str]:
    """Return the balls a shot sent off the table (a correction, recorded later, moves none)."""
    if event.get("type") != "shot":
        return set()
    return {c.get("ball") for c in event.get("contacts") or [] if c.get("hit") == "off"}


def last_known(
    known: Mapping[str, Any], positions: Mapping[str, Any], event: Mapping[str, Any]
) -> Known:
    """Return where each ball was last known to be once an event is applied.

    `positions`: the state's after it; `known`: this function's answer for the event before.
    A ball in hand for a break, and a ball that left the table, are nowhere until placed.
    """
    off = sent_off(event)
    in_hand = event.get("type") in IN_HAND
    found: Known = {}
    for ball in BALLS:
        at = positions.get(ball)
        if at is not None:
            found[ball] = [float(at[0]), float(at[1])]
        else:
            found[ball] = None if in_hand or ball in off else known.get(ball)
    return found


def last_known_positions(header: Header, facts: Sequence[Mapping[str, Any]]) -> Known:
    """Return where each ball was last known to be after a match's events, as amended."""
    corrections = Corrections.of(facts)
    state = MatchState(header, corrections)
    known: Known = dict.fromkeys(BALLS)
    for seq, fact in enumerate(facts, start=1):
        state = evolve(state, fact)
        # A shot as amended is its last amendment's facts; a retracted one moved nothing.
        in_force = fact
        if seq in corrections.retractions:
            in_force = {"type": "shot_retracted"}
        elif seq in corrections.amendments:
            in_force = {"type": "shot", **corrections.amendments[seq].facts}
        known = last_known(known, state.positions, in_force)
    return known
