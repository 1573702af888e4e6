"""`/ws/competitions/{id}/hall/`: the hall on connect, then each table whose card changed.

On connect, and whenever the tables or the matches waiting for one change, the socket
sends `{"type": "hall", ...}` (the hall as `GET /api/competitions/{id}/tables` reads it);
when one table's card changes (an event of its match, a match called, a console heard),
`{"type": "table", "now": ..., "card": {...}}` with that card alone, its `version` new.

A commit of a match of the competition, or a change of its tables, pokes the sockets:
this process's directly, the others' through the channel layer (a group per
competition). A poked socket reads the hall again; the sockets of one process poked at
once share one read. A lost poke only delays: each socket also reads every
LIVE_HEAD_SECONDS, and anything a client sends asks for the whole hall again.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import threading
import uuid
from dataclasses import dataclass
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings

from carambole.caches import Cache
from matches.domain.errors import Refused
from replay.queries.hall import hall_get

logger = logging.getLogger(__name__)

NOT_FOUND = 4404
POKE = "hall.changed"
# Names this process on the pokes it sends through the layer: its own viewers were poked
# directly already, and do not read the hall a second time for the same change.
PROCESS = uuid.uuid4().hex


HEARD = 256  # the pokes from other processes remembered, so that each is acted on once


def poke_message() -> dict[str, str]:
    """Return the poke another process's hall viewers hear through the channel layer."""
    return {"type": POKE, "from": PROCESS, "id": uuid.uuid4().hex}


def group_of(competition_id: str) -> str:
    """Return the channel-layer group of a competition's hall viewers."""
    return "hall." + hashlib.sha256(competition_id.encode()).hexdigest()[:32]


def hall_message(hall: dict[str, Any]) -> str:
    return json.dumps({"type": "hall", **hall}, ensure_ascii=False)


def table_message(now: str, card: dict[str, Any]) -> str:
    return json.dumps({"type": "table", "now": now, "card": card}, ensure_ascii=False)


@dataclass(frozen=True)
class Encoded:
    """One read of a hall as its sockets send it: its outline (the tables and the matches
    waiting, which a socket compares with what it has), the whole hall, each card."""

    outline: str
    whole: str
    cards: dict[str, tuple[str, str]]  # table -> (its version, its message)


def encoded(hall: dict[str, Any]) -> Encoded:
    """Return a hall read, encoded: once per read, however many sockets send it."""
    cards = {
        card["table"]: (card["version"], table_message(hall["now"], card))
        for card in hall["tables"]
    }
    outline = json.dumps(
        [[card["table"] for card in hall["tables"]], hall["waiting"]], ensure_ascii=False
    )
    return Encoded(outline, hall_message(hall), cards)


# -- This process's viewers, and one read of a hall shared by those poked together -------

_lock = threading.Lock()
_viewers: dict[str, set[HallConsumer]] = {}
# The latest read of each competition's hall: when it started (its event loop's clock) and
# its answer to come. The competitions watched in this process, and then some.
READS: Cache[str, tuple[float, asyncio.Future[Encoded]]] = Cache("hall reads", 256)
_heard: dict[str, None] = {}  # the ids of the pokes heard from other processes, oldest first


def poke_here(competition_id: str) -> None:
    """Tell this process's viewers of a competition's hall to read it again (any thread).

    One moment for them all, taken once per event loop before any is told: every viewer
    then takes the first read that starts after it (one read for the change), however
    long telling five hundred of them takes.
    """
    with _lock:
        viewers = list(_viewers.get(competition_id, ()))
    since: dict[asyncio.AbstractEventLoop, float] = {}
    for viewer in viewers:
        loop = viewer.loop
        if loop not in since:
            since[loop] = loop.time()
        with contextlib.suppress(RuntimeError):  # its event loop has closed
            loop.call_soon_threadsafe(viewer.poke, since[loop])


def mark_heard(poke: dict[str, Any]) -> bool:
    """Note this poke as heard; return True if this process had not heard it from another
    process before: every viewer hears it from the layer, the first one tells them all."""
    if poke.get("from") == PROCESS:
        return False  # this process's own change: its viewers were told directly
    key = str(poke.get("id"))
    with _lock:
        if key in _heard:
            return False
        _heard[key] = None
        while len(_heard) > HEARD:
            _heard.pop(next(iter(_heard)))
    return True


async def hall_read(competition_id: str, since: float) -> Encoded:
    """Return the hall as read at or after `since` (this loop's clock), encoded: a read
    started since then is shared, else a new one starts."""
    loop = asyncio.get_running_loop()
    found = READS.get(competition_id)
    if found is not None and found[0] >= since and found[1].get_loop() is loop:
        return await asyncio.shield(found[1])
    future: asyncio.Future[Encoded] = loop.create_future()
    READS.set(competition_id, (loop.time(), future))
    try:
        future.set_result(encoded(await database_sync_to_async(hall_get)(competition_id)))
    except BaseException as error:
        future.set_exception(error)
        future.exception()  # retrieved: a read nobody else awaited is not "never retrieved"
        raise
    return future.result()


class HallConsumer(AsyncWebsocketConsumer):
    """Sends a competition's hall, then each table card that changes."""

    competition_id = ""
    group = ""
    shown: dict[str, str]  # table -> the version this socket has
    waiting = ""  # the tables and the waiting matches this socket has, as JSON
    watch: asyncio.Task[None] | None = None
    refresh: asyncio.Task[None] | None = None
    poked_at = 0.0

    async def connect(self) -> None:
        await self.accept()  # first, so that a refusal reaches the client as a close code
        self.competition_id = self.scope["url_route"]["kwargs"]["competition_id"]
        self.loop = asyncio.get_running_loop()
        self.shown = {}
        try:
            hall = await hall_read(self.competition_id, self.loop.time())
        except Refused:
            await self.close(code=NOT_FOUND)
            return
        with _lock:
            _viewers.setdefault(self.competition_id, set()).add(self)
        self.group = group_of(self.competition_id)
        try:
            assert self.channel_layer is not None  # configured (settings.CHANNEL_LAYERS)
            await self.channel_layer.group_add(self.group, self.channel_name)
        except Exception as error:  # the layer is down: the clock below still serves
            logger.warning("hall: no live group for %s (%s)", self.competition_id, error)
        await self.send_hall(hall, whole=True)
        self.watch = asyncio.create_task(self.look_every(settings.LIVE_HEAD_SECONDS))

    def poke(self, since: float | None = None) -> None:
        """Read the hall again (soon: pokes that arrive meanwhile are one read); a read
        started at or after `since` will do (default: now)."""
        self.poked_at = max(self.poked_at, self.loop.time() if since is None else since)
        if self.refresh is None or self.refresh.done():
            self.refresh = asyncio.create_task(self.send_latest())

    async def send_latest(self, whole: bool = False) -> None:
        since = self.poked_at
        try:
            hall = await hall_read(self.competition_id, since)
        except Exception:
            logger.exception("hall: %s could not be read", self.competition_id)
            return
        await self.send_hall(hall, whole)
        if self.poked_at > since:  # poked again while reading: read once more
            await self.send_latest()

    async def send_hall(self, hall: Encoded, whole: bool) -> None:
        if whole or hall.outline != self.waiting:
            self.waiting = hall.outline
            self.shown = {table: version for table, (version, _) in hall.cards.items()}
            await self.send(text_data=hall.whole)
            return
        for table, (version, message) in hall.cards.items():
            if self.shown.get(table) != version:
                self.shown[table] = version
                await self.send(text_data=message)

    async def look_every(self, seconds: float) -> None:
        # A read any socket of this process started in the last period will do: the
        # sockets' clocks then share reads as their pokes do.
        while True:
            await asyncio.sleep(seconds)
            self.poke(since=self.loop.time() - seconds)

    async def hall_changed(self, message: dict[str, Any]) -> None:
        """Another process recorded into, or changed the tables of, this competition."""
        if mark_heard(message):
            poke_here(self.competition_id)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        # Anything a client sends asks for the whole hall (a page back from a sleep).
        self.poked_at = self.loop.time()
        await self.send_latest(whole=True)

    async def disconnect(self, code: int) -> None:
        with _lock:
            viewers = _viewers.get(self.competition_id)
            if viewers is not None:
                viewers.discard(self)
                if not viewers:
                    del _viewers[self.competition_id]
        for task in (self.watch, self.refresh):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        if self.group:
            with contextlib.suppress(Exception):
                assert self.channel_layer is not None  # it was, to join the group
                await self.channel_layer.group_discard(self.group, self.channel_name)
