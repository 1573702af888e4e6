"""The fan-out bench's yardstick: a bare `websockets` broadcast server, nothing else.

`python -m bench.bare PORT` serves sockets on 127.0.0.1: a socket at `/g/NAME` joins
group NAME; the socket at `/control` sends `{"groups": [...], "seq": n, "size": bytes}`
and each group is sent one message of that size, shaped as carambole's (`{"type":
"event","seq":n,...}`), encoded once and written to every socket of the group without
waiting for any; the answer is when each group's broadcast began, by the machine's
monotonic clock (what a commit is to carambole).
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from collections import defaultdict

from websockets.asyncio.server import ServerConnection, broadcast, serve

groups: defaultdict[str, set[ServerConnection]] = defaultdict(set)


def clock() -> float:
    return time.clock_gettime(time.CLOCK_MONOTONIC)


def message(seq: int, size: int) -> str:
    """Return a message of `size` characters that starts as carambole's do."""
    head = f'{{"type":"event","seq":{seq},"pad":"'
    return head + "x" * max(size - len(head) - 2, 0) + '"}'


async def control(socket: ServerConnection) -> None:
    async for order in socket:
        asked = json.loads(order)
        began = {}
        for name in asked["groups"]:
            began[name] = clock()
            broadcast(groups[name], message(asked["seq"], asked["size"]))
        await socket.send(json.dumps({"began": began}))


async def handler(socket: ServerConnection) -> None:
    path = socket.request.path if socket.request is not None else ""
    if path == "/control":
        await control(socket)
        return
    group = groups[path.removeprefix("/g/")]
    group.add(socket)
    try:
        await socket.wait_closed()
    finally:
        group.discard(socket)


async def main(port: int) -> None:
    async with serve(handler, "127.0.0.1", port, compression=None, max_queue=None) as server:
        await server.serve_forever()


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1])))
