"""The snapshot sockets' consumers: the hall and the standings, each a topic of the hub.

`/ws/competitions/{id}/hall/?version=V` and `/ws/competitions/{id}/?version=V`: the
topic's snapshot on connect (what is newer than `V`, when given), then each change. A
socket has no channel of its own: the process's hub hears one notice per topic and
hands the message to each of its viewers. Anything a client sends asks for the whole
snapshot again, answered from the hub's last read (never a read of its own), within
the allowance every socket has (`resumes.Allowance`: past it, closed with 4429).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from channels.generic.websocket import AsyncWebsocketConsumer

from matches.domain.errors import Refused
from replay.live.hall import HallSnapshots
from replay.live.hub import Hub, Snapshots, hub_here
from replay.live.match_consumer import BAD_REQUEST, NO_CHANNEL_LAYER, NOT_FOUND
from replay.live.protocol import parse_version
from replay.live.standings import StandingsSnapshots
from replay.live.viewer import INTERNAL_ERROR, Viewer

logger = logging.getLogger(__name__)


class SnapshotConsumer(AsyncWebsocketConsumer):
    """A competition's topic: its snapshot on connect, then each change."""

    channel_layer_alias = NO_CHANNEL_LAYER  # not configured: channels gives no layer
    kind = ""
    source: Callable[[str], Snapshots]
    hub: Hub | None = None
    viewer: Viewer | None = None

    async def connect(self) -> None:
        await self.accept()  # first, so that a refusal reaches the client as a close code
        try:
            version = parse_version(self.scope["query_string"])
        except Refused:
            await self.close(code=BAD_REQUEST)
            return
        competition_id = self.scope["url_route"]["kwargs"]["competition_id"]
        self.hub, self.viewer = hub_here(), Viewer(self.base_send)
        try:
            await self.hub.follow((self.kind, competition_id), self.source, self.viewer, version)
        except Refused:  # an unknown competition
            await self.close(code=NOT_FOUND)
        except Exception:
            logger.exception("live: a viewer of %s could not be served", self.kind)
            await self.close(code=INTERNAL_ERROR)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        # Anything a client sends asks for the whole snapshot (a page back from a sleep).
        if self.hub is None or self.viewer is None or self.viewer.closed:
            return
        if self.hub.allowed(self.viewer):
            self.hub.resend(self.viewer)

    async def disconnect(self, code: int) -> None:
        if self.hub is not None and self.viewer is not None:
            self.hub.leave(self.viewer)


class HallConsumer(SnapshotConsumer):
    """`/ws/competitions/{id}/hall/`: the hall, then each table whose card changed."""

    kind = "hall"
    source = HallSnapshots


class StandingsConsumer(SnapshotConsumer):
    """`/ws/competitions/{id}/`: the standings (and stages), then each new version."""

    kind = "standings"
    source = StandingsSnapshots
