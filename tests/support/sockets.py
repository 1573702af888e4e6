"""Socket scenarios run in the test's own thread, as a server process runs them, and a
viewer's socket opened, read and closed in them.

Each scenario gets an event loop of its own (`async_to_sync`). A match socket starts
this loop's hub, whose listener waits on the channel layer; stopped while the loop
still runs, it lets go. Left to the loop's end, the Redis layer's receive can be
cancelled in a state it never returns from, and the test hangs: every scenario that
opens a socket runs through `watching`.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator

from carambole.asgi import application
from replay.live.hub import stop_hubs_here

T = TypeVar("T")

WAIT_S = 30  # the longest a scenario waits for one message that must come (a loaded machine)


def watching(scenario: Callable[[], Awaitable[T]]) -> T:
    """Run an async scenario on a fresh event loop, its hubs stopped at the end."""

    async def run() -> T:
        try:
            return await scenario()
        finally:
            await stop_hubs_here()

    return async_to_sync(run)()


async def connect(path: str, cookie: str = "") -> WebsocketCommunicator:
    """Open a viewer's socket on `path` (with a session's `cookie`), refusing a refusal."""
    headers = [(b"cookie", cookie.encode())] if cookie else []
    viewer = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await viewer.connect(timeout=WAIT_S)
    assert connected
    return viewer


async def message(viewer: WebsocketCommunicator) -> dict[str, Any]:
    """Return the next message a viewer is sent."""
    return json.loads(await viewer.receive_from(timeout=WAIT_S))


async def closed_with(viewer: WebsocketCommunicator) -> int:
    """Return the code a viewer's socket is closed with."""
    while True:
        output = await viewer.receive_output(timeout=WAIT_S)
        if output["type"] == "websocket.close":
            return int(output["code"])
