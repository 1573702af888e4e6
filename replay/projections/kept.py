"""What a writer keeps between the projector's runs in this process, while still true.

Each value is kept with the cursor's stamp (position and time) after the run that wrote
it: while the cursor is still there, no other run has changed what it was made from (a
run rolled back leaves the cursor behind, another database has another cursor: the
writer reads again). Taking a value removes it, so a run that fails keeps nothing. A
stamp is whatever names what a value was made from, compared for equality: a preview
keeps its fold with the competition's log and stages it read.
"""

from __future__ import annotations

import threading
from typing import Generic, TypeVar

Value = TypeVar("Value")


class KeptByCursor(Generic[Value]):
    """Up to `limit` values by key (a competition's id), each with its cursor's stamp."""

    def __init__(self, limit: int) -> None:
        self._limit = limit
        self._lock = threading.Lock()
        self._values: dict[str, tuple[object, Value]] = {}

    def take(self, key: str, stamp: object) -> Value | None:
        """Return the value kept for `key` if it was kept at `stamp`, and forget it."""
        with self._lock:
            kept = self._values.pop(key, None)
        return kept[1] if kept is not None and kept[0] == stamp else None

    def keep(self, key: str, stamp: object, value: Value) -> None:
        with self._lock:
            self._values[key] = (stamp, value)
            while len(self._values) > self._limit:
                self._values.pop(next(iter(self._values)))

    def carry(self, before: object, after: object) -> None:
        """Move every value kept at `before` to `after`: what a run did not touch stays true."""
        with self._lock:
            for key, (stamp, value) in list(self._values.items()):
                if stamp == before:
                    self._values[key] = (after, value)

    def clear(self) -> None:
        with self._lock:
            self._values.clear()
