"""A competition's stages and final ranking as `competitions.md` shapes them, as of a version."""

from __future__ import annotations

from typing import Any

__all__ = ["knockout_rounds", "ranking_get", "stages_get"]

from matches.errors import Refused
from matches.selectors import competition_get
from matches.services.championships import AsOf, championship_at, knockout_rounds


def _as_of(competition_id: Any, at: int | None) -> tuple[str, AsOf]:
    competition = competition_get(competition_id)
    if competition.stages is None:
        raise Refused("the competition has no stages: see its standings", "stages")
    return competition.pk, championship_at(competition, at)


def stages_get(competition_id: Any, at: int | None = None) -> dict[str, Any]:
    """Return every stage of a competition: groups with tables and matches, or rounds.

    With `at`, as it stood after every event with a global id up to `at`.
    """
    found = competition_get(competition_id)
    if found.stages is None:  # one round robin, as before stages: no stage is listed
        return {"competition": found.pk, "version": 0, "stages": []}
    competition, as_of = _as_of(competition_id, at)
    return {
        "competition": competition,
        "version": as_of.version,
        "stages": as_of.championship.views(),
    }


def ranking_get(competition_id: Any, at: int | None = None) -> dict[str, Any]:
    """Return every entry's final place, each row provisional while what it needs is open."""
    competition, as_of = _as_of(competition_id, at)
    rows = as_of.championship.ranking()
    return {
        "competition": competition,
        "version": as_of.version,
        "provisional": any(row["provisional"] for row in rows),
        "rows": rows,
    }
