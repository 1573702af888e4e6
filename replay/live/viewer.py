"""One socket watching one topic: the last position it was sent, and what waits, in order.

A position is a match's `seq`, or the count of a snapshot's changes in this process.
The hub hands a message to every viewer of a topic in one loop and never waits for any
of them. A viewer gives the message to the server at once; a server that takes it at
once (uvicorn does while the socket's buffer has room) costs no task and no wait. A
server that makes a send wait (back-pressure from a slow client) gets the rest from a
queue, in order, in a task of this viewer's own, and a viewer that does not take what
it is sent (its queue full, or one send waiting `STALL_SECONDS`) is closed with
`TOO_SLOW`; its client reconnects (a match's with `?after=`, resuming from the
store). (A client that does not read is also dropped by the server's ping:
`--ws-ping-timeout 10`.)
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine
from types import CoroutineType
from typing import Any

from replay.live.resumes import Allowance, Resumes

logger = logging.getLogger(__name__)

OUTBOX_LIMIT = 256  # messages waiting behind a send the server has not taken
STALL_SECONDS = 10.0
TOO_SLOW = 4408  # close code: the viewer did not keep up; reconnect with ?after=
INTERNAL_ERROR = 1011  # close code: the server could not serve it; reconnect with ?after=
CLOSE_WAIT_SECONDS = 1.0

Message = dict[str, Any]
Send = Callable[[Message], Awaitable[None]]

# Closing sends run in the background; asyncio keeps only weak references to tasks.
_closing: set[asyncio.Task[None]] = set()


def outgoing(text: str) -> Message:
    """Return the ASGI message that sends `text`: built once, handed to every viewer."""
    return {"type": "websocket.send", "text": text}


class Viewer:
    """A socket's place in a topic and the messages on their way to it."""

    def __init__(self, send: Send) -> None:
        self._send = send
        # Both set by the hub that serves it: the feed of the topic it watches (the hub's
        # to read), and what to call when it closes, so that the hub forgets it.
        self.feed: Any = None
        self.on_close: Callable[[Viewer], None] | None = None
        self.last = 0  # the highest position handed to this viewer
        self.live = False  # False while it catches up from the store: live pushes wait
        self.closed = False
        self._outbox: deque[Message] = deque()
        self._writer: asyncio.Task[None] | None = None  # sending what the server made wait
        self._since = 0.0  # when the send the server has not taken yet began
        self.allowance = Allowance()  # of the messages its client sends
        self.resumes = Resumes()

    def push(self, position: int, messages: tuple[Message, ...]) -> None:
        """Take a live change (an event, or what changed in a snapshot) unless it is
        catching up or has had this position already."""
        if self.live and position > self.last:
            self.last = position
            for message in messages:
                self.post(message)

    def send_event(self, seq: int, message: Message) -> None:
        """Take a message of a catch-up, whatever it had before."""
        self.last = seq
        self.post(message)

    def post(self, message: Message) -> None:
        """Give a message to the server now, or queue it behind one the server made wait."""
        if self.closed:
            return
        if self._writer is not None:
            if len(self._outbox) >= OUTBOX_LIMIT:
                self.close(TOO_SLOW)
            else:
                self._outbox.append(message)
            return
        sending = _coroutine(self._send(message))
        try:
            waiting = _start(sending)
        except Exception as error:
            self._failed(error)
            return
        if waiting is not _DONE:
            loop = asyncio.get_running_loop()
            self._since = loop.time()
            self._writer = loop.create_task(self._write(sending, waiting))

    async def flushed(self) -> None:
        """Wait until every message posted so far has been taken by the server."""
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
        if self.on_close is not None:
            self.on_close(self)

    def stop(self) -> None:
        """Send nothing more (the socket is gone)."""
        self.closed = True
        self._outbox.clear()
        if self._writer is not None:
            self._writer.cancel()
            self._writer = None

    async def _write(self, sending: Coroutine[Any, Any, None], waiting: Any) -> None:
        """Finish the send the server made wait, then send the queue, in order."""
        loop = asyncio.get_running_loop()
        try:
            await _finish(sending, waiting)
            while self._outbox:
                self._since = loop.time()
                await self._send(self._outbox.popleft())
        except Exception as error:
            self._failed(error)
        finally:
            if self._writer is asyncio.current_task():
                self._writer = None

    def _failed(self, error: Exception) -> None:
        logger.info("live: a send failed (%s); the viewer is dropped", error)
        self.closed = True
        self._outbox.clear()

    async def _close(self, code: int) -> None:
        try:
            await asyncio.wait_for(
                self._send({"type": "websocket.close", "code": code}), CLOSE_WAIT_SECONDS
            )
        except Exception as error:
            logger.info("live: closing a viewer failed (%s)", error)


# -- Sending without a task when the server does not make us wait -------------------------
#
# Python 3.12's eager tasks run a coroutine at once until it first waits; carambole runs
# on 3.11. A task per viewer per message costs a fan-out to a thousand viewers more
# than the sends themselves, so a send is started by hand and handed to a task only if
# it waits.

_DONE = object()


def _coroutine(awaitable: Awaitable[None]) -> Coroutine[Any, Any, None]:
    """Return a send as a coroutine (what ASGI servers return; any awaitable will do)."""
    if isinstance(awaitable, CoroutineType):
        return awaitable
    return _awaited(awaitable)


async def _awaited(awaitable: Awaitable[None]) -> None:
    await awaitable


def _start(coroutine: Coroutine[Any, Any, None]) -> Any:
    """Run a coroutine until it first waits; return what it waits on, or _DONE."""
    try:
        return coroutine.send(None)
    except StopIteration:
        return _DONE


async def _finish(coroutine: Coroutine[Any, Any, None], waiting: Any) -> None:
    """Drive a coroutine `_start` left waiting to its end, as a task would have."""
    try:
        while True:
            if waiting is None:
                await asyncio.sleep(0)  # a bare yield: one turn of the loop
            else:
                waiting._asyncio_future_blocking = False  # as a task does
                await asyncio.wait([waiting])  # the coroutine reads its result itself
            waiting = coroutine.send(None)
    except StopIteration:
        return
    finally:
        coroutine.close()  # cancelled while it waited: end it there
