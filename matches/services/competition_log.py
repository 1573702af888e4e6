"""A competition's own log: its entries, seeds, draws and withdrawals, append-only.

Kept in the events table beside the matches' logs (`Event.competition` set instead of
`Event.match`), appended under the same log lock: each event takes its position in the
one global order, and a view "as of version V" reads both logs up to V. The chain is
the matches' own: each hash covers the previous one and the event with its `seq`, `at`
and `by`; event 1 chains to the seal of the competition (its id, ruleset and stages).
From hash version 2 (`matches.domain.chain`) it also covers the event's position in the global
order: its own global id and those of its matches' events since the log's previous one,
so that the versions every view is asked at are sealed too.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import connection
from orjson import dumps

from matches import store
from matches.domain.chain import (
    FIRST_HASH_VERSION,
    HASH_VERSIONS,
    IDS_HASHED,
    POSITION_KEYS,
    Position,
    log_event_hash,
    positions_of,
)
from matches.domain.errors import NotFound, Refused, excerpt
from matches.domain.notation import ENVELOPE, canonical_json
from matches.domain.readback import event_data, unreadable_because
from matches.domain.stages import Stage, parse_stages
from matches.models import Competition, Event
from matches.selectors import check_id

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
    hash_version: int = FIRST_HASH_VERSION

    def as_record(self) -> dict[str, Any]:
        return {"seq": self.seq, **self.event, "at": self.at, "by": self.by, "hash": self.hash}


# The keys an event of a competition's log may not hold: its envelope's, and its position's.
LOG_ENVELOPE = (*ENVELOPE, *POSITION_KEYS)
CHAIN_BROKEN = "hash does not match the chain"
POSITION_BROKEN = (
    "hash does not match the chain: the event, its global id or those of its matches' "
    "events since the log's previous one changed"
)


@dataclass(frozen=True)
class Kept:
    """An imported event of a log: its global id here, its hash's version, and its position as
    its file gives it (in the log's own numbering, `Position`)."""

    id: int
    hash_version: int
    position: Position


def log_append(competition: Competition, events: Sequence[Mapping[str, Any]], by: str) -> list[int]:
    """Append events to a competition's log; the caller's transaction, under the log lock.

    Returns their global ids: the competition's version after each.
    """
    return log_store(competition, events, [store.Stamp(by=by)] * len(events))


def log_store(
    competition: Competition,
    events: Sequence[Mapping[str, Any]],
    stamps: Sequence[store.Stamp],
    kept: Sequence[Kept] | None = None,
) -> list[int]:
    """Store events in a competition's log, each with its stamp, hashed with their position.

    An imported one brings its `at`, its `hash` (checked against the chain) and, kept,
    its global id, its hash's version and its position; a new one takes the next global id.
    """
    if not connection.in_atomic_block:
        raise RuntimeError("log_store() runs inside the caller's transaction")
    store.lock_log()
    last = (
        Event.objects.filter(competition=competition)
        .order_by("-seq")
        .values_list("seq", "hash", "id", "hash_version")
        .first()
    )
    if last is None:
        seq, previous, after, version = 0, competition_seal(competition), 0, FIRST_HASH_VERSION
    else:
        seq, previous, after, version = last
    stored = []
    for index, (event, stamp) in enumerate(zip(events, stamps, strict=True)):
        seq += 1
        for key in LOG_ENVELOPE:
            if key in event:
                raise Refused("only the log's envelope may hold it", key, seq)
        if kept is None:
            event_id = store.next_event_id()
            since = store.competition_match_events(competition.pk, after)
            position = positions_of([event_id], since, competition.id_offset)[0]
            version = IDS_HASHED
        else:
            event_id, position = kept[index].id, kept[index].position
            if kept[index].hash_version < version:
                raise Refused(f"must not go back from {version} in one log", "hash_version", seq)
            version = kept[index].hash_version
        at = stamp.at or store.now_text()
        body = {"seq": seq, **event, "at": at, "by": stamp.by}
        digest = log_event_hash(previous, body, version, position)
        if stamp.hash is not None and stamp.hash != digest:
            raise Refused(
                CHAIN_BROKEN if version == FIRST_HASH_VERSION else POSITION_BROKEN, "hash", seq
            )
        row = Event.objects.create(
            id=event_id,
            competition=competition,
            seq=seq,
            type=event["type"],
            data_text=dumps(dict(event)).decode(),
            recorded_at=store.parse_time(at),
            at=at,
            recorded_by=stamp.by,
            hash=digest,
            hash_version=version,
        )
        stored.append(row.pk)
        previous, after = digest, event_id
    return stored


# One plain statement: a preview and the projector read a whole log each time (the ORM's
# models cost more than the fold they feed).
_LOG_COLUMNS = {field.name: field.column for field in Event._meta.concrete_fields}
LOG_SQL = (
    "SELECT "
    + ", ".join(
        _LOG_COLUMNS[name]
        for name in ("id", "seq", "data_text", "at", "recorded_by", "hash", "hash_version")
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
        Logged(pk, seq, event_data(text, seq), at, by, digest, version)
        for pk, seq, text, at, by, digest, version in rows
    ]


def verify_log(competition: Competition) -> list[tuple[int, str]]:
    """Return (seq, problem) for each event of a competition's log that breaks its chain.

    As a match's chain is verified (`store.verify_chain`): a row that cannot be read, a
    missing `seq` and a column that says otherwise than the hashed event are problems,
    never exceptions; seq 0 names the seal. Besides, a hash version must be known and
    never go down, and from version 2 the hash covers the event's position.
    """
    problems: list[tuple[int, str]] = []
    previous: str | None
    try:
        previous = competition_seal(competition)
    except (TypeError, ValueError) as error:
        problems.append((0, f"seal: its ruleset or stages cannot be hashed ({error})"))
        previous = None
    rows = list(Event.objects.filter(competition=competition).order_by("seq"))
    matches = store.competition_match_events(competition.pk)
    positions = positions_of([row.pk for row in rows], matches, competition.id_offset)
    expected, newest = 1, FIRST_HASH_VERSION
    for row, position in zip(rows, positions, strict=True):
        if row.seq > expected:
            problems.append((expected, store.missing_in_words(expected, row.seq - 1)))
        elif row.seq < expected:
            problems.append((row.seq, f"expected seq {expected}"))
        expected = row.seq + 1
        version = row.hash_version
        if version not in HASH_VERSIONS:
            problems.append((row.seq, f"hash version {version} is none this archive knows"))
        elif version < newest:
            problems.append((row.seq, f"hash version {version} after version {newest}"))
        else:
            newest = version
            problems.extend((row.seq, p) for p in _hash_problems(row, previous, position))
        previous = row.hash
    return problems


def _hash_problems(row: Event, previous: str | None, position: Position) -> list[str]:
    """Say how one event of a log disagrees with its chain (nothing, when it agrees)."""
    try:
        digest = log_event_hash(previous or "", row.as_record(), row.hash_version, position)
    except Refused:
        return [unreadable_because(row.data_text) or "data cannot be read"]
    except (TypeError, ValueError, RecursionError) as error:
        return [f"data cannot be hashed: {error}"]
    problems = store.columns_disagree(row)
    # Hashed after the event's own fields, so that these would hide its own, unhashed.
    problems += [
        f"the data holds {key!r}, which only the event's position may hold"
        for key in POSITION_KEYS
        if key in row.data
    ]
    if previous is not None and digest != row.hash:
        broken = CHAIN_BROKEN if row.hash_version == FIRST_HASH_VERSION else POSITION_BROKEN
        problems.insert(0, broken)
    return problems


def logs_verify(competition_ids: list[str] | None = None) -> dict[str, list[tuple[int, str]]]:
    """Return each competition's log problems (empty lists for sound logs), of every
    competition or those named."""
    competitions = Competition.objects.order_by("pk")
    if competition_ids:
        competition_ids = [
            check_id(found, "competition", "competition") for found in competition_ids
        ]
        competitions = competitions.filter(pk__in=competition_ids)
    results = {competition.pk: verify_log(competition) for competition in competitions}
    missing = set(competition_ids or ()) - set(results)
    if missing:
        raise NotFound(f"no competition {excerpt(sorted(missing)[0])}", "competition")
    return results
