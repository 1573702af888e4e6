"""The hash chains: a match's, and a competition's log's; canonical JSON and each event's hash.

Pure Python. Each hash is the SHA-256 of the previous hash followed by the event's
canonical JSON; event 1 chains to the seal of the header (the notation), or of the
competition for its own log. From hash version 2 an event of a competition's log also
covers where it stands in the one global order (`Position`).
"""

from __future__ import annotations

import hashlib
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from matches.domain.header import Header
from matches.domain.notation import canonical_json

# How an event of a competition's log is hashed. 1: as a match's event (its `seq`, fields,
# `at` and `by`); every match's event, and a log's events recorded before version 2.
# 2: also its `Position`. A log's versions never go down: once 2, every later event is 2.
FIRST_HASH_VERSION = 1
IDS_HASHED = 2
HASH_VERSIONS = (FIRST_HASH_VERSION, IDS_HASHED)
# What a version 2 hash adds to the event: no event of a log may hold these keys itself.
POSITION_KEYS = ("id", "match_event_ids")


def header_hash(header: Header) -> str:
    """Return the "previous hash" of event 1: the seal of balls, players and ruleset."""
    return hashlib.sha256(canonical_json(header.sealed())).hexdigest()


def event_hash(previous: str, event: Mapping[str, Any]) -> str:
    """Return an event's hash, chained to the previous one."""
    body = {k: v for k, v in event.items() if k != "hash"} if "hash" in event else event
    return hashlib.sha256(previous.encode() + canonical_json(body)).hexdigest()


@dataclass(frozen=True)
class Position:
    """Where an event of a competition's log stands in the global order, as its hash sees it.

    `id` is its global id and `match_event_ids` the global ids of the events of the
    competition's matches recorded since the log's previous event (before it, for event
    1), match by match in their order. Both are in the log's own numbering: the stored
    ids less the competition's `id_offset`, which an import that moves the ids (past a
    log that had passed them, or back below LARGEST_ID) adds to every id, so that the
    hashes stay as they were recorded.
    """

    id: int
    match_event_ids: Mapping[str, Sequence[int]]

    def hashed(self) -> dict[str, Any]:
        ids = {match_id: list(ids) for match_id, ids in self.match_event_ids.items()}
        return {"id": self.id, "match_event_ids": ids}


def log_event_hash(
    previous: str, event: Mapping[str, Any], version: int, position: Position | None
) -> str:
    """Return the hash of an event of a competition's log (with its seq, at and by), as
    its hash version computes it; version 2 needs its position."""
    if version == FIRST_HASH_VERSION:
        return event_hash(previous, event)
    if version != IDS_HASHED or position is None:
        raise ValueError(f"no hash version {version!r} with position {position!r}")
    return event_hash(previous, {**event, **position.hashed()})


def positions_of(
    log_ids: Sequence[int], match_events: Iterable[tuple[str, int]], offset: int = 0
) -> list[Position]:
    """Return the position of each event of a competition's log, given their stored global
    ids in `seq` order and (match, stored global id) of every event of its matches.

    `offset` (the competition's `id_offset`) is taken off every id.
    """
    ordered = sorted(match_events, key=lambda pair: pair[1])
    ids = [event_id for _, event_id in ordered]
    positions = []
    previous = 0
    for log_id in log_ids:
        since: dict[str, list[int]] = {}
        for match_id, event_id in ordered[bisect_right(ids, previous) : bisect_left(ids, log_id)]:
            since.setdefault(match_id, []).append(event_id - offset)
        positions.append(Position(log_id - offset, since))
        previous = log_id
    return positions


def ids_digest(ids: Iterable[int]) -> str:
    """Return the SHA-256 of the canonical JSON of a list of global ids (`[12,13,57]`),
    without holding the list."""
    digest = hashlib.sha256(b"[")
    for index, event_id in enumerate(ids):
        digest.update(b"," + str(event_id).encode() if index else str(event_id).encode())
    digest.update(b"]")
    return digest.hexdigest()
