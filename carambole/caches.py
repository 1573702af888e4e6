"""The process-local caches: each one named, bounded, counting its hits and misses.

A process-local cache keeps what this process worked out from the store, so that asking
again skips the work. Every one is a `Cache` made here, registered by its name when it is
made, so that one call empties them all (`clear_every_cache`: every test starts with it)
and the log reports them all (logger `carambole.caches`, at most every ten minutes and as
the process ends: each cache's size, bound, hits and misses, for each one asked).

A cache holds its lock only while it touches its own entries, never while its caller
reads the database or works out a value: two callers that miss at once both work it out,
and the last one's value stays. Once full (`maxsize`), it leaves out the least recently
used entry. What it holds must be true whenever it is read: its caller keys it by what
the value depends on (a match's last `seq`, the log's position), or clears it where that
changes.
"""

from __future__ import annotations

import atexit
import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Generic, TypeVar

Key = TypeVar("Key", bound=Hashable)
Value = TypeVar("Value")

REPORT_SECONDS = 600

log = logging.getLogger(__name__)
_every_cache: dict[str, Cache[object, object]] = {}
_reported_at = time.monotonic()


@dataclass(frozen=True)
class CacheReport:
    """What a cache holds and how it has served since it was made (or last cleared)."""

    name: str
    size: int
    maxsize: int
    hits: int
    misses: int


class Cache(Generic[Key, Value]):
    """Up to `maxsize` values by key, the least recently used left out first."""

    def __init__(self, name: str, maxsize: int) -> None:
        if name in _every_cache:
            raise ValueError(f"a cache named {name!r} is made already")
        if maxsize < 1:
            raise ValueError("a cache holds at least one entry")
        self.name = name
        self.maxsize = maxsize
        self._lock = threading.Lock()
        self._entries: OrderedDict[Key, Value] = OrderedDict()
        self._hits = 0
        self._misses = 0
        _every_cache[name] = self  # type: ignore[assignment]

    def get(self, key: Key) -> Value | None:
        """Return the value cached for `key`, or None (a miss)."""
        _report_when_due()
        with self._lock:
            if key not in self._entries:
                self._misses += 1
                return None
            self._hits += 1
            self._entries.move_to_end(key)
            return self._entries[key]

    def set(self, key: Key, value: Value) -> None:
        with self._lock:
            self._entries[key] = value
            self._entries.move_to_end(key)
            while len(self._entries) > self.maxsize:
                self._entries.popitem(last=False)

    def pop(self, key: Key) -> Value | None:
        """Remove and return the value cached for `key` (a hit), or None (a miss)."""
        with self._lock:
            if key not in self._entries:
                self._misses += 1
                return None
            self._hits += 1
            return self._entries.pop(key)

    def delete(self, key: Key) -> None:
        with self._lock:
            self._entries.pop(key, None)

    def clear(self) -> None:
        """Empty the cache and start its counts again."""
        with self._lock:
            self._entries.clear()
            self._hits = self._misses = 0

    def report(self) -> CacheReport:
        with self._lock:
            return CacheReport(
                self.name, len(self._entries), self.maxsize, self._hits, self._misses
            )


def every_cache() -> list[Cache[object, object]]:
    """Every cache made in this process, by name."""
    return [_every_cache[name] for name in sorted(_every_cache)]


def clear_every_cache() -> None:
    for cache in every_cache():
        cache.clear()


def log_reports() -> None:
    """Log one line per cache asked since it was made or cleared: its name, size and bound,
    hits and misses (a command that asked no cache ends saying nothing)."""
    global _reported_at
    _reported_at = time.monotonic()
    for cache in every_cache():
        report = cache.report()
        if not (report.size or report.hits or report.misses):
            continue
        log.info(
            "cache %s: %d of %d entries, %d hits, %d misses",
            report.name,
            report.size,
            report.maxsize,
            report.hits,
            report.misses,
        )


def _report_when_due() -> None:
    if time.monotonic() - _reported_at >= REPORT_SECONDS:
        log_reports()


atexit.register(log_reports)
