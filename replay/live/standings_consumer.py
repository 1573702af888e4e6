"""`/ws/competitions/{id}/`: the standings on connect, then each new version.

Every message is `{"type": "standings", "version": v, "standings": {...}}`; a competition
in stages also has `{"type": "stages", "version": v, "stages": [...], "ranking": {...},
"error": null}` (the shapes of `GET …/stages` and `…/ranking`; `error` theirs: why the stages
stop at `v`) on connect and whenever its version grows. A new
version is announced through the channel layer after its commit (a group per
competition); the socket then reads the latest from the read model, so a message
the layer drops costs nothing but time: the socket also looks every
LIVE_HEAD_SECONDS, and a viewer that reconnects is sent the latest at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings

from matches.domain.errors import Refused
from replay.live.standings_announce import group_of
from replay.queries.championships import stages_and_ranking
from replay.queries.standings_reader import standings_get

logger = logging.getLogger(__name__)

NOT_FOUND = 4404


def standings_message(standings: dict[str, Any]) -> str:
    return json.dumps(
        {"type": "standings", "version": standings["version"], "standings": standings},
        ensure_ascii=False,
    )


def stages_message(stages: dict[str, Any], ranking: dict[str, Any]) -> str:
    return json.dumps(
        {
            "type": "stages",
            "version": stages["version"],
            "stages": stages["stages"],
            "ranking": ranking,
            "error": stages.get("error"),
        },
        ensure_ascii=False,
    )


def latest(competition_id: str) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """Return a competition's standings and, in stages, its stages and ranking message."""
    standings = standings_get(competition_id)
    read = stages_and_ranking(competition_id)
    return standings, None if read is None else {"stages": read[0], "ranking": read[1]}


class StandingsConsumer(AsyncWebsocketConsumer):
    """Sends a competition's standings whenever their version grows."""

    competition_id = ""
    group = ""
    version = -1
    stages_version = -1
    staged = False  # a competition in stages: its stages and ranking are sent too
    watch: asyncio.Task[None] | None = None

    async def connect(self) -> None:
        await self.accept()  # first, so that a refusal reaches the client as a close code
        self.competition_id = self.scope["url_route"]["kwargs"]["competition_id"]
        try:
            await database_sync_to_async(standings_get)(self.competition_id)
        except Refused:
            await self.close(code=NOT_FOUND)
            return
        # Joined before reading: a version committed in between is announced to us too.
        self.group = group_of(self.competition_id)
        try:
            assert self.channel_layer is not None  # configured (settings.CHANNEL_LAYERS)
            await self.channel_layer.group_add(self.group, self.channel_name)
        except Exception as error:  # the layer is down: the clock below still serves
            logger.warning("standings: no live group for %s (%s)", self.competition_id, error)
        await self.send_latest()
        self.watch = asyncio.create_task(self.look_every(settings.LIVE_HEAD_SECONDS))

    async def send_latest(self) -> None:
        """Send the standings if their version is newer than the last one sent."""
        standings, staged = await database_sync_to_async(latest)(self.competition_id)
        if standings["version"] > self.version:
            self.version = standings["version"]
            await self.send(text_data=standings_message(standings))
        self.staged = staged is not None
        if staged is not None and staged["stages"]["version"] > self.stages_version:
            self.stages_version = staged["stages"]["version"]
            await self.send(text_data=stages_message(staged["stages"], staged["ranking"]))

    async def look_every(self, seconds: float) -> None:
        while True:
            await asyncio.sleep(seconds)
            try:
                await self.send_latest()
            except Exception:
                logger.exception("standings: %s could not be read", self.competition_id)

    async def standings_version(self, message: dict[str, Any]) -> None:
        """A version was committed: send it unless this socket has it already."""
        version = message.get("version", 0)
        if version > self.version or (self.staged and version > self.stages_version):
            await self.send_latest()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        # Anything a client sends asks for the latest (a viewer back from a sleep).
        await self.send_latest()

    async def disconnect(self, code: int) -> None:
        if self.watch is not None:
            self.watch.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.watch
        if self.group:
            with contextlib.suppress(Exception):
                assert self.channel_layer is not None  # it was, to join the group
                await self.channel_layer.group_discard(self.group, self.channel_name)
