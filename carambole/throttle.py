"""Attempts counted per subject: failed logins per account and per address, failed API
tokens per address, players' PINs per player and per address, and the previews and
costly reads that anyone may ask, per address.

The rule: a subject's window opens at its first counted attempt and lasts its limit's
window (THROTTLE_WINDOW_SECONDS for failures, a minute for rates); within it a limit
allows so many attempts. An attempt past the limit is refused, and not counted, until
the window ends: Retry-After says when, and a client that waits is never held longer.
A login or a PIN that succeeds is not a failure: its attempt is taken back.

The counts are atomic (carambole.counts): in Redis, shared by every server process,
when REDIS_URL is set; in the memory of the one process that serves the embedded setup
otherwise. While Redis does not answer, `attempt` refuses (CountingAway: 503 with
Retry-After) what must not go uncounted, a PIN or a preview; `attempt_or_pass` lets a
login or a token through uncounted (logged): a password costs a hash, on threads of
their own, so guesses stay slow; a PIN costs nothing to check.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from time import sleep
from typing import Any

from django.conf import settings

from carambole import counts

log = logging.getLogger(__name__)
# How long a refused attempt waits before its answer. A refusal costs about what the
# login page does; a client that loops on refusals as fast as they come (six of them sent
# forty a second) would take from recording what the throttle saved, but waits here on
# a thread that costs no CPU. One that honours Retry-After never notices.
REFUSAL_PAUSE_S = 1.0
# The Retry-After of an attempt refused while Redis does not answer: a restart's time.
AWAY_RETRY_AFTER_S = 5
MINUTE = 60


@dataclass(frozen=True)
class Limit:
    """One kind of throttle: its name in the counts, the setting of its most attempts, and
    its window in seconds (None: THROTTLE_WINDOW_SECONDS)."""

    name: str
    setting: str
    seconds: int | None = None

    @property
    def attempts(self) -> int:
        return int(getattr(settings, self.setting))

    @property
    def window(self) -> int:
        return self.seconds or int(settings.THROTTLE_WINDOW_SECONDS)


LOGIN_ACCOUNT = Limit("login-account", "LOGIN_FAILURES_PER_ACCOUNT")
LOGIN_ADDRESS = Limit("login-address", "LOGIN_FAILURES_PER_ADDRESS")
TOKEN_ADDRESS = Limit("token-address", "TOKEN_FAILURES_PER_ADDRESS")
PIN_PLAYER = Limit("pin-player", "PIN_FAILURES_PER_PLAYER")
PIN_ADDRESS = Limit("pin-address", "PIN_FAILURES_PER_ADDRESS")
PREVIEW_ADDRESS = Limit("preview-address", "PREVIEWS_PER_MINUTE", MINUTE)
COSTLY_READ_ADDRESS = Limit("costly-read-address", "COSTLY_READS_PER_MINUTE", MINUTE)


class TooManyAttempts(Exception):
    """An attempt past a limit: refused, before anything is checked, for `retry_after` s."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(f"too many attempts: try again in {retry_after} s")
        self.retry_after = retry_after


class CountingAway(Exception):
    """Redis did not answer: an attempt that must be counted is refused for `retry_after` s."""

    retry_after = AWAY_RETRY_AFTER_S

    def __init__(self) -> None:
        super().__init__(f"attempts cannot be counted now: try again in {self.retry_after} s")


@dataclass
class Counted:
    """The attempts one request counted, to take back if it succeeds."""

    windows: list[counts.Counted] = field(default_factory=list)

    def take_back(self) -> None:
        """Uncount these attempts: they succeeded."""
        try:
            counts.take_back(self.windows)
        except counts.Away as error:
            log.warning("throttle: Redis did not answer (%s); a success stays counted", error)
        self.windows.clear()


def address_of(request: Any) -> str:
    """Return the address a request came from, as the ASGI or WSGI server gives it.

    Behind the documented load balancer uvicorn gives the client's own address, from
    X-Forwarded-For, for a proxy in its --forwarded-allow-ips (127.0.0.1 by default).
    """
    return str(request.META.get("REMOTE_ADDR") or "unknown")


def attempt(*subjects: tuple[Limit, str]) -> Counted:
    """Count one attempt of each subject, or raise TooManyAttempts (counting none) past a
    limit, a second after it came, or CountingAway (counting none) while Redis is away."""
    try:
        return _counted(subjects)
    except TooManyAttempts:
        sleep(REFUSAL_PAUSE_S)
        raise


def rate(limit: Limit, subject: str) -> None:
    """Count one request of a subject, or raise TooManyAttempts past its rate, at once, or
    CountingAway while Redis is away: a request that is not a failure, never taken back."""
    _counted([(limit, subject)])


def _counted(subjects: Sequence[tuple[Limit, str]]) -> Counted:
    tallies = [
        counts.Tally(_key(limit, subject), limit.attempts, limit.window)
        for limit, subject in subjects
    ]
    try:
        return Counted(counts.add(tallies, time.time()))
    except counts.Full as full:
        raise TooManyAttempts(full.retry_after) from None
    except counts.Away as error:
        log.warning("throttle: Redis did not answer (%s); nothing is counted", error)
        raise CountingAway from None


def attempt_or_pass(*subjects: tuple[Limit, str]) -> Counted:
    """Count one attempt of each subject as `attempt` does, but let it through uncounted
    (logged) while Redis does not answer: a login's or a token's rule."""
    try:
        return attempt(*subjects)
    except CountingAway:
        log.warning("throttle: this attempt is let through uncounted")
        return Counted()


def _key(limit: Limit, subject: str) -> str:
    """Return a subject's count's key: a digest, so any text (a name, a cookie) is a short key."""
    digest = hashlib.sha256(subject.encode("utf-8", "backslashreplace")).hexdigest()[:32]
    return f"{limit.name}:{digest}"
