"""Standings as a read model, written forwards by the projector inside its transaction.

`standings_write` turns the projector's changes into versions (never one written
twice, never one going back). Reading them is `replay.queries.standings_reader`'s;
telling the viewers of `/ws/competitions/{id}/` is `replay.live.standings_announce`'s,
on the projector's `standings_committed` signal.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any

from django.utils import timezone

from matches.models import Player
from matches.rules.ranking import Result, Table, moves
from replay.models import MatchSummary, ReadModelFault, Standings, StandingsChange
from replay.projections.faults import contained, fault_clear
from replay.projections.kept import KeptByCursor
from replay.projections.log import Change, Stamp

MAX_TABLES = 64


# -- Writing (the projector's, inside its transaction) -------------------------------------


def standings_write(changes: Sequence[Change], before: Stamp, after: Stamp) -> dict[str, int]:
    """Write a version per change newer than a competition's standings; return the newest.

    `before` is the projector's cursor (position and time) before these changes, `after`
    once they are in. Each competition is written in a savepoint of its own: one that
    raises keeps its last good version and the error as its fault (`faults.contained`),
    and the others go on.
    """
    by_competition: dict[str, list[Change]] = {}
    for change in changes:
        by_competition.setdefault(change.competition_id, []).append(change)
    versions = {}
    for competition_id, own in by_competition.items():
        work = partial(_write, competition_id, own, before, after)
        newest = own[-1].event.id
        version = contained(ReadModelFault.STANDINGS, competition_id, newest, work)
        if version is not None:
            versions[competition_id] = version
    _tables.carry(before, after)
    return versions


def _write(competition_id: str, changes: list[Change], before: Stamp, after: Stamp) -> int | None:
    kept = _tables.take(competition_id, before)
    if kept is None:  # a competition with a fault is never kept: it is read again
        kept = _read(competition_id)
        fault_clear(ReadModelFault.STANDINGS, competition_id)  # undone if this raises
    version, table, names, rows = kept
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
    _tables.keep(competition_id, after, (version, table, names, rows))
    if written is None:
        return None
    StandingsChange.objects.bulk_create(made)
    fields = {"version": version, "pending": table.pending, "rows": rows, "computed_at": now}
    # The guard: only a version newer than the stored one replaces it.
    stored = Standings.objects.filter(pk=competition_id)
    if not stored.filter(version__lt=version).update(**fields) and not stored.exists():
        Standings.objects.create(competition_id=competition_id, **fields)
    return written


Names = dict[Any, tuple[str, str | None]]


Kept = tuple[int, Table, Names, list[dict[str, Any]]]

# Each competition's counted results as of its latest version, kept between the
# projector's runs in this process: a recompute then reads no other match.
_tables: KeptByCursor[Kept] = KeptByCursor(MAX_TABLES)


def _read(competition_id: str) -> Kept:
    """Return a competition's stored version and rows, and its summaries' results."""
    counted = MatchSummary.objects.filter(
        competition_id=competition_id, result__isnull=False
    ).values_list("match_id", "result")
    table = Table.of((match_id, Result.from_json(r)) for match_id, r in counted if r is not None)
    stored = Standings.objects.filter(pk=competition_id).values_list("version", "rows").first()
    version, rows = stored if stored is not None else (0, [])
    return version, table, {}, rows


def forget_tables() -> None:
    """Drop the tables kept in this process (a rebuild, tests)."""
    _tables.clear()


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
