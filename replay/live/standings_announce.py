"""Telling the viewers of `/ws/competitions/{id}/` that a version of standings committed.

`announced` receives the projector's `standings_committed` signal (connected in
`replay.apps`): the projector, a layer below, never calls up into the live push. Over a
shared layer (Redis) the word is handed to a thread of its own, as a match's notices are
(`announce.Publisher`): the projector never waits for Redis's round trips, nor for a
layer that does not answer, and a newer version of a competition replaces one not sent
yet. The in-memory layer's viewers are this process's own, told in its event loop.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer

from replay.live.announce import Publisher
from replay.live.hub import shared_layer

logger = logging.getLogger(__name__)

SEND_SECONDS = 2.0  # the longest an announcement may wait for the channel layer


def announced(sender: Any, versions: dict[str, int], **kwargs: Any) -> None:
    """Announce each competition's new version (the receiver of `standings_committed`)."""
    for competition_id, version in versions.items():
        announce(competition_id, version)


def group_of(competition_id: str) -> str:
    """Return the channel-layer group of a competition's viewers (a name the layer accepts)."""
    return "standings." + hashlib.sha256(competition_id.encode()).hexdigest()[:32]


def announce(competition_id: str, version: int) -> None:
    """Tell the viewers of a competition that a version is committed; a lost word loses nothing.

    A viewer that misses it is sent the latest version when it connects again.
    """
    layer = get_channel_layer()
    group = group_of(competition_id)
    if layer is None:
        return
    if shared_layer():
        standings.publish(competition_id, version)
        return
    if isinstance(layer, InMemoryChannelLayer) and group not in layer.groups:
        return  # the in-memory layer's groups are this process's: nobody here is watching
    try:
        async_to_sync(_send)(layer, group, version_message(competition_id, version))
    except Exception as error:
        logger.warning("standings: v%s of %s not announced (%s)", version, competition_id, error)


async def _send(layer: Any, group: str, message: dict[str, Any]) -> None:
    await asyncio.wait_for(layer.group_send(group, message), SEND_SECONDS)


def version_message(competition_id: str, version: int) -> dict[str, Any]:
    return {"type": "standings.version", "competition": competition_id, "version": version}


class StandingsPublisher(Publisher):
    """Sends each competition's newest version to the layer from a thread of its own."""

    async def _send(self, layer: Any, competition_id: str, version: int) -> None:
        try:
            await asyncio.wait_for(
                layer.group_send(
                    group_of(competition_id), version_message(competition_id, version)
                ),
                SEND_SECONDS,
            )
        except Exception as error:
            logger.warning(
                "standings: v%s of %s not announced (%s)", version, competition_id, error
            )


standings = StandingsPublisher()
