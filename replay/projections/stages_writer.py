"""Competitions in stages as a read model, written by the projector inside its transaction.

After each batch, every competition with stages that the batch touched (an event of its
own log or of one of its stage matches) is folded as of the cursor from what each match
counts for, read from the summaries the batch has just written (no match is folded
again), and its stages and final ranking written. A rebuild writes the same, since both
are the fold of the same events up to the same position. Reading is
`replay.queries.championships`'s. A competition whose fold or writing raises is rolled
back to its savepoint and keeps its last good state, the error kept as its fault
(`faults`): the others go on. The matches its settled slots make playable are not made
here: the projector's process manager (`knockouts`) makes them after the read models are
written, and puts them in the bracket through `stages_matches_add`.

Each competition's folded log, what its matches count for and its last fold are cached
in this process (`stages folds`): a batch of its matches' events then reads those
matches' summaries alone and ranks again only the groups they are in. An event of the
competition's own log (an entry, a draw, a withdrawal) reads it all again.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils import timezone

from carambole.caches import Cache
from matches.domain.championship import Championship
from matches.domain.competition_log import CompetitionLog, Played, fold_competition_log, player_key
from matches.domain.rules.ranking import Result
from matches.domain.stages import Stage
from matches.models import Competition, Match
from matches.services.competition_log import log_read, stages_of
from replay.models import ReadModelFault, StagesView
from replay.projections.faults import contained, fault_clear
from replay.projections.log import Batch, Folded, ReadModel


@dataclass
class Staged:
    """A competition in stages as its last write left it, and the row written."""

    competition: Competition
    stages: list[Stage]
    competition_log: CompetitionLog
    logged: int  # the newest event of its own log (0 before any)
    played: dict[str, Played]  # a new dict each write: a fold keeps the one it was given
    changed: int  # the newest event that changed what one of its matches shows
    version: int | None  # the version written (None before any)
    championship: Championship | None = None  # the last fold, for its groups
    written: tuple[int, datetime] | None = None  # the stored view's position and time


# Checked against the stored view before use: a run rolled back, a rebuild or another
# database reads the competition again.
folds: Cache[str, Staged] = Cache("stages folds", 16)


def stages_write(batch: Batch) -> dict[str, int]:
    """Write each competition with stages these events touched; return the version of
    each one whose version grew. Each one written goes in `batch.championships`.

    Each competition is written in a savepoint of its own: one whose fold or writing
    raises keeps its last good state and the error as its fault (`faults.contained`), and
    the others go on.
    """
    own = {row.competition_id for row in batch.rows if row.competition_id is not None}
    touched = {row.match_id for row in batch.rows if row.match_id is not None}
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
    for row in batch.rows:
        owner = row.competition_id or competition_of.get(row.match_id or "")
        if owner is not None:
            newest[owner] = row.id
    versions = {}
    for competition_id in sorted(own | set(matches)):
        touching = matches.get(competition_id, set())
        read_all = competition_id in own
        work = functools.partial(
            _write, competition_id, read_all, touching, batch, newest[competition_id]
        )
        version = contained(ReadModelFault.STAGES, competition_id, newest[competition_id], work)
        if version is not None:
            versions[competition_id] = version
    return versions


def stages_matches_add(folded: Folded, match_ids: Iterable[str], position: int) -> None:
    """Put matches just made for a competition in its bracket: its stages written again."""
    staged = _cached(folded.competition.pk)
    if staged is None:
        staged = _read(folded.competition.pk)
        assert staged is not None  # a competition in stages, written in this batch
    else:
        _refresh(staged, match_ids)
    _store(staged, position)
    folds.set(folded.competition.pk, staged)


def stages_empty() -> None:
    """Delete every competition's stages view (a rebuild)."""
    StagesView.objects.all().delete()


STAGES = ReadModel("stages", stages_write, stages_empty, folds.clear)


def _write(
    competition_id: str, read_all: bool, match_ids: set[str], batch: Batch, newest: int
) -> int | None:
    """Write one competition (`read_all`: an event of its own log is among the rows;
    `match_ids`: its stage matches they touched); return its version if it grew."""
    staged = None if read_all else _cached(competition_id)
    read = staged is None
    if staged is None:
        staged = _read(competition_id)
        if staged is None:
            return None
    else:
        _refresh(staged, match_ids)
    version = _store(staged, batch.position)
    if read:  # a competition with a fault is never cached: it is read again, and written
        fault_clear(ReadModelFault.STAGES, competition_id)
    folds.set(competition_id, staged)
    assert staged.championship is not None  # folded by `_store`
    stored = frozenset(staged.played)
    batch.championships[competition_id] = Folded(
        staged.competition, staged.championship, stored, newest
    )
    return version


def _cached(competition_id: str) -> Staged | None:
    """Return the competition as cached, if it is still as its stored view was written (a
    competition with a fault is never cached: it is read again, and written)."""
    staged = folds.pop(competition_id)
    if staged is None:
        return None
    stored = StagesView.objects.filter(pk=competition_id).values_list("position", "computed_at")
    return staged if staged.written == stored.first() else None


def _read(competition_id: str) -> Staged | None:
    """Return a competition in stages as its log and its summaries give it (None without
    stages)."""
    competition = Competition.objects.filter(pk=competition_id, stages__isnull=False).first()
    if competition is None:
        return None
    logged = log_read(competition_id)
    played, changed = played_of(competition_id)
    written = StagesView.objects.filter(pk=competition_id).values_list("version", flat=True)
    return Staged(
        competition,
        stages_of(competition),
        fold_competition_log([entry.event for entry in logged], [entry.id for entry in logged]),
        logged[-1].id if logged else 0,
        played,
        changed,
        written.first(),
    )


def _refresh(staged: Staged, match_ids: Iterable[str]) -> None:
    """Read again what these matches count for (their summaries have just moved on)."""
    played, changed = played_of(staged.competition.pk, match_ids)
    staged.played = {**staged.played, **played}
    staged.changed = max(staged.changed, changed)


def _store(staged: Staged, position: int) -> int | None:
    """Write a competition's stages and ranking as of `position`; return the version if it
    grew (None when it did not)."""
    championship = _fold(staged)
    version = max(staged.logged, staged.changed)
    now = timezone.now()
    view = StagesView(
        competition=staged.competition,
        version=version,
        position=position,
        stages=championship.views(),
        ranking=championship.ranking(),
        computed_at=now,
    )
    view.save()  # an UPDATE, or an INSERT for the first
    grew = staged.version is None or version > staged.version
    staged.version, staged.championship = version, championship
    staged.written = (position, now)
    return version if grew else None


def _fold(staged: Staged) -> Championship:
    competition = staged.competition.pk
    return Championship(
        competition, staged.stages, staged.competition_log, staged.played, staged.championship
    )


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
