"""Counts of attempts in windows, each change one atomic step, so a burst is counted exactly.

A count's window opens at its first attempt and lasts its own number of seconds; within
it, an attempt that finds its count at the most is refused and not counted. One call
counts an attempt against several counts at once (an account and an address) or, when
one of them is full, against none of them.

Where the counts live follows the default cache: with Redis (`RedisCache`), one Lua
script per call, which Redis runs whole before any other command, so a hundred servers'
simultaneous attempts are counted one by one; in the one process of the embedded setup,
the cache's memory under a lock of this module. A Redis that does not answer is `Away`:
the caller decides what that means (carambole.throttle).
"""

from __future__ import annotations

import functools
import math
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import redis
from django.conf import settings
from django.core.cache import cache
from redis.exceptions import RedisError

REDIS_CACHE = "django.core.cache.backends.redis.RedisCache"
PREFIX = "carambole:counts:"


@dataclass(frozen=True)
class Tally:
    """One count an attempt goes to: its key, the most attempts it allows, its window in s."""

    key: str
    most: int
    window: int


@dataclass(frozen=True)
class Counted:
    """An attempt counted in a window: its count's key and the window's id (when it opened)."""

    key: str
    window: str


class Full(Exception):
    """A count at its most: the attempt is refused, counted nowhere, for `retry_after` s."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(f"full for {retry_after} s")
        self.retry_after = retry_after


class Away(Exception):
    """The store of the counts (Redis) did not answer: nothing was counted."""


def add(tallies: Sequence[Tally], now: float) -> list[Counted]:
    """Count one attempt in each tally, or raise Full (counting none) if one is at its most."""
    if _redis_location() is None:
        return _memory_add(tallies, now)
    try:
        answer = _scripts().add(
            keys=[PREFIX + tally.key for tally in tallies],
            args=[_window_id(now), *(n for t in tallies for n in (t.most, t.window * 1000))],
        )
    except RedisError as error:
        raise Away(str(error)) from error
    if int(answer[0]) == 0:
        raise Full(max(math.ceil(int(answer[1]) / 1000), 1))
    return [
        Counted(tally.key, _text(opened)) for tally, opened in zip(tallies, answer[1:], strict=True)
    ]


def take_back(counted: Sequence[Counted]) -> None:
    """Uncount these attempts, each from the window it was counted in if that is still open."""
    if not counted:
        return
    if _redis_location() is None:
        _memory_take_back(counted)
        return
    try:
        _scripts().take_back(
            keys=[PREFIX + each.key for each in counted], args=[each.window for each in counted]
        )
    except RedisError as error:
        raise Away(str(error)) from error


def _window_id(now: float) -> str:
    return str(int(now * 1000))


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


# -- Redis: one script per call -------------------------------------------------------------

# KEYS: the counts. ARGV[1]: the id of a window opened now; then each count's most and
# window (ms). A count is a hash: n, its attempts; w, the id of its window.
ADD = """
for i, key in ipairs(KEYS) do
  local n = tonumber(redis.call('HGET', key, 'n') or '0')
  if n >= tonumber(ARGV[2 * i]) then
    return {0, redis.call('PTTL', key)}
  end
end
local opened = {1}
for i, key in ipairs(KEYS) do
  if redis.call('EXISTS', key) == 1 then
    redis.call('HINCRBY', key, 'n', 1)
  else
    redis.call('HSET', key, 'n', 1, 'w', ARGV[1])
    redis.call('PEXPIRE', key, ARGV[2 * i + 1])
  end
  opened[i + 1] = redis.call('HGET', key, 'w')
end
return opened
"""

# KEYS: the counts; ARGV: the id of the window each attempt was counted in. A count whose
# window ended meanwhile is left alone: the attempt went with its window.
TAKE_BACK = """
for i, key in ipairs(KEYS) do
  if redis.call('HGET', key, 'w') == ARGV[i] then
    redis.call('HINCRBY', key, 'n', -1)
  end
end
return 0
"""


@dataclass(frozen=True)
class _Scripts:
    add: Any
    take_back: Any


def _redis_location() -> str | None:
    """Return the default cache's Redis URL, None when the cache is this process's memory."""
    config = settings.CACHES["default"]
    return str(config["LOCATION"]) if config["BACKEND"] == REDIS_CACHE else None


def _scripts() -> _Scripts:
    config = settings.CACHES["default"]
    options = config.get("OPTIONS", {})
    return _scripts_of(
        str(config["LOCATION"]),
        float(options.get("socket_connect_timeout", 1)),
        float(options.get("socket_timeout", 1)),
    )


@functools.cache
def _scripts_of(url: str, connect_timeout: float, timeout: float) -> _Scripts:
    """Return the two scripts on a client of this Redis (its pool shared by every thread)."""
    client = redis.Redis.from_url(
        url, socket_connect_timeout=connect_timeout, socket_timeout=timeout
    )
    return _Scripts(client.register_script(ADD), client.register_script(TAKE_BACK))


# -- Memory: the cache's, under a lock ------------------------------------------------------

_lock = threading.Lock()


def _memory_add(tallies: Sequence[Tally], now: float) -> list[Counted]:
    with _lock:
        found = [_live(tally.key, now) for tally in tallies]
        for entry, tally in zip(found, tallies, strict=True):
            if entry is not None and entry[0] >= tally.most:
                raise Full(max(math.ceil(entry[2] - now), 1))
        counted = []
        for entry, tally in zip(found, tallies, strict=True):
            if entry is None:  # a window opens with this attempt
                entry = (0, _window_id(now), now + tally.window, tally.window)
            n, window, ends, length = entry
            _keep(tally.key, (n + 1, window, ends, length))
            counted.append(Counted(tally.key, window))
        return counted


def _memory_take_back(counted: Sequence[Counted]) -> None:
    with _lock:
        for each in counted:
            entry = cache.get(PREFIX + each.key)
            if entry is not None and entry[1] == each.window:
                _keep(each.key, (entry[0] - 1, *entry[1:]))


def _live(key: str, now: float) -> tuple[int, str, float, int] | None:
    """Return a count (attempts, window id, when it ends, its length) open at `now`."""
    entry = cache.get(PREFIX + key)
    return entry if entry is not None and now < entry[2] else None


def _keep(key: str, entry: tuple[int, str, float, int]) -> None:
    # The cache forgets a count a window's length after its last change, past its end.
    cache.set(PREFIX + key, entry, entry[3] + 1)
