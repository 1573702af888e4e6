"""The matches this process recorded into lately, each kept folded to its last event.

Recording an event checks it against the match as it stands; folding the whole log
again for each one costs a 2,000-event match a hundred times a 20-event one's. So
each server process keeps the state after the last event it appended to a match,
with that event's `seq` and hash. The next append uses it only if the log's head is
still that event (no other process appended since); otherwise it folds the log.

A state is taken out while an append folds the new event into it (no two appends
share one), and kept again only once that transaction has committed: a rolled-back
append leaves nothing behind. A kept state is always the fold of the log up to its
`seq`, so an answer from it is an answer from a fold from scratch.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import NamedTuple

from matches.header import Header
from matches.state import MatchState

KEPT = 64  # matches kept folded per process: a hall's tables, and then some


class Kept(NamedTuple):
    state: MatchState
    head: str  # the hash of event `state.seq` (the header's hash before any event)


_kept: OrderedDict[str, Kept] = OrderedDict()
_lock = threading.Lock()


def take(match_id: str, header: Header, seq: int, head: str) -> MatchState | None:
    """Take the kept state of a match whose log ends at `seq` with hash `head`, if kept."""
    with _lock:
        kept = _kept.pop(match_id, None)
    if kept is None or kept.state.seq != seq or kept.head != head or kept.state.header != header:
        return None
    return kept.state


def peek(match_id: str, header: Header, seq: int, head: str) -> MatchState | None:
    """Return the kept state of a match whose log ends at `seq` with hash `head`, leaving it
    kept (a state is never changed: a preview folds its event into a new one)."""
    with _lock:
        kept = _kept.get(match_id)
    if kept is None or kept.state.seq != seq or kept.head != head or kept.state.header != header:
        return None
    return kept.state


def keep(match_id: str, state: MatchState, head: str) -> None:
    """Keep a match's state after its event `state.seq`, of hash `head` (once committed)."""
    with _lock:
        known = _kept.get(match_id)
        if known is not None and known.state.seq > state.seq:
            return  # a later append's state is kept already
        _kept[match_id] = Kept(state, head)
        _kept.move_to_end(match_id)
        while len(_kept) > KEPT:
            _kept.popitem(last=False)


def forget() -> None:
    """Forget every kept state (tests; a store emptied under the process)."""
    with _lock:
        _kept.clear()
