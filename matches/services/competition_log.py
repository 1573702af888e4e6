"""A competition's own log: its entries, seeds, draws and withdrawals, append-only.

Kept in the events table beside the matches' logs (`Event.competition` set instead of
`Event.match`), appended under the same log lock: each event takes its place in the
one global order, and a view "as of version V" reads both logs up to V. The chain is
the matches' own: each hash covers the previous one and the event with its `seq`, `at`
and `by`; event 1 chains to the seal of the competition (its id, ruleset and stages).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import connection
from orjson import dumps

from matches import store
from matches.chain import event_hash
from matches.errors import Refused
from matches.models import Competition, Event
from matches.notation import canonical_json
from matches.readback import event_data
from matches.stages import Stage, parse_stages

# The kinds of event a competition's log holds (the README's "The competition's log").
PLAYER_ENTERED = "player_entered"
PLAYER_WITHDRAWN = "player_withdrawn"
STAGE_DRAWN = "stage_drawn"
DRAW_UNDONE = "draw_undone"
PLAYERS_SEEDED = "players_seeded"


def stages_of(competition: Competition) -> list[Stage]:
    """Return a competition's stages, parsed from what its creator wrote ([] without)."""
    if competition.stages is None:
        return []
    return parse_stages(competition.stages, competition.ruleset)


def competition_seal(competition: Competition) -> str:
    """Return the "previous hash" of a competition's event 1: its id, ruleset and stages."""
    sealed = {
        "competition": competition.pk,
        "ruleset": competition.ruleset,
        "stages": competition.stages,
    }
    return hashlib.sha256(canonical_json(sealed)).hexdigest()


@dataclass(frozen=True)
class Logged:
    """One event of a competition's log as read back: its global id, `seq`, body, stamp."""

    id: int
    seq: int
    event: dict[str, Any]
    at: str
    by: str
    hash: str

    def as_record(self) -> dict[str, Any]:
        return {"seq": self.seq, **self.event, "at": self.at, "by": self.by, "hash": self.hash}


def log_append(competition: Competition, events: Sequence[Mapping[str, Any]], by: str) -> list[int]:
    """Append events to a competition's log; the caller's transaction, under the log lock.

    Returns their global ids: the competition's version after each.
    """
    return log_store(competition, events, [store.Stamp(by=by)] * len(events))


def log_store(
    competition: Competition,
    events: Sequence[Mapping[str, Any]],
    stamps: Sequence[store.Stamp],
    ids: Sequence[int] | None = None,
) -> list[int]:
    """Store events in a competition's log, each with its stamp; an imported one brings its
    `at`, its `hash` (checked against the chain) and its global id (`ids`)."""
    if not connection.in_atomic_block:
        raise RuntimeError("log_store() runs inside the caller's transaction")
    store.lock_log()
    last = (
        Event.objects.filter(competition=competition)
        .order_by("-seq")
        .values_list("seq", "hash")
        .first()
    )
    seq, previous = last if last is not None else (0, competition_seal(competition))
    stored = []
    for index, (event, stamp) in enumerate(zip(events, stamps, strict=True)):
        seq += 1
        at = stamp.at or store.now_text()
        digest = event_hash(previous, {"seq": seq, **event, "at": at, "by": stamp.by})
        if stamp.hash is not None and stamp.hash != digest:
            raise Refused("hash does not match the chain", "hash", seq)
        row = Event.objects.create(
            id=ids[index] if ids is not None else None,
            competition=competition,
            seq=seq,
            type=event["type"],
            data_text=dumps(dict(event)).decode(),
            recorded_at=store.parse_time(at),
            at=at,
            recorded_by=stamp.by,
            hash=digest,
        )
        stored.append(row.pk)
        previous = digest
    return stored


# One plain statement: a preview and the projector read a whole log each time (the ORM's
# models cost more than the fold they feed).
_LOG_COLUMNS = {field.name: field.column for field in Event._meta.concrete_fields}
LOG_SQL = (
    "SELECT "
    + ", ".join(
        _LOG_COLUMNS[name] for name in ("id", "seq", "data_text", "at", "recorded_by", "hash")
    )
    + f" FROM {Event._meta.db_table} WHERE {_LOG_COLUMNS['competition']} = %s"
)


def log_read(competition_id: str, upto: int | None = None) -> list[Logged]:
    """Return a competition's log in order, up to global id `upto` when given."""
    sql, params = LOG_SQL, [competition_id]
    if upto is not None:
        sql += f" AND {_LOG_COLUMNS['id']} <= {int(upto)}"
    with connection.cursor() as cursor:
        cursor.execute(f"{sql} ORDER BY seq", params)
        rows = cursor.fetchall()
    return [
        Logged(pk, seq, event_data(text, seq), at, by, digest)
        for pk, seq, text, at, by, digest in rows
    ]


def verify_log(competition: Competition) -> list[tuple[int, str]]:
    """Return (seq, problem) for each event of a competition's log that breaks its chain."""
    previous = competition_seal(competition)
    problems = []
    expected = 1
    for logged in log_read(competition.pk):
        if logged.seq != expected:
            problems.append((logged.seq, f"seq {expected} is missing"))
        body = {"seq": logged.seq, **logged.event, "at": logged.at, "by": logged.by}
        if event_hash(previous, body) != logged.hash:
            problems.append((logged.seq, "hash does not match the chain"))
        previous, expected = logged.hash, logged.seq + 1
    return problems
