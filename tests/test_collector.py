"""The collector's full pass in a server process: run once as many sockets closed as are open."""

from __future__ import annotations

import asyncio

import pytest

from carambole import collector


class Passes:
    """Stands in for the gc module: counts the full passes asked for."""

    def __init__(self) -> None:
        self.count = 0

    def collect(self) -> int:
        self.count += 1
        return 0


@pytest.fixture
def passes(monkeypatch) -> Passes:
    counted = Passes()
    monkeypatch.setattr(collector, "gc", counted)
    monkeypatch.setattr(collector, "SOCKETS_PER_PASS", 3)
    return counted


class Sockets:
    """An application whose sockets stay open until told, in the order they came."""

    def __init__(self) -> None:
        self.closing: list[asyncio.Event] = []

    async def __call__(self, scope, receive, send) -> None:
        closed = asyncio.Event()
        self.closing.append(closed)
        await closed.wait()


def test_a_full_pass_runs_once_as_many_sockets_have_closed_as_are_open(passes):
    async def scenario():
        sockets = Sockets()
        application = collector.CollectAfterSockets(sockets)
        served = [
            asyncio.ensure_future(application({"type": "websocket"}, None, None)) for _ in range(8)
        ]
        await asyncio.sleep(0)
        counts = []
        for closed, socket in zip(sockets.closing, served, strict=True):
            closed.set()
            await socket
            counts.append(passes.count)
        return counts

    # Eight open, at least three a pass: the fourth to close is one for each still open
    # (four), the seventh three more (one open); the eighth waits for two more.
    assert asyncio.run(scenario()) == [0, 0, 0, 1, 1, 1, 2, 2]


def test_a_socket_that_ends_in_an_error_is_counted_too(passes):
    async def failing(scope, receive, send):
        raise ConnectionError("gone")

    async def scenario():
        application = collector.CollectAfterSockets(failing)
        for _ in range(3):
            with pytest.raises(ConnectionError):
                await application({"type": "websocket"}, None, None)

    asyncio.run(scenario())
    assert passes.count == 1
