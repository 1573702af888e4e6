"""A competition's standings as the API shapes them, and what changed them, newest first."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from matches.selectors import competition_get
from replay.models import Standings, StandingsChange


def standings_get(competition_id: Any) -> dict[str, Any]:
    """Return a competition's standings as the API shapes them (version 0 before any)."""
    competition = competition_get(competition_id)
    found = Standings.objects.filter(pk=competition.pk).first()
    if found is None:
        return {
            "competition": competition.pk,
            "version": 0,
            "computed_at": None,
            "pending": 0,
            "rows": [],
        }
    return {
        "competition": competition.pk,
        "version": found.version,
        "computed_at": found.computed_at.isoformat().replace("+00:00", "Z"),
        "pending": found.pending,
        "rows": found.rows,
    }


def standings_changes(competition_id: str) -> Iterator[StandingsChange]:
    """Yield a competition's versions of standings with what changed, the newest first."""
    changes = StandingsChange.objects.filter(competition_id=competition_id)
    return changes.order_by("-version").iterator()
