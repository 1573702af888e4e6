"""Standings as a read model, written forwards by the projector inside its transaction.

`standings_write` turns the projector's changes into versions (never one written
twice, never one going back). Reading them is `replay.queries.standings_reader`'s;
telling the viewers of `/ws/competitions/{id}/` is `replay.live.announce`'s,
on the projector's `standings_committed` signal.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from typing import Any

from django.utils import timezone

from carambole.caches import Cache
from matches.domain.rules.ranking import Result, Table, moves
from matches.models import Player
from replay.models import MatchSummary, ReadModelFault, Standings, StandingsChange
from replay.projections.faults import contained, fault_clear
from replay.projections.log import Batch, Change, ReadModel

Names = dict[Any, tuple[str, str | None]]


# -- Writing (the projector's, inside its transaction) -------------------------------------


@dataclass
class Counted:
    """A competition's counted results as of its stored standings, and the row they are
    as of: its version and when it was written (what a cached one is checked against)."""

    version: int
    table: Table
    names: Names
    rows: list[dict[str, Any]]
    written: tuple[int, datetime] | None  # the stored row's version and time (None: none)


# Each competition's counted results as of its stored standings: a batch that changes
# one result then reads no other match (the catch-up after one result stays within a
# few folds of that match). Checked against the stored row before use, so a run rolled
# back, a rebuild or another database reads them again.
tables: Cache[str, Counted] = Cache("standings tables", 64)


def standings_write(batch: Batch) -> dict[str, int]:
    """Write a version per change newer than a competition's standings; return the newest.

    Each competition is written in a savepoint of its own: one that raises keeps its last
    good version and the error as its fault (`faults.contained`), and the others go on.
    """
    by_competition: dict[str, list[Change]] = {}
    for change in batch.changes:
        by_competition.setdefault(change.competition_id, []).append(change)
    versions = {}
    for competition_id, own in by_competition.items():
        work = partial(_write, competition_id, own)
        newest = own[-1].event.id
        version = contained(ReadModelFault.STANDINGS, competition_id, newest, work)
        if version is not None:
            versions[competition_id] = version
    return versions


def _write(competition_id: str, changes: list[Change]) -> int | None:
    stored = Standings.objects.filter(pk=competition_id)
    written_as = stored.values_list("version", "computed_at").first()
    counted = tables.pop(competition_id)
    if counted is None or counted.written != written_as:
        # A competition with a fault is never cached: it is read again.
        counted = _read(competition_id, written_as)
        fault_clear(ReadModelFault.STANDINGS, competition_id)  # undone if this raises
    version, table, names, rows = counted.version, counted.table, counted.names, counted.rows
    _name(names, table, changes)
    written = None
    made: list[StandingsChange] = []
    now = timezone.now()
    for change in changes:
        table.put(change.summary.match_id, change.after)
        if change.event.id <= version:
            continue  # never twice, never back
        new_rows = table.rows(names)
        made.append(
            StandingsChange(
                competition_id=competition_id,
                version=change.event.id,
                previous=version,
                pending=table.pending,
                changes={**_explained(change, names), **moves(rows, new_rows)},
                computed_at=now,
            )
        )
        version, rows, written = change.event.id, new_rows, change.event.id
    if written is not None:
        StandingsChange.objects.bulk_create(made)
        fields = {"version": version, "pending": table.pending, "rows": rows, "computed_at": now}
        # The guard: only a version newer than the stored one replaces it.
        if not stored.filter(version__lt=version).update(**fields) and not stored.exists():
            Standings.objects.create(competition_id=competition_id, **fields)
        written_as = (version, now)
    tables.set(competition_id, Counted(version, table, names, rows, written_as))
    return written


def _read(competition_id: str, written_as: tuple[int, datetime] | None) -> Counted:
    """Return a competition's stored version and rows, and its summaries' results."""
    counted = MatchSummary.objects.filter(
        competition_id=competition_id, result__isnull=False
    ).values_list("match_id", "result")
    table = Table.of((match_id, Result.from_json(r)) for match_id, r in counted if r is not None)
    stored = Standings.objects.filter(pk=competition_id).values_list("version", "rows").first()
    version, rows = stored if stored is not None else (0, [])
    return Counted(version, table, {}, rows, written_as)


def standings_empty() -> None:
    """Delete every version of every competition's standings (a rebuild)."""
    StandingsChange.objects.all().delete()
    Standings.objects.all().delete()


STANDINGS = ReadModel("standings", standings_write, standings_empty, tables.clear)


def _name(names: Names, table: Table, changes: Sequence[Change]) -> None:
    """Add the name and federation id of each player the table or the changes hold."""
    keys = set(table.totals)
    for change in changes:
        for result in (change.before, change.after):
            if result is not None:
                keys.update(result.players)
    missing = keys.difference(names)
    if missing:
        players = Player.objects.filter(pk__in=missing).values_list("pk", "name", "federation_id")
        names.update((pk, (name, federation_id or None)) for pk, name, federation_id in players)


def _explained(change: Change, names: Names) -> dict[str, Any]:
    """Return the event that made a version, and the match result it changed."""
    event, summary = change.event, change.summary
    try:
        fact = event.fact()
    except Exception:  # an unreadable row: its type and seq still say what it was
        fact = {}
    cause = {
        "event": event.id,
        "match": summary.match_id,
        "seq": event.seq,
        "type": fact.get("type", event.stored_type),
        "by": event.by,
        "players": [summary.player_a_name, summary.player_b_name],
    }
    for key in ("shot", "reason", "player"):
        if key in fact:
            cause[key] = fact[key]
    if change.game is not None:
        cause["game"] = change.game  # the corrected shot's, to name it as every page does
    if change.shot is not None:
        cause["number"] = change.shot  # and its number, "shot 1" for the match's first
    return {
        "cause": cause,
        "result": {
            "before": _outcome(change.before, names),
            "after": _outcome(change.after, names),
        },
    }


def _outcome(result: Result | None, names: Names) -> Any:
    if result is None:
        return None
    if not result.counted:
        return {"counted": False}
    winner = result.players[0 if result.winner == "A" else 1]
    return {
        "counted": True,
        "winner": names[winner][0],
        "winner_side": result.winner,
        "games": list(result.games),
        "points": list(result.points),
    }
