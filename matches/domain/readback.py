"""A stored event read back: the one decoder of its data and the one guard of its fold.

Events reach the store checked, so only a row changed behind its back can fail here;
every reader of the log (the store, the model, the projector, the pages, the sockets)
refuses such a row with the same `Refused`, naming the field "data" and the event's
`seq` where it is known, never a traceback.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from orjson import JSONDecodeError, loads

from matches.domain.errors import Refused

UNREADABLE = "the stored event cannot be read: not a JSON object"
UNFOLDABLE = "a stored event cannot be folded"
# What folding a row that reads but was changed behind the store's back raises.
FOLD_ERRORS = (KeyError, TypeError, ValueError, AttributeError, IndexError)


def event_data(text: Any, seq: int) -> dict[str, Any]:
    """Return a stored event's data, or refuse a row that is no JSON object, naming its `seq`."""
    try:
        value = loads(text)
    except JSONDecodeError:  # no JSON, or not even text (SQLite keeps any type in a column)
        value = None
    if type(value) is not dict:
        raise Refused(UNREADABLE, "data", seq)
    return value


def unreadable_because(text: Any) -> str | None:
    """Say why a stored event's data cannot be read (what `verify_chain` reports), or None."""
    try:
        value = loads(text)
    except JSONDecodeError:
        return "data is not JSON"
    return None if type(value) is dict else "data is not a JSON object"


def events_data(rows: Sequence[Sequence[Any]]) -> list[dict[str, Any]]:
    """Return the data of each (seq, data, ...) row, refusing the first one that is no JSON object.

    One pass at full speed while every row reads (a rebuild reads the whole log); the
    rows are decoded again one by one only to name the one that does not.
    """
    try:
        events = [loads(row[1]) for row in rows]
    except JSONDecodeError:
        events = []
    if len(events) == len(rows) and set(map(type, events)) <= {dict}:
        return events
    return [event_data(row[1], row[0]) for row in rows]


def unfoldable(error: Exception, seq: int | None = None) -> Refused:
    """Return the refusal of a fold that failed on a stored row, naming its `seq` if known."""
    return Refused(f"{UNFOLDABLE} ({type(error).__name__})", "data", seq)


@contextmanager
def folding(seq: int | None = None) -> Iterator[None]:
    """Refuse what a fold of stored rows raises as a readable `Refused`, not a traceback.

    A `Refused` (a row that does not read, an event missing) passes as it is.
    """
    try:
        yield
    except Refused:
        raise  # a kind of ValueError, and already the answer
    except FOLD_ERRORS as error:
        raise unfoldable(error, seq) from None
