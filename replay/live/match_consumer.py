"""Websocket consumers: thin, each a socket's words turned into calls on the live hub."""

from __future__ import annotations

import logging

from channels.generic.websocket import AsyncWebsocketConsumer

from matches.errors import NotFound, Refused
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
        try:
            after = parse_resume(text_data)
        except Refused as error:
            self.viewer.post(outgoing(error_message(error)))
            return
        # Served in the background, in turn: the next message is read (and counted) at once.
        self.hub.resume(self.viewer, after)

    async def disconnect(self, code: int) -> None:
        if self.hub is not None and self.viewer is not None:
            self.hub.leave(self.viewer)


class UnknownPath(AsyncWebsocketConsumer):
    """Any other websocket path: refused at the handshake (HTTP 403), never an error."""

    channel_layer_alias = NO_CHANNEL_LAYER

    async def connect(self) -> None:
        await self.close()
