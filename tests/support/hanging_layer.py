"""A channel layer that never answers, as a Redis stalled mid-call, and a wait for what it
is handed."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from typing import Any

WAIT_S = 30.0  # the longest a test waits for one message that must come (a loaded machine)


def wait_for(condition: Callable[[], Any], what: str) -> None:
    """Return once `condition()` is truthy, failing after WAIT_S seconds."""
    deadline = time.monotonic() + WAIT_S
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {WAIT_S} s for {what}")
        time.sleep(0.01)


class HangingLayer:
    """A channel layer that never answers, as a Redis stalled mid-call; it notes who called."""

    callers: list[str] = []

    async def group_send(self, group, message):
        self.callers.append(threading.current_thread().name)
        await asyncio.Event().wait()
