"""What the projector hands on from the log it reads through `store.log_after`.

A leaf: the projector and the standings writer both use these, and import each other
no more.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from matches.rules.ranking import Result
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
