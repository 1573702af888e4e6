"""A competition's stages and final ranking as the API shapes them, as of a version.

The latest is the projector's read model (`replay.models.StagesView`) while no event of
the competition is newer than the position it was written at; otherwise, and as of any
earlier version, the competition's log and its stage matches are folded on the spot.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = [
    "disputes_open",
    "draw_history",
    "ranking_get",
    "stage_shapes",
    "stages_and_ranking",
    "stages_get",
]

from matches import store
from matches.errors import Refused
from matches.models import Competition
from matches.selectors import assigned_username, competition_get
from matches.services.championships import championship_at, stage_shapes
from matches.services.competition_log import log_read
from replay.models import StagesView


@dataclass(frozen=True)
class Shown:
    """A competition's stages and ranking rows at a version."""

    version: int
    stages: list[dict[str, Any]]
    ranking: list[dict[str, Any]]


def shown_at(competition: Competition, at: int | None = None) -> Shown:
    """Return a competition's stages and ranking as of `at` (the latest when None)."""
    if at is None:
        stored = StagesView.objects.filter(competition=competition).first()
        if stored is not None and stored.position >= store.competition_newest(competition.pk):
            return Shown(stored.version, stored.stages, stored.ranking)
    as_of = championship_at(competition, at)
    return Shown(as_of.version, as_of.championship.views(), as_of.championship.ranking())


def _staged(competition_id: Any) -> Competition:
    competition = competition_get(competition_id)
    if competition.stages is None:
        raise Refused("the competition has no stages: see its standings", "stages")
    return competition


def stages_get(competition_id: Any, at: int | None = None) -> dict[str, Any]:
    """Return every stage of a competition: groups with tables and matches, or rounds.

    With `at`, as it stood after every event with a global id up to `at`.
    """
    found = competition_get(competition_id)
    if found.stages is None:  # one round robin, as before stages: no stage is listed
        return {"competition": found.pk, "version": 0, "stages": []}
    return _stages(found.pk, shown_at(found, at))


def ranking_get(competition_id: Any, at: int | None = None) -> dict[str, Any]:
    """Return every entry's final place, each row provisional while what it needs is open."""
    competition = _staged(competition_id)
    return _ranking(competition.pk, shown_at(competition, at))


def stages_and_ranking(
    competition_id: Any, at: int | None = None
) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """Return `stages_get` and `ranking_get` of one reading (None without stages)."""
    competition = competition_get(competition_id)
    if competition.stages is None:
        return None
    shown = shown_at(competition, at)
    return _stages(competition.pk, shown), _ranking(competition.pk, shown)


def _stages(competition_id: str, shown: Shown) -> dict[str, Any]:
    return {"competition": competition_id, "version": shown.version, "stages": shown.stages}


def _ranking(competition_id: str, shown: Shown) -> dict[str, Any]:
    return {
        "competition": competition_id,
        "version": shown.version,
        "provisional": any(row["provisional"] for row in shown.ranking),
        "rows": shown.ranking,
    }


def draw_history(competition_id: str, at: int | None = None) -> list[dict[str, Any]]:
    """Return a competition's own log, newest first: every entry, draw, withdrawal, move of
    players and decision, each with its version (global id), when and by whom."""
    return [
        {"version": logged.id, "at": logged.at, "by": logged.by, "event": logged.event}
        for logged in reversed(log_read(competition_id, at))
    ]


def disputes_open(competition_id: Any) -> dict[str, Any]:
    """Return a competition's open disputes, as its stages show them now, with the match
    each is about: its round, both players as played and as amended."""
    competition = _staged(competition_id)
    shown = shown_at(competition)
    found = []
    for stage in shown.stages:
        for number, matches in enumerate(stage.get("rounds") or [], start=1):
            for match in matches:
                for dispute in match.get("disputes") or []:
                    found.append(
                        {
                            **dispute,
                            "stage": stage["id"],
                            "round": number,
                            "rounds": len(stage["rounds"]),
                            "players": match["players"],
                            # Who records its replacement if it is voided and none is named.
                            "referee": assigned_username(dispute["match"]),
                        }
                    )
    return {"competition": competition.pk, "version": shown.version, "disputes": found}
