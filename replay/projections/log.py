"""What the projector hands on from the log it reads through `store.log_after`.

A leaf: the projector and the standings writer both use these, and import each other
no more.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from matches.errors import Refused
from matches.rules.ranking import Result
from matches.services.decisions import DISPUTE_DECIDED
from matches.store import LoggedEvent
from replay.models import MatchSummary

Stamp = tuple[int, Any]  # the projector's cursor: its position and when it moved


@dataclass(frozen=True)
class Change:
    """One event that changed what a match counts for in its competition's standings."""

    event: LoggedEvent
    competition_id: str
    summary: MatchSummary
    before: Result | None
    after: Result | None
    game: int | None = None  # the game of the shot a correction names
    shot: int | None = None  # that shot's number (its place among the match's shots)


def voided_match(row: LoggedEvent) -> str | None:
    """Return the match a row of a competition's log voids (a decision not to keep it),
    else None: the summaries and the ratings count that match for nothing from then on."""
    if row.match_id is not None or row.stored_type != DISPUTE_DECIDED:
        return None
    try:
        decision = row.fact()
    except Refused:
        return None
    if decision.get("keep", True) or not isinstance(decision.get("match"), str):
        return None
    match_id: str = decision["match"]
    return match_id
