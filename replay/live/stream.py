"""A match's events from the store, each with the scoreboard of the live view at its `seq`.

The live state after event n is the running state of a fold that has seen events 1 to
n and nothing later, so a stream folds each event into it as it reads it (`evolve`),
never a match from its start per event. Streams touch the database: they run in a
thread of the hub's, never on the event loop.
"""

from __future__ import annotations

from typing import Any

import orjson

from matches import store
from matches.errors import NotFound, Refused, excerpt
from matches.fold import evolve, state_after
from matches.header import Header
from matches.models import Event, Match
from matches.state import MatchState
from replay.live.messages import event_message

ENVELOPE_COLUMNS = ("seq", "data_text", "at", "recorded_by", "hash")


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
        match = Match.objects.filter(pk=match_id).first()
        if match is None:
            raise NotFound(f"no match {excerpt(match_id)}", "id")
        rows = Event.objects.filter(match=match).order_by("seq")
        if after is not None:
            rows = rows.filter(seq__lte=after)
        texts = list(rows.values_list("seq", "data_text"))
        store.check_complete([seq for seq, _ in texts])  # as a corrupt row: never misnumbered
        if after is not None and len(texts) < after:
            raise Refused(f"must be between 0 and {len(texts)}", "after")
        facts = [_fact(seq, text) for seq, text in texts]
        return cls(match_id, _folded(match.header(), facts))

    def read(self, limit: int) -> list[tuple[int, str]]:
        """Return (seq, message) for up to `limit` events after the stream's, advancing it."""
        rows = (
            Event.objects.filter(match_id=self.match_id, seq__gt=self.seq)
            .order_by("seq")
            .values_list(*ENVELOPE_COLUMNS)[:limit]
        )
        messages = []
        for seq, text, at, by, digest in rows:
            if seq != self.seq + 1:
                # Appends commit in seq order, so a gap is a row deleted behind the store's
                # back: refused as a corrupt row is, never streamed past.
                raise Refused("the stored event is missing", None, self.seq + 1)
            fact = _fact(seq, text)
            try:
                self.state = evolve(self.state, fact)
            except (KeyError, TypeError, ValueError, AttributeError, IndexError):
                raise _unfoldable(seq) from None
            record = {"seq": seq, **fact, "at": at, "by": by, "hash": digest}
            messages.append((seq, event_message(record, self.state)))
        return messages


def _fact(seq: int, text: str) -> dict[str, Any]:
    """Return a stored event as the fold reads it, or refuse a row that is no JSON object."""
    try:
        fact = orjson.loads(text)
    except orjson.JSONDecodeError:
        fact = None
    if type(fact) is not dict:
        raise Refused("the stored event cannot be read: not a JSON object", "data", seq)
    return fact


def _folded(header: Header, facts: list[dict[str, Any]]) -> MatchState:
    """Return the live view after these events."""
    try:
        return state_after(header, facts)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):
        # Events reach the store checked: only a row changed behind its back gets here.
        raise _unfoldable(None) from None


def _unfoldable(seq: int | None) -> Refused:
    return Refused("a stored event cannot be folded", "data", seq)
