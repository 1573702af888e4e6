"""The fan-out bench's yardstick: a bare `websockets` broadcast server, nothing else.

`python -m bench.bare PORT` serves sockets on 127.0.0.1: a socket at `/g/NAME` joins
group NAME; the socket at `/control` sends `{"groups": [...], "seq": n, "size": bytes}`
and each group is sent one message of that size, shaped as carambole's (`{"type":
"event","seq":n,...}`), encoded once and written to every socket of the group without
waiting for any; the answer is when each group's broadcast began, by the machine's
monotonic clock (what a commit is to carambole).

`python -m bench.bare PORT REDIS_URL` also listens to Redis, as one of several servers
fed by one publisher: each message published on the channel `bare:NAME` is decoded once
and sent as it came to every socket of group NAME, the least any server fed through
Redis can do.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from collections import defaultdict

from redis.asyncio import Redis
from websockets.asyncio.server import ServerConnection, broadcast, serve

CHANNELS = "bare:*"  # the channel of group NAME is bare:NAME

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


def channel(name: str) -> str:
    """Return the Redis channel whose messages go to group NAME."""
    return CHANNELS.replace("*", name)


async def relay(redis_url: str, subscribed: asyncio.Event) -> None:
    """Send each message published on a group's channel to every socket of the group."""
    async with Redis.from_url(redis_url) as redis, redis.pubsub() as subscription:
        await subscription.psubscribe(CHANNELS)
        subscribed.set()
        async for published in subscription.listen():
            if published["type"] == "pmessage":
                name = published["channel"].decode().removeprefix(channel(""))
                broadcast(groups[name], published["data"].decode())


async def main(port: int, redis_url: str | None) -> None:
    relayed = None
    if redis_url is not None:
        # Listen only once subscribed: a message published as soon as the port answers
        # reaches the sockets.
        subscribed = asyncio.Event()
        relayed = asyncio.create_task(relay(redis_url, subscribed))
        await asyncio.wait(
            [relayed, asyncio.create_task(subscribed.wait())],
            return_when=asyncio.FIRST_COMPLETED,
        )
        if relayed.done():
            relayed.result()  # the subscription failed: say why
    async with serve(handler, "127.0.0.1", port, compression=None, max_queue=None) as server:
        await asyncio.wait(
            [asyncio.create_task(server.serve_forever())] + ([relayed] if relayed else []),
            return_when=asyncio.FIRST_COMPLETED,
        )
        if relayed is not None and relayed.done():
            relayed.result()  # Redis went away: the server stops, saying why


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]), sys.argv[2] if len(sys.argv) > 2 else None))
