"""A cache of the matches this process recorded into lately, each folded to its last event.

Recording an event checks it against the match as it stands; folding the whole log
again for each one costs a 2,000-event match a hundred times a 20-event one's, and
recording is to cost the same however long the match (`make bench`, the recording on
PostgreSQL). So each server process caches the state after the last event it appended
to a match, with that event's hash. The next append uses it only if the log's head is
still that event (no other process appended since); otherwise it folds the log.

An append pops the state out of the cache while it folds the new event into it (no two
appends share one), and sets it again only once its transaction has committed: a
rolled-back append leaves nothing behind. A cached state is always the fold of the log
up to its `seq`, so an answer from it is an answer from a fold from scratch.
"""

from __future__ import annotations

from typing import NamedTuple

from carambole.caches import Cache
from matches.domain.header import Header
from matches.domain.state import MatchState

RUNNING_STATES = 64  # matches cached per process: a hall's tables, and then some


class Running(NamedTuple):
    state: MatchState
    head: str  # the hash of event `state.seq` (the header's hash before any event)


STATES: Cache[str, Running] = Cache("running match states", RUNNING_STATES)


def state_pop(match_id: str, header: Header, seq: int, head: str) -> MatchState | None:
    """Remove a match's cached state; return it if its log still ends at `seq` with hash
    `head`."""
    return _current(STATES.pop(match_id), header, seq, head)


def state_get(match_id: str, header: Header, seq: int, head: str) -> MatchState | None:
    """Return a match's cached state, left in the cache, if its log still ends at `seq` with
    hash `head` (a state is never changed: a preview folds its event into a new one)."""
    return _current(STATES.get(match_id), header, seq, head)


def state_set(match_id: str, state: MatchState, head: str) -> None:
    """Cache a match's state after its event `state.seq`, of hash `head` (once committed)."""
    STATES.set(match_id, Running(state, head))


def _current(found: Running | None, header: Header, seq: int, head: str) -> MatchState | None:
    if found is None or found.state.seq != seq or found.head != head:
        return None
    return found.state if found.state.header == header else None
