"""What the fan-out bench serves: carambole's own application, and its commit times.

Everything goes to `carambole.asgi.application` unchanged but `GET /bench/commits`,
which answers when each event this process recorded was committed, by the machine's
monotonic clock (`{match id: {seq: seconds}}`): the moment its append is announced,
before carambole's own live push is told (its receiver is connected first, before
Django is set up), so that no viewer can have it before its commit time.
"""

from __future__ import annotations

import json
import threading
import time
from typing import Any

from matches.signals import events_appended

_commits: dict[str, dict[int, float]] = {}
_lock = threading.Lock()


def _committed(sender: Any, *, match_id: str, seqs: list[int], **kwargs: Any) -> None:
    now = time.clock_gettime(time.CLOCK_MONOTONIC)
    with _lock:
        times = _commits.setdefault(match_id, {})
        for seq in seqs:
            times[seq] = now


events_appended.connect(_committed, dispatch_uid="bench.served")

from carambole.asgi import application as carambole  # noqa: E402  (after: see above)


async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] == "http" and scope["path"] == "/bench/commits":
        with _lock:
            body = json.dumps(_commits).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 200,
                "headers": [(b"content-type", b"application/json")],
            }
        )
        await send({"type": "http.response.body", "body": body})
        return
    await carambole(scope, receive, send)
