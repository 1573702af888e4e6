"""State on demand: any match, as of any `seq`, amended or as seen live, from the stored events.

Snapshots make it fast and never change an answer: the fold of a match's whole log
is kept per process and advanced by the events appended since; a correction
(amendment, retraction) re-folds from the start, since it changes earlier shots.
States before the head are cached by what determines them: a live state by the
hash of its last event, an amended one by the hash of the head of the log (the
hash chain seals everything before it, so a restored log never meets a stale state).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import orjson

from matches import store
from matches.chain import header_hash
from matches.errors import Refused
from matches.fold import VIEWS, evolve, fold, state_after
from matches.header import Header
from matches.models import Match
from matches.readback import folding
from matches.render import render
from matches.selectors import match_get, match_header
from matches.state import CORRECTIONS, MatchState

MAX_SNAPSHOTS = 256
MAX_STATES = 1024


@dataclass
class Snapshot:
    header: Header
    fold: MatchState
    last_hash: str = ""  # the hash of the last event folded: proves the log still starts so
    state: bytes = b""  # the state after the last event folded, serialised once


_lock = threading.Lock()
_snapshots: OrderedDict[str, Snapshot] = OrderedDict()
_states: OrderedDict[tuple[Any, ...], bytes] = OrderedDict()


def match_state(
    match: Match | str, upto: int | None = None, view: str = "amended", cached: bool = True
) -> dict[str, Any]:
    """Return the match state after event `upto` (default: all), amended or live.

    A stored event that cannot be read or folded (a corrupt row) is refused naming it.
    """
    with folding():
        return _match_state(match, upto, view, cached)


def _match_state(match: Match | str, upto: int | None, view: str, cached: bool) -> dict[str, Any]:
    if view not in VIEWS:
        raise Refused(f"must be one of {', '.join(VIEWS)}", "view")
    if not cached:
        # The header alone: a model of the match would cost as much as reading its log.
        header = match.header() if isinstance(match, Match) else match_header(match)
        return fold(header, store.load_facts(match), upto=upto, view=view)
    if not isinstance(match, Match):
        match = match_get(match)
    head_seq, head_hash = store.head(match)
    if upto is not None and not 0 <= upto <= head_seq:
        raise Refused(f"must be between 0 and {head_seq}", "upto")
    if upto is None or upto == head_seq:
        return _decoded(_head_state(match, head_seq))
    # Keyed by the hash that seals every event the state depends on, not by seq
    # alone: a restored database may hold another log under the same seqs.
    seal = _hash_at(match, upto) if view == "live" else head_hash
    key = (match.pk, upto, view, seal)
    with _lock:
        found = _states.get(key)
        if found is not None:
            _states.move_to_end(key)
            return _decoded(found)
    # Only the events the key names: one appended since would not be sealed by it.
    events = store.load_facts(match)[:head_seq]
    state = orjson.dumps(fold(match.header(), events, upto=upto, view=view))
    with _lock:
        _states[key] = state
        while len(_states) > MAX_STATES:
            _states.popitem(last=False)
    return _decoded(state)


def _decoded(state: bytes) -> dict[str, Any]:
    """Return a state kept as JSON (a fold's, so an object)."""
    decoded: dict[str, Any] = orjson.loads(state)
    return decoded


def _hash_at(match: Match, seq: int) -> str:
    """Return the hash of event `seq`, which seals events 1 to `seq` and the header."""
    if seq == 0:
        return header_hash(match.header())
    return store.hash_at(match, seq) or ""


def _head_state(match: Match, head_seq: int) -> bytes:
    """Return the state of the whole log, advancing this process's snapshot of the match."""
    with _lock:
        snapshot = _snapshots.get(match.pk)
        header = match.header()
        if snapshot is None or snapshot.header != header or snapshot.fold.seq > head_seq:
            snapshot = Snapshot(header, MatchState(header))
        base = max(snapshot.fold.seq - 1, 0)
        # Up to `head_seq` only: an event committed since it was read waits for its own
        # head, so that a state is never sent under an older seq than its own.
        rows = store.load_chained(match, after=base)[: head_seq - base]
        if snapshot.fold.seq and (not rows or rows[0][1] != snapshot.last_hash):
            # Not the log this snapshot was folded from (a restored database): start over.
            snapshot = Snapshot(header, MatchState(header))
            rows = store.load_chained(match)[:head_seq]
        elif snapshot.fold.seq:
            rows = rows[1:]
        newer = [event for event, _ in rows]
        if any(event["type"] in CORRECTIONS for event in newer):
            # One fold with every correction known beforehand: applied one by one, each
            # would fold the match again from its start.
            facts = store.load_facts(match)[:head_seq]
            snapshot = Snapshot(header, state_after(header, facts))
        else:
            for event in newer:
                snapshot.fold = evolve(snapshot.fold, event)
        if rows or not snapshot.state:
            snapshot.last_hash = rows[-1][1] if rows else snapshot.last_hash
            # Serialised under the lock, once per new head: the fold's lists are its own.
            snapshot.state = orjson.dumps(render(snapshot.fold, detached=False))
        _snapshots[match.pk] = snapshot
        _snapshots.move_to_end(match.pk)
        while len(_snapshots) > MAX_SNAPSHOTS:
            _snapshots.popitem(last=False)
        return snapshot.state


def forget() -> None:
    """Drop every snapshot and cached state (tests, and after a bulk import)."""
    with _lock:
        _snapshots.clear()
        _states.clear()
