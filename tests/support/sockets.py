"""Socket scenarios run in the test's own thread, as a server process runs them.

Each scenario gets an event loop of its own (`async_to_sync`). A match socket starts
this loop's hub, whose listener waits on the channel layer; stopped while the loop
still runs, it lets go. Left to the loop's end, the Redis layer's receive can be
cancelled in a state it never returns from, and the test hangs: every scenario that
opens a socket runs through `watching`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TypeVar

from asgiref.sync import async_to_sync

from replay.live.hub import stop_hubs_here

T = TypeVar("T")


def watching(scenario: Callable[[], Awaitable[T]]) -> T:
    """Run an async scenario on a fresh event loop, its hubs stopped at the end."""

    async def run() -> T:
        try:
            return await scenario()
        finally:
            await stop_hubs_here()

    return async_to_sync(run)()
