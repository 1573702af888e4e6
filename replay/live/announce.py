"""What a change sets off: this process's hubs are told at once, the others through the layer.

Three receivers: `committed` (of `matches.signals.events_appended`, sent after the
commit in the thread that recorded: the match and its competition's hall),
`hall_changed` (of `tables_changed`, and of a console's heartbeat) and `announced` (of
the projector's `standings_committed`). None waits for Redis: the notice to the other
processes is handed to a thread of its own (`Publisher`), which gives up on a layer that
does not answer; their clocks catch up from the store anyway.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from collections.abc import Sequence
from typing import Any

from channels.layers import get_channel_layer

from replay.live.hub import shared_layer, tell_hubs
from replay.live.notices import Topic, group_of, notice

logger = logging.getLogger(__name__)

SEND_SECONDS = 2.0  # the longest one notice may take to reach the layer


def committed(
    sender: Any,
    *,
    match_id: str,
    seqs: Sequence[int],
    competition_id: str | None = None,
    **kwargs: Any,
) -> None:
    """Tell every server process that a match's log grew (after the commit)."""
    try:
        changed(("match", match_id), max(seqs))
        if competition_id is not None:
            hall_changed(sender, competition_id=competition_id)
    except Exception:  # the signal is sent robustly: say why, here, or nobody will
        logger.exception("live: %s could not be announced; the clocks catch up", match_id)


def hall_changed(sender: Any, *, competition_id: str, **kwargs: Any) -> None:
    """Tell the viewers of a competition's hall, in every process, to read it again."""
    try:
        changed(("hall", competition_id))
    except Exception:
        logger.exception(
            "live: the hall of %s could not be told; its clock catches up", competition_id
        )


def announced(sender: Any, versions: dict[str, int], **kwargs: Any) -> None:
    """Tell the viewers of each competition's standings of its new version."""
    for competition_id, version in versions.items():
        try:
            changed(("standings", competition_id), version)
        except Exception:
            logger.exception("live: v%s of %s not announced", version, competition_id)


def changed(topic: Topic, position: int = 0) -> None:
    """Tell this process's hubs now, and the other processes through the layer, if shared."""
    tell_hubs(topic, position)
    if shared_layer():
        publisher.publish(topic, position)


class Publisher:
    """Sends notices to the channel layer from a thread and event loop of its own."""

    def __init__(self) -> None:
        self._forget()
        # A forked process (a worker) has none of its parent's threads: it starts its own.
        os.register_at_fork(after_in_child=self._forget)

    def _forget(self) -> None:
        self._lock = threading.Lock()
        self._pending: dict[Topic, int] = {}  # the latest position per topic, not sent yet
        self._loop: asyncio.AbstractEventLoop | None = None
        self._wake: asyncio.Event | None = None

    def publish(self, topic: Topic, position: int) -> None:
        """Queue a notice and return at once: a newer one for the same topic replaces it."""
        with self._lock:
            self._pending[topic] = max(position, self._pending.get(topic, position))
            if self._loop is None:
                self._start()
            loop, wake = self._loop, self._wake
        assert loop is not None and wake is not None
        loop.call_soon_threadsafe(wake.set)

    def _start(self) -> None:
        loop = asyncio.new_event_loop()
        self._wake = asyncio.Event()
        self._loop = loop
        thread = threading.Thread(
            target=loop.run_until_complete,
            args=(self._serve(),),
            name="live-publisher",
            daemon=True,
        )
        thread.start()

    async def _serve(self) -> None:
        assert self._wake is not None
        layer = get_channel_layer()
        while True:
            await self._wake.wait()
            self._wake.clear()
            with self._lock:
                batch, self._pending = self._pending, {}
            # All at once: one notice must not wait for the round trips of the others.
            await asyncio.gather(*(self._send(layer, *pending) for pending in batch.items()))

    async def _send(self, layer: Any, topic: Topic, position: int) -> None:
        try:
            await asyncio.wait_for(
                layer.group_send(group_of(topic), notice(topic, position)), SEND_SECONDS
            )
        except Exception as error:
            logger.warning("live: notice of %s not sent (%s); the clocks catch up", topic, error)


publisher = Publisher()
