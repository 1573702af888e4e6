"""Competitions in stages as a read model, written by the projector inside its transaction.

After each batch, every competition with stages that the batch touched (an event of its
own log or of one of its stage matches) is folded as of the cursor from what each match
counts for, read from the summaries the batch has just written (no match is folded
again); the matches its settled slots make playable are created (`services.settle`), and
its stages and final ranking written. A rebuild writes the same, since both are the fold
of the same events up to the same position. Reading is `replay.queries.championships`'s.
A competition whose fold, settling or writing raises is rolled back to its savepoint and
keeps its last good state, the error kept as its fault (`faults`): the others go on.

Between runs, this process keeps each competition's folded log, what its matches count
for and its last fold (`KeptByCursor`): a batch of its matches' events then reads those
matches' summaries alone and ranks again only the groups they are in. An event of the
competition's own log (an entry, a draw, a withdrawal) reads it all again.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils import timezone

from matches.championship import Book, Championship, Played, book_of, player_key
from matches.models import Competition, Match
from matches.rules.ranking import Result
from matches.services import settle
from matches.services.competition_log import log_read, stages_of
from matches.stages import Stage
from matches.store import LoggedEvent
from replay.models import ReadModelFault, StagesView
from replay.projections.faults import contained, fault_clear
from replay.projections.kept import KeptByCursor
from replay.projections.log import Stamp


@dataclass
class Kept:
    """A competition in stages as its last run left it."""

    competition: Competition
    stages: list[Stage]
    book: Book
    logged: int  # the newest event of its own log (0 before any)
    played: dict[str, Played]  # a new dict each run: a fold keeps the one it was given
    changed: int  # the newest event that changed what one of its matches shows
    version: int | None  # the version written (None before any)
    championship: Championship | None = None  # the last fold, for its groups


_kept: KeptByCursor[Kept] = KeptByCursor(16)


def stages_write(rows: Sequence[LoggedEvent], before: Stamp, after: Stamp) -> dict[str, int]:
    """Settle and write each competition with stages these events touched; return the
    version of each one whose version grew.

    `before` is the projector's cursor (position and time) before these events, `after`
    once they are in. Each competition is written in a savepoint of its own: one whose
    fold, settling or writing raises keeps its last good state and the error as its
    fault (`faults.contained`), and the others go on.
    """
    own = {row.competition_id for row in rows if row.competition_id is not None}
    touched = {row.match_id for row in rows if row.match_id is not None}
    matches: dict[str, set[str]] = {}
    competition_of: dict[str, str] = {}
    for match_id, competition_id in (
        Match.objects.filter(pk__in=touched)
        .exclude(stage_id="")
        .values_list("pk", "competition_id")
    ):
        matches.setdefault(competition_id, set()).add(match_id)
        competition_of[match_id] = competition_id
    newest: dict[str, int] = {}  # each competition's newest event in these rows
    for row in rows:
        owner = row.competition_id or competition_of.get(row.match_id or "")
        if owner is not None:
            newest[owner] = row.id
    versions = {}
    for competition_id in sorted(own | set(matches)):
        touching = matches.get(competition_id)
        own_event = competition_id in own
        work = functools.partial(_write, competition_id, own_event, touching, before, after)
        version = contained(ReadModelFault.STAGES, competition_id, newest[competition_id], work)
        if version is not None:
            versions[competition_id] = version
    _kept.carry(before, after)
    return versions


def _write(
    competition_id: str,
    own: bool,
    match_ids: set[str] | None,
    before: Stamp,
    after: Stamp,
) -> int | None:
    """Settle and write one competition (`own`: an event of its own log is among the rows;
    `match_ids`: its stage matches they touched); return its version if it grew."""
    kept = None if own else _kept.take(competition_id, before)
    read = kept is None
    if kept is None:
        kept = _read(competition_id)
        if kept is None:
            return None
    else:
        _refresh(kept, match_ids or ())
    version = _store(kept, after[0])
    if read:  # a competition with a fault is never kept: it is read again, and written
        fault_clear(ReadModelFault.STAGES, competition_id)
    _kept.keep(competition_id, after, kept)
    return version


def forget_stages() -> None:
    """Drop the competitions kept in this process (a rebuild, tests)."""
    _kept.clear()


def _read(competition_id: str) -> Kept | None:
    """Return a competition in stages as its log and its summaries give it (None without
    stages)."""
    competition = Competition.objects.filter(pk=competition_id, stages__isnull=False).first()
    if competition is None:
        return None
    logged = log_read(competition_id)
    played, changed = played_of(competition_id)
    written = StagesView.objects.filter(pk=competition_id).values_list("version", flat=True)
    return Kept(
        competition,
        stages_of(competition),
        book_of([entry.event for entry in logged], [entry.id for entry in logged]),
        logged[-1].id if logged else 0,
        played,
        changed,
        written.first(),
    )


def _refresh(kept: Kept, match_ids: Iterable[str]) -> None:
    """Read again what these matches count for (their summaries have just moved on)."""
    played, changed = played_of(kept.competition.pk, match_ids)
    kept.played = {**kept.played, **played}
    kept.changed = max(kept.changed, changed)


def _store(kept: Kept, position: int) -> int | None:
    """Write a competition's stages and ranking as of `position`; return the version if it
    grew (None when it did not)."""
    championship = _fold(kept)
    created = settle(kept.competition, championship, stored=kept.played.keys())
    if created:  # the new matches' ids go on its bracket
        _refresh(kept, [match.pk for match in created])
        championship = _fold(kept)
    version = max(kept.logged, kept.changed)
    StagesView.objects.update_or_create(
        competition=kept.competition,
        defaults={
            "version": version,
            "position": position,
            "stages": championship.views(),
            "ranking": championship.ranking(),
            "computed_at": timezone.now(),
        },
    )
    grew = kept.version is None or version > kept.version
    kept.version, kept.championship = version, championship
    return version if grew else None


def _fold(kept: Kept) -> Championship:
    competition = kept.competition.pk
    return Championship(competition, kept.stages, kept.book, kept.played, kept.championship)


@dataclass
class StageMatches:
    """What each stage match of a competition counts for, from its summary; the newest
    event that changed what they show; and the players each match made (and not void)
    names now, by key: those a correction may move."""

    played: dict[str, Played]
    newest: int
    headers: dict[str, tuple[str, str]]


def played_of(
    competition_id: str, match_ids: Iterable[str] | None = None
) -> tuple[dict[str, Played], int]:
    """Return what each stage match of a competition (or each of `match_ids`) counts for,
    from its summary, and the newest event that changed what they show."""
    found = stage_matches(competition_id, match_ids)
    return found.played, found.newest


def stage_matches(competition_id: str, match_ids: Iterable[str] | None = None) -> StageMatches:
    """Return the stage matches of a competition (or each of `match_ids`) as summarised."""
    rows = Match.objects.filter(competition_id=competition_id).exclude(stage_id="")
    if match_ids is not None:
        rows = rows.filter(pk__in=list(match_ids))
    found = StageMatches({}, 0, {})
    summarised = rows.values_list(
        "pk",
        "players",
        "status",
        "summary__status",
        "summary__winner",
        "summary__result",
        "summary__shown_event_id",
    )
    for match_id, players, made, status, winner, result, shown in summarised:
        played = _played(players, status, winner, result, shown)
        found.played[match_id] = played
        found.newest = max(found.newest, played.changed)
        if made != Match.Status.VOID:
            found.headers[match_id] = (
                str(played.result.players[0]),
                str(played.result.players[1]),
            )
    return found


def _played(players: Any, status: Any, winner: Any, result: Any, shown: Any) -> Played:
    """Return what a match counts for, from its header's players and its summary's row."""
    keys = (player_key(players["A"]), player_key(players["B"]))
    outcome = Result.from_json(result, keys) if result else Result(keys)
    status = status or "scheduled"
    won = winner if status == "finished" and winner else None
    return Played(status, outcome, won, shown or 0)
