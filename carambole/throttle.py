"""Failures counted per subject: logins per account and per address, API tokens per address,
players' PINs per player and per address.

The rule: a subject's window opens at its first counted failure and lasts
THROTTLE_WINDOW_SECONDS; within it a limit allows so many attempts. An attempt past the
limit is refused, and not counted, until the window ends: Retry-After says when, and
a client that waits is never held longer. A login that succeeds is not a failure: its
attempt is taken back.

The counts live in the default cache: Redis, shared by every server process, when
REDIS_URL is set; the memory of the one process that serves the embedded setup
otherwise. A Redis that does not answer skips the counting (logged) rather than refuse
every login and every token while it is away.
"""

from __future__ import annotations

import hashlib
import logging
import math
import time
from dataclasses import dataclass, field
from time import sleep
from typing import Any

from django.conf import settings
from django.core.cache import cache
from redis.exceptions import RedisError

log = logging.getLogger(__name__)
# How long a refused attempt waits before its answer. A refusal costs about what the
# login page does; a client that loops on refusals as fast as they come (six of them sent
# forty a second) would take from recording what the throttle saved, but waits here on
# a thread that costs no CPU. One that honours Retry-After never notices.
REFUSAL_PAUSE_S = 1.0


@dataclass(frozen=True)
class Limit:
    """One kind of throttle: its name in the cache, and the setting that holds its count."""

    name: str
    setting: str

    @property
    def attempts(self) -> int:
        return int(getattr(settings, self.setting))


LOGIN_ACCOUNT = Limit("login-account", "LOGIN_FAILURES_PER_ACCOUNT")
LOGIN_ADDRESS = Limit("login-address", "LOGIN_FAILURES_PER_ADDRESS")
TOKEN_ADDRESS = Limit("token-address", "TOKEN_FAILURES_PER_ADDRESS")
PIN_PLAYER = Limit("pin-player", "PIN_FAILURES_PER_PLAYER")
PIN_ADDRESS = Limit("pin-address", "PIN_FAILURES_PER_ADDRESS")


class TooManyAttempts(Exception):
    """An attempt past a limit: refused, before anything is checked, for `retry_after` s."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(f"too many attempts: try again in {retry_after} s")
        self.retry_after = retry_after


@dataclass
class Counted:
    """The attempts one request counted, to take back if it succeeds."""

    keys: list[str] = field(default_factory=list)

    def take_back(self) -> None:
        """Uncount these attempts: they succeeded."""
        for key in self.keys:
            try:
                cache.decr(key)
            except ValueError:
                pass  # its window ended meanwhile
            except RedisError as error:
                log.warning("throttle: Redis did not answer (%s); a success stays counted", error)
        self.keys.clear()


def address_of(request: Any) -> str:
    """Return the address a request came from, as the ASGI or WSGI server gives it.

    Behind the documented load balancer uvicorn gives the client's own address, from
    X-Forwarded-For, for a proxy in its --forwarded-allow-ips (127.0.0.1 by default).
    """
    return str(request.META.get("REMOTE_ADDR") or "unknown")


def attempt(*subjects: tuple[Limit, str]) -> Counted:
    """Count one attempt of each subject, or raise TooManyAttempts (counting none) past a limit."""
    counted = Counted()
    refused = None
    now = time.time()
    window = settings.THROTTLE_WINDOW_SECONDS
    try:
        for limit, subject in subjects:
            opened, key = _window(limit, subject, now, window)
            counted.keys.append(key)
            if _count(key, window) > limit.attempts:
                counted.take_back()
                refused = TooManyAttempts(max(math.ceil(opened + window - now), 1))
                break
    except RedisError as error:
        log.warning("throttle: Redis did not answer (%s); this attempt is not counted", error)
        return Counted()
    if refused is None:
        return counted
    sleep(REFUSAL_PAUSE_S)
    raise refused


def _window(limit: Limit, subject: str, now: float, window: int) -> tuple[float, str]:
    """Return when the subject's window opened (now, if none is open) and its count's key.

    The count's key names its window, so a count never outlives it: once the window
    ends, the next failure opens a new one with a new key.
    """
    digest = hashlib.sha256(subject.encode("utf-8", "backslashreplace")).hexdigest()[:32]
    opened_key = f"throttle:{limit.name}:{digest}"
    opened = cache.get(opened_key)
    if opened is not None and now >= float(opened) + window:  # ended by this clock already
        cache.delete(opened_key)
        opened = None
    if opened is None:
        cache.add(opened_key, now, window)
        opened = cache.get(opened_key, now)
    return float(opened), f"{opened_key}:{opened!r}"


def _count(key: str, window: int) -> int:
    """Add one to a count that lives a window past its own (time for a slow request)."""
    if cache.add(key, 1, 2 * window):
        return 1
    try:
        return int(cache.incr(key))
    except ValueError:  # it expired between the two
        cache.add(key, 1, 2 * window)
        return 1
