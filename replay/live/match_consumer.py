"""Websocket consumers: thin, each a socket's words turned into calls on the live hub."""

from __future__ import annotations

import logging
import time

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from matches.domain.errors import NotFound, Refused
from replay.live.announce import hall_changed
from replay.live.heartbeat import (
    KEPT_SECONDS,
    console_heard,
    cookie_of,
    is_heartbeat,
    void_notice,
)
from replay.live.hub import Hub, hub_here
from replay.live.messages import error_message
from replay.live.protocol import parse_after, parse_resume
from replay.live.viewer import INTERNAL_ERROR, Viewer, outgoing

logger = logging.getLogger(__name__)

NOT_FOUND = 4404
BAD_REQUEST = 4400

# No channel-layer alias: a viewer has no channel of its own. The process's hub hears
# one notice per match and hands the message to each of its viewers.
NO_CHANNEL_LAYER = "live.no-channel-of-its-own"


class MatchConsumer(AsyncWebsocketConsumer):
    """`/ws/matches/{id}/?after=SEQ`: the events after SEQ from the store, then each new one."""

    channel_layer_alias = NO_CHANNEL_LAYER  # not configured: channels gives no layer
    hub: Hub | None = None
    viewer: Viewer | None = None
    heard_at: float | None = None  # when this socket's last heartbeat was kept

    async def connect(self) -> None:
        # Accepted first, so that a refusal reaches the client as a close code.
        await self.accept()
        try:
            after = parse_after(self.scope["query_string"])
        except Refused:
            await self.close(code=BAD_REQUEST)
            return
        self.hub, self.viewer = hub_here(), Viewer(self.base_send)
        try:
            await self.hub.watch(self.scope["url_route"]["kwargs"]["match_id"], self.viewer, after)
        except NotFound:
            await self.close(code=NOT_FOUND)
        except Refused as error:
            # A bad `after`, or a stored event corrupt or missing: the message says which.
            await self.send(text_data=error_message(error))
            await self.close(code=BAD_REQUEST)
        except Exception:
            logger.exception("live: a viewer could not be served")
            await self.close(code=INTERNAL_ERROR)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if self.hub is None or self.viewer is None or self.viewer.closed:
            return
        if not self.hub.allowed(self.viewer):
            return
        if is_heartbeat(text_data):
            await self.heartbeat()
            return
        try:
            after = parse_resume(text_data)
        except Refused as error:
            self.viewer.post(outgoing(error_message(error)))
            return
        # Served in the background, in turn: the next message is read (and counted) at once.
        self.hub.resume(self.viewer, after)

    async def heartbeat(self) -> None:
        """Keep that the match's console is there (from a login that may record it), at most
        once per KEPT_SECONDS; the competition's hall is told."""
        now = time.monotonic()
        if self.heard_at is not None and now - self.heard_at < KEPT_SECONDS:
            return
        self.heard_at = now
        match_id = self.scope["url_route"]["kwargs"]["match_id"]
        try:
            cookie = cookie_of(self.scope.get("headers", ()))
            competition_id = await database_sync_to_async(console_heard)(cookie, match_id)
            voided = await database_sync_to_async(void_notice)(match_id)
        except Exception:
            logger.exception("live: a heartbeat of %s could not be kept", match_id)
            return
        if voided is not None and self.viewer is not None:
            self.viewer.post(outgoing(voided))
        if competition_id is not None:
            hall_changed(self, competition_id=competition_id)

    async def disconnect(self, code: int) -> None:
        if self.hub is not None and self.viewer is not None:
            self.hub.leave(self.viewer)


class UnknownPath(AsyncWebsocketConsumer):
    """Any other websocket path: refused at the handshake (HTTP 403), never an error."""

    channel_layer_alias = NO_CHANNEL_LAYER

    async def connect(self) -> None:
        await self.close()
