"""The global log's rows as the projections read them, and what the projector hands on.

A leaf: the projector and the standings writer both use these, and import each other
no more.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

import orjson

from matches.errors import Refused
from matches.rules.ranking import Result
from replay.models import MatchSummary

Stamp = tuple[int, Any]  # the projector's cursor: its position and when it moved


@dataclass(frozen=True)
class LoggedEvent:
    """One row of the global log, as the projector reads it."""

    id: int
    match_id: str
    seq: int
    stored_type: str  # the type column: only to name a row whose data cannot be read
    data: str
    hash: str
    by: str

    def fact(self) -> dict[str, Any]:
        value = orjson.loads(self.data)
        if type(value) is not dict:
            raise Refused("the stored event cannot be read: not a JSON object", "data", self.seq)
        return value

    @cached_property
    def type(self) -> str:
        """Return the event's type as hashed (its data), never the column beside it."""
        kind: str = self.fact()["type"]
        return kind


@dataclass(frozen=True)
class Change:
    """One event that changed what a match counts for in its competition's standings."""

    event: LoggedEvent
    competition_id: str
    summary: MatchSummary
    before: Result | None
    after: Result | None
    game: int | None = None  # the game of the shot a correction names
