"""New live sockets admitted within two bounds: per client address, and per server process.

A client opening sockets in a loop (one address opened 8,000 at up to 970 a second)
held the process's memory and descriptors until no page, no recording and no viewer
could connect. So every socket, whatever its path, is let in only within two bounds,
each a setting that 0 turns off:

- per client address, a burst of `SOCKETS_PER_ADDRESS_BURST` new sockets at once, then
  `SOCKETS_PER_ADDRESS_PER_SECOND` more a second (a token bucket): past it, the socket
  is accepted and closed at once with 4429;
- per server process, `SOCKETS_PER_PROCESS` open at once, and never more than its
  descriptors leave room for (carambole/descriptors.py, whatever the setting): past it,
  accepted and closed at once with 1013, the protocol's "try again later".

A refused socket is accepted before it is closed so that a browser sees the code (a
socket refused at the handshake tells its page nothing). A socket of a login that may
record (staff, or a referee: a login assigned a match) is never refused: a hall's
spectators behind the hall's one address must not lock the referees' tablets out. Its
session is read only for a socket that would be refused, off the thread that records,
and only from a browser that has logged in here (the signed cookie every login leaves,
carambole/browsers.py, checked without a read): a viewer within the bounds costs no
read, and a flood of refused sockets with made-up session cookies costs none either.

The address is the one the server gives, as the throttles count it: behind the
documented load balancer, the client's own, from `X-Forwarded-For`. An address not in
the table has a full bucket, so a bucket that has filled up again is forgotten; and the
table holds at most `MOST_ADDRESSES`, the least recently seen left out first (one that
comes back has a full burst again): its memory is bounded however many addresses come.

Refusals are logged (logger `carambole.admission`), at most a line every
`REPORT_SECONDS` per process: a server turning viewers away says so, and a flood does not
flood the log.
"""

from __future__ import annotations

import logging
import time
from collections import Counter, OrderedDict
from collections.abc import Callable
from typing import Any, NamedTuple

from channels.db import database_sync_to_async
from django.conf import settings
from django.db import DatabaseError
from django.http import HttpRequest
from django.http.cookie import parse_cookie

from carambole import browsers, descriptors
from carambole.bodies import ASGIApp, Receive, Scope, Send
from matches.models import Assignment
from replay.live.heartbeat import cookie_of, login_of
from replay.queries.access import is_staff

# Addresses whose buckets are kept at most: about 200 bytes each.
MOST_ADDRESSES = 50_000
REPORT_SECONDS = 60

log = logging.getLogger(__name__)


class Refusal(NamedTuple):
    """Why a socket is refused: its close code and the reason sent with it."""

    code: int
    reason: str


TOO_MANY_SOCKETS = Refusal(4429, "too many new sockets from this address: try again later")
SERVER_FULL = Refusal(1013, "this server holds all the sockets it can: try again later")


class Buckets:
    """A token bucket per address: `burst` new sockets at once, then `per_second` a second."""

    def __init__(self, most: int = MOST_ADDRESSES) -> None:
        self.most = most
        # Each address's tokens left and when they were counted, the least recent first.
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._buckets)

    def take(self, address: str, now: float, burst: int, per_second: float) -> bool:
        """Take a token from an address's bucket; return False, taking none, if it is empty."""
        self._forget_full(now, burst / per_second)
        tokens, counted_at = self._buckets.pop(address, (float(burst), now))
        tokens = min(float(burst), tokens + (now - counted_at) * per_second)
        taken = tokens >= 1
        self._buckets[address] = (tokens - 1 if taken else tokens, now)
        while len(self._buckets) > self.most:
            self._buckets.popitem(last=False)
        return taken

    def _forget_full(self, now: float, filling_seconds: float) -> None:
        # Counted that long ago, a bucket has filled up, even from empty: as good as absent.
        while self._buckets:
            counted_at = next(iter(self._buckets.values()))[1]
            if now - counted_at < filling_seconds:
                return
            self._buckets.popitem(last=False)


def address_of(scope: Scope) -> str:
    """Return the address a socket came from, as the server gives it (see throttle.address_of)."""
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


def most_open() -> int:
    """Return how many sockets this process may hold open: the setting, within its descriptors."""
    room = descriptors.room()
    return min(settings.SOCKETS_PER_PROCESS, room) if settings.SOCKETS_PER_PROCESS else room


def records(cookie: str) -> bool:
    """Return whether a browser's session is a login that may record: staff, or a referee."""
    login = login_of(cookie)
    if is_staff(login):
        return True
    return bool(login.is_authenticated and Assignment.objects.filter(user=login).exists())


def logged_in_here(cookie: str) -> bool:
    """Return whether a browser has a session, and the signed cookie of a login made here."""
    request = HttpRequest()
    request.COOKIES = parse_cookie(cookie)
    return settings.SESSION_COOKIE_NAME in request.COOKIES and bool(browsers.LOGINS.names(request))


async def may_record(scope: Scope) -> bool:
    """Return whether a socket comes from a login that may record (its session read then)."""
    cookie = cookie_of(scope.get("headers", ()))
    if not logged_in_here(cookie):
        return False  # a viewer: no session to read, or one no login here has made
    try:
        # Not on the thread of the views that record: a flood of refusals must not hold them up.
        return bool(await database_sync_to_async(records, thread_sensitive=False)(cookie))
    except DatabaseError as error:
        # Refused as a viewer is, not failed: its page tries again, the database back or not.
        log.warning("a refused socket's session could not be read: %s", error)
        return False


async def refuse(receive: Receive, send: Send, refusal: Refusal) -> None:
    """Accept a socket and close it at once, saying why."""
    if (await receive())["type"] != "websocket.connect":
        return  # gone before its handshake was answered
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.close", "code": refusal.code, "reason": refusal.reason})


class Admission:
    """Let a new socket through to the application only within both bounds (see above)."""

    def __init__(self, application: ASGIApp, clock: Callable[[], float] = time.monotonic) -> None:
        self.application = application
        self.clock = clock
        self.buckets = Buckets()
        self.open = 0
        self.refused: Counter[int] = Counter()  # by close code, since the last report
        self.reported_at: float | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> Any:
        refusal = self.admit(scope)
        if refusal is not None and not await may_record(scope):
            self.report(refusal)
            await refuse(receive, send, refusal)
            return None
        self.open += 1
        try:
            return await self.application(scope, receive, send)
        finally:
            self.open -= 1

    def admit(self, scope: Scope) -> Refusal | None:
        """Count a new socket against both bounds; return why it is refused, or None."""
        per_second = settings.SOCKETS_PER_ADDRESS_PER_SECOND
        if per_second and not self.buckets.take(
            address_of(scope), self.clock(), settings.SOCKETS_PER_ADDRESS_BURST, per_second
        ):
            return TOO_MANY_SOCKETS
        if self.open >= most_open():
            return SERVER_FULL
        return None

    def report(self, refusal: Refusal) -> None:
        """Count a refusal; log the refusals counted, if none were logged for a while."""
        self.refused[refusal.code] += 1
        now = self.clock()
        if self.reported_at is not None and now - self.reported_at < REPORT_SECONDS:
            return
        log.warning(
            "live sockets refused: %d too many from one address (%d), %d past this "
            "process's cap of %d (%d); %d open",
            self.refused[TOO_MANY_SOCKETS.code],
            TOO_MANY_SOCKETS.code,
            self.refused[SERVER_FULL.code],
            most_open(),
            SERVER_FULL.code,
            self.open,
        )
        self.refused.clear()
        self.reported_at = now
