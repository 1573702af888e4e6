"""A match's events from the store, each with the scoreboard of the live view at its `seq`.

The live state after event n is the running state of a fold that has seen events 1 to
n and nothing later, so a stream folds each event into it as it reads it (`evolve`),
never a match from its start per event. Streams touch the database: they run in a
thread of the hub's, never on the event loop.
"""

from __future__ import annotations

from typing import Any

from matches import store
from matches.domain.errors import Refused
from matches.domain.fold import evolve, state_after
from matches.domain.header import Header
from matches.domain.readback import folding
from matches.domain.state import MatchState
from matches.selectors import match_get
from replay.live.messages import event_message


class Stream:
    """The events of one match after a `seq`, read from the store in order, as messages."""

    def __init__(self, match_id: str, state: MatchState) -> None:
        self.match_id = match_id
        self.state = state  # the live view at `seq`

    @property
    def seq(self) -> int:
        return self.state.seq

    @classmethod
    def open(cls, match_id: str, after: int | None = None) -> Stream:
        """Return a stream placed after event `after` (default: the last), or refuse.

        An unknown match is NotFound; an `after` past the last event is refused.
        """
        match = match_get(match_id)
        # A row missing is refused as a corrupt one is: never misnumbered.
        facts = store.load_facts(match, upto=after)
        if after is not None and len(facts) < after:
            raise Refused(f"must be between 0 and {len(facts)}", "after")
        return cls(match_id, _folded(match.header(), facts))

    def read(self, limit: int) -> list[tuple[int, str]]:
        """Return (seq, message) for up to `limit` events after the stream's, advancing it."""
        # Appends commit in seq order, so a gap is a row deleted behind the store's back:
        # refused as a corrupt row is, never streamed past.
        events = store.load_events(self.match_id, self.seq, limit)
        messages = []
        for event in events:
            with folding(event.seq):
                self.state = evolve(self.state, event.data)
            messages.append((event.seq, event_message(event.as_record(), self.state)))
        return messages


def _folded(header: Header, facts: list[dict[str, Any]]) -> MatchState:
    """Return the live view after these events."""
    with folding():
        return state_after(header, facts)
