"""A served process at its descriptor limit: sockets refused with 1013, requests answered 503."""

from __future__ import annotations

import asyncio

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from carambole import descriptors
from tests.support.servers import Uvicorn, call

# The server starts with a soft limit below its hard one, as many systems start a process:
# it raises its own to the hard limit, so the hard one alone says what room it has.
SOFT, HARD = 128, 200
WAIT_S = 30
pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("event_db")]


async def viewer(port: int, match_id: str) -> ClientConnection:
    url = f"ws://127.0.0.1:{port}/ws/matches/{match_id}/?after=0"
    return await connect(url, proxy=None, open_timeout=WAIT_S)


async def close_code(socket: ClientConnection) -> int | None:
    """Return the code the server closes a socket with, reading until it does."""
    try:
        while True:
            await asyncio.wait_for(socket.recv(), WAIT_S)
    except ConnectionClosed as closed:
        return closed.rcvd.code if closed.rcvd is not None else None


async def fill(port: int, match_id: str, room: int) -> tuple[list[int | None], int | None, int]:
    """Open `room` sockets and one more; return the first ones' close codes (none: open),
    the last one's, and the status of a page asked meanwhile."""
    sockets = [await viewer(port, match_id) for _ in range(room)]
    try:
        one_too_many = await viewer(port, match_id)
        refused = await close_code(one_too_many)
        answer = await asyncio.to_thread(call, f"http://127.0.0.1:{port}/api/me", timeout=WAIT_S)
        still_open = await asyncio.gather(*(open_or_code(socket) for socket in sockets))
        return still_open, refused, answer.status
    finally:
        await asyncio.gather(*(socket.close() for socket in sockets))


async def open_or_code(socket: ClientConnection) -> int | None:
    """Return None for a socket the server keeps open (it answers a ping), else its code."""
    try:
        await asyncio.wait_for((await socket.ping()), WAIT_S)
    except ConnectionClosed as closed:
        return closed.rcvd.code if closed.rcvd is not None else None
    return None


def test_a_server_at_its_descriptor_limit_refuses_sockets_1013_and_requests_503(match):
    room = HARD - descriptors.RESERVE
    # As production runs it: uvicorn answers 503 once it holds as many connections.
    server = Uvicorn(None, 15, "--limit-concurrency", str(room), descriptors=(SOFT, HARD))
    server.start()
    try:
        still_open, refused, status = asyncio.run(fill(server.port, match.id, room))
    finally:
        server.close()

    assert still_open == [None] * room
    assert refused == 1013
    assert status == 503
