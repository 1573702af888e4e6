"""One socket watching one match: the last `seq` it was sent, and its outbox, sent in order.

The hub hands a message to every viewer of a match in one loop and never waits for
any of them: each viewer sends from its own outbox, in order, in a task of its own.
A viewer that does not take what it is sent (its outbox full, or one send not taken
for `STALL_SECONDS`) is closed with `TOO_SLOW`; its client reconnects with `?after=`
and resumes from the store. (Daphne never makes a send wait: there a viewer that does
not read is closed by the server's ping, `--ping-timeout 10`.)
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from replay.live.hub import Feed

logger = logging.getLogger(__name__)

OUTBOX_LIMIT = 256  # messages handed over and not sent yet; a catch-up sends in smaller chunks
STALL_SECONDS = 10.0
TOO_SLOW = 4408  # close code: the viewer did not keep up; reconnect with ?after=
CLOSE_WAIT_SECONDS = 1.0

Send = Callable[[dict[str, Any]], Awaitable[None]]

# Closing sends run in the background; asyncio keeps only weak references to tasks.
_closing: set[asyncio.Task[None]] = set()


class Viewer:
    """A socket's place in a match's log and the messages on their way to it."""

    def __init__(self, send: Send) -> None:
        self._send = send
        self.feed: Feed | None = None  # the match it watches, once the hub has it
        self.last = 0  # the highest seq handed to this viewer
        self.live = False  # False while it catches up from the store: live pushes wait
        self.closed = False
        self._outbox: deque[str] = deque()
        self._writer: asyncio.Task[None] | None = None
        self._since = 0.0  # when the server was handed the message at the head of the outbox

    def push(self, seq: int, text: str) -> None:
        """Take a live message unless it is catching up or has had this seq already."""
        if self.live and seq > self.last:
            self.last = seq
            self.post(text)

    def send_event(self, seq: int, text: str) -> None:
        """Take a message of a catch-up, whatever it had before."""
        self.last = seq
        self.post(text)

    def post(self, text: str) -> None:
        """Queue a message; never wait for the socket."""
        if self.closed:
            return
        if len(self._outbox) >= OUTBOX_LIMIT:
            self.close(TOO_SLOW)
            return
        self._outbox.append(text)
        if self._writer is None:
            loop = asyncio.get_running_loop()
            self._since = loop.time()
            self._writer = loop.create_task(self._write())

    async def flushed(self) -> None:
        """Wait until every message queued so far has been handed to the server."""
        while self._writer is not None and not self.closed:
            await asyncio.wait([self._writer])

    def stalled(self, now: float) -> bool:
        """Return whether a send has waited more than `STALL_SECONDS` for the server."""
        return self._writer is not None and now - self._since > STALL_SECONDS

    def close(self, code: int) -> None:
        """Stop sending and close the socket with `code`, in the background."""
        if self.closed:
            return
        self.stop()
        task = asyncio.get_running_loop().create_task(self._close(code))
        _closing.add(task)
        task.add_done_callback(_closing.discard)
        if self.feed is not None:
            self.feed.hub.leave(self)

    def stop(self) -> None:
        """Send nothing more (the socket is gone)."""
        self.closed = True
        self._outbox.clear()
        if self._writer is not None:
            self._writer.cancel()
            self._writer = None

    async def _write(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            while self._outbox:
                await self._send({"type": "websocket.send", "text": self._outbox[0]})
                self._outbox.popleft()
                self._since = loop.time()
        except Exception as error:  # the server refused a send: this socket is done
            logger.info("live: a send failed (%s); the viewer is dropped", error)
            self.closed = True
            self._outbox.clear()
        finally:
            if self._writer is asyncio.current_task():
                self._writer = None

    async def _close(self, code: int) -> None:
        try:
            await asyncio.wait_for(
                self._send({"type": "websocket.close", "code": code}), CLOSE_WAIT_SECONDS
            )
        except Exception as error:
            logger.info("live: closing a viewer failed (%s)", error)
