"""How many matches a competition has, counted one way wherever a page says it.

The matches that exist (a bye is no match: its player goes on from the draw), less the
void ones (a decision replaced them; counted nowhere), each by its status as the store
keeps it in the same transaction as each event: live while a game is being played or
reviewed (the home page's live matches), finished, and scheduled before its first game
(its lag may be recorded).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Q

from matches.models import Match

LIVE = (Match.Status.PLAYING, Match.Status.REVIEW)
STATUSES = {
    "live": Q(matches__status__in=LIVE),
    "finished": Q(matches__status=Match.Status.FINISHED),
    "scheduled": Q(matches__status=Match.Status.LAG),
}


@dataclass(frozen=True)
class MatchCounts:
    """A competition's matches: live, finished, scheduled, and all of them."""

    live: int = 0
    finished: int = 0
    scheduled: int = 0

    @property
    def total(self) -> int:
        return self.live + self.finished + self.scheduled


def match_counting() -> dict[str, Count]:
    """Return the annotations of a query of competitions that count their matches.

    Distinct: a query that joins another table (the entries) meets each match once per row.
    """
    return {
        f"matches_{name}": Count("matches", filter=status, distinct=True)
        for name, status in STATUSES.items()
    }


def counts_of(competition: Any) -> MatchCounts:
    """Return the counts a competition annotated by `match_counting` carries."""
    return MatchCounts(**{name: getattr(competition, f"matches_{name}") for name in STATUSES})
