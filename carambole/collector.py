"""The garbage collector in a server process: out of the fan-out's way, and run as sockets close.

A server holding a thousand sockets holds over a hundred thousand objects, and each of
the collector's full passes over them stalls every socket at once (150 ms on a small
machine). `tune` keeps what is loaded at start out of those passes, and collects the
youngest objects less often, so that a fan-out's messages in flight are not promoted
to the old generation, bringing the next full pass closer.

A socket's own objects live as long as it does, so they reach the old generation; once
it closes, some are garbage that only a full pass frees (cycles inside the server and
the websockets library: a frame parser and its protocol, a transport and its callback).
With the thresholds above that pass came only after millions of allocations, and memory
grew with every socket that came and went. So `CollectAfterSockets` runs it itself, once
as many sockets have closed since the last pass as are open now (at least
`SOCKETS_PER_PASS`): a pass costs in proportion to what is open, so each closed socket
pays about the same share of one, and what waits for the next is at most about what
is open.
"""

from __future__ import annotations

import gc
from typing import Any

SOCKETS_PER_PASS = 500  # closed sockets between two full passes, at the least


def tune() -> None:
    """Keep what is loaded by now out of the full passes; collect the youngest less often."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 20, 10)


class CollectAfterSockets:
    """Run the collector's full pass once enough of the sockets this wraps have closed."""

    def __init__(self, application: Any) -> None:
        self.application = application
        self.open = 0
        self.closed = 0  # since the last pass

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        self.open += 1
        try:
            return await self.application(scope, receive, send)
        finally:
            self.open -= 1
            self.closed += 1
            if self.closed >= max(SOCKETS_PER_PASS, self.open):
                self.closed = 0
                gc.collect()
