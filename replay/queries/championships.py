"""A competition's stages and final ranking as the API shapes them, as of a version.

The latest is the projector's read model (`replay.models.StagesView`) while no event of
the competition is newer than the position it was written at; otherwise, and as of any
earlier version, the competition's log and its stage matches are folded on the spot. A
fold as of a version is kept in the read cache (`read_cache`) by what it depends on: the
same version asked again folds nothing.

Whatever the log holds, a read answers: when the fold cannot be made (the projector kept
a fault at the newest event, or the fold on the spot raises), the last good state the
read model keeps (nothing, as of an earlier version) with the error, `"error"` in every
answer (null when none): `{"part", "event", "at", "exception", "message"}`.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from django.db import DatabaseError

__all__ = [
    "DrawUnfolded",
    "disputes_open",
    "draw_history",
    "ranking_get",
    "stage_shapes",
    "stages_and_ranking",
    "stages_get",
    "standings_fault",
]

from matches import store
from matches.domain.errors import Refused
from matches.models import Competition, Match
from matches.selectors import assigned_username, competition_get
from matches.services.championships import championship_at, stage_shapes
from matches.services.competition_log import log_read
from replay.models import ReadModelFault, StagesView
from replay.projections.faults import described, fault_of
from replay.queries.read_cache import cached, read_key

logger = logging.getLogger(__name__)
# How long a competition as of a version stays in the read cache: its key changes with
# what the answer depends on, so this bounds only the cache's size.
AS_OF_SECONDS = 600


class DrawUnfolded(Refused):
    """A competition's draw that cannot be folded now (409): what needs it refuses, naming
    the error, until an event repairs it."""

    status = 409


@dataclass(frozen=True)
class Shown:
    """A competition's stages and ranking rows at a version, and why they stop there (the
    error, None when the fold is whole)."""

    version: int
    stages: list[dict[str, Any]]
    ranking: list[dict[str, Any]]
    error: dict[str, Any] | None = None


def shown_at(competition: Competition, at: int | None = None) -> Shown:
    """Return a competition's stages and ranking as of `at` (the latest when None).

    A fold that cannot be made gives the read model's last good state (nothing, as of an
    earlier version) with the error.
    """
    if at is not None:
        return _shown_as_of(competition, at)
    stored = StagesView.objects.filter(competition=competition).first()
    newest = store.competition_newest(competition.pk)
    if stored is not None and stored.position >= newest:
        return Shown(stored.version, stored.stages, stored.ranking)
    fault = fault_of(competition.pk, ReadModelFault.STAGES)
    if fault is not None and fault.event >= newest:  # the projector could not: no fold
        error = fold_error(fault.part, fault.event, fault.at, fault.error, fault.message)
        return _last_good(stored, error)
    return _folded(competition, None, stored)


def _shown_as_of(competition: Competition, at: int) -> Shown:
    """Return a competition's stages and ranking as of `at`, from the read cache when
    folded once already.

    The fold reads the events up to `at`, so the newest of them stands for them all; and
    the competition's stage matches as they are now (a draw, a move or a decision adds an
    event to its own log; a settled slot makes a match and no event), so its own log's
    newest event and its count of stage matches stand for those.
    """
    depends_on = (
        competition.pk,
        store.competition_newest(competition.pk, at),
        store.competition_log_newest(competition.pk),
        Match.objects.filter(competition=competition).exclude(stage_id="").count(),
    )
    key = read_key("stages-as-of", *depends_on)
    return cached(key, lambda: _folded(competition, at, None), AS_OF_SECONDS)


def _folded(competition: Competition, at: int | None, stored: StagesView | None) -> Shown:
    """Return a competition folded on the spot as of `at`; a fold that raises gives the
    read model's last good state (`stored`) with the error."""
    try:
        as_of = championship_at(competition, at)
        return Shown(as_of.version, as_of.championship.views(), as_of.championship.ranking())
    except DatabaseError:
        raise  # the database's trouble, not the log's
    except Exception as raised:
        return _last_good(stored, _unfolded(competition.pk, at, raised))


def _last_good(stored: StagesView | None, error: dict[str, Any]) -> Shown:
    if stored is None:
        return Shown(0, [], [], error)
    return Shown(stored.version, stored.stages, stored.ranking, error)


def _unfolded(competition_id: str, at: int | None, raised: Exception) -> dict[str, Any]:
    """Return the error of a fold on the spot that raised, at the competition's newest
    event (up to `at`), and log it."""
    event = store.competition_newest(competition_id, at)
    name, message = described(raised)
    logger.warning(
        "the stages of competition %s cannot be folded at event %s: %s: %s",
        competition_id,
        event,
        name,
        message,
        exc_info=raised,
    )
    return fold_error(ReadModelFault.STAGES, event, store.recorded_at(event), name, message)


def fold_error(
    part: str, event: int, at: datetime | None, exception: str, message: str
) -> dict[str, Any]:
    """Return a read model's error as every answer shows it."""
    when = None
    if at is not None:  # as the log writes a time
        when = at.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
    return {"part": part, "event": event, "at": when, "exception": exception, "message": message}


def standings_fault(competition_id: str) -> dict[str, Any] | None:
    """Return the error of a competition's standings the projector could not write."""
    fault = fault_of(competition_id, ReadModelFault.STANDINGS)
    if fault is None:
        return None
    return fold_error(fault.part, fault.event, fault.at, fault.error, fault.message)


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
        return {"competition": found.pk, "version": 0, "stages": [], "error": None}
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
    return {
        "competition": competition_id,
        "version": shown.version,
        "stages": shown.stages,
        "error": shown.error,
    }


def _ranking(competition_id: str, shown: Shown) -> dict[str, Any]:
    return {
        "competition": competition_id,
        "version": shown.version,
        "provisional": any(row["provisional"] for row in shown.ranking),
        "rows": shown.ranking,
        "error": shown.error,
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
        for group in stage.get("groups") or []:  # a stage drawn from another's
            for match in group["matches"]:
                for dispute in match.get("disputes") or []:
                    if dispute["match"] == match["match"]:  # the place's first begun
                        found.append(
                            {
                                **dispute,
                                "stage": stage["id"],
                                "group": group["name"],
                                "round": match["round"],
                                "rounds": 0,
                                "players": match["players"],
                                "referee": assigned_username(dispute["match"]),
                            }
                        )
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
    return {
        "competition": competition.pk,
        "version": shown.version,
        "disputes": found,
        "error": shown.error,
    }
