"""Websocket viewers for the fan-out bench: many sockets in one process, each noting its receipts.

`python -m bench.viewers` reads one JSON line on standard input, `{"port": P, "paths":
[...], "kind": "websockets" | "thin" | "hall"}`, opens one socket per path on 127.0.0.1,
prints `{"ready": N}` once all are open, then on the line `report` prints every socket's
receipts (seq, time by the machine's monotonic clock, size) and exits.

- `websockets`: the `websockets` client library, a task per socket, as a program
  watching a match would receive (`python -m websockets ws://...` is the same code).
- `thin`: a bare asyncio protocol speaking just enough of RFC 6455 (the handshake,
  unmasked text frames, pong, close): the client costs next to nothing, so what is
  timed is the server alone.
- `hall`: the same library on a competition's hall socket: each `table` message whose
  card has a match is a receipt of that match's seq (the report names the match of each).
"""

from __future__ import annotations

import asyncio
import base64
import gc
import json
import os
import re
import sys
import time
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

SEQ_PATTERN = re.compile(r'\{"type":"(event|head)","seq":(\d+)')
CONNECT_AT_ONCE = 100
CONNECT_SECONDS = 60.0


def clock() -> float:
    """The machine's monotonic clock, shared by every process: receipts meet commit times."""
    return time.clock_gettime(time.CLOCK_MONOTONIC)


class Receipts:
    """What one socket received: the seq, time and size of each event message."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.seqs: list[int] = []
        self.times: list[float] = []
        self.sizes: list[int] = []
        self.closed: int | None = None  # the close code, once the server closed

    def note(self, text: str, now: float) -> None:
        found = SEQ_PATTERN.match(text)
        if found is not None and found[1] == "event":
            self.seqs.append(int(found[2]))
            self.times.append(now)
            self.sizes.append(len(text))

    def report(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "seqs": self.seqs,
            "times": self.times,
            "sizes": self.sizes,
            "closed": self.closed,
        }


class LibraryViewer(Receipts):
    """A socket of the `websockets` client library."""

    socket: ClientConnection

    async def open(self, port: int) -> None:
        self.socket = await connect(
            f"ws://127.0.0.1:{port}{self.path}", proxy=None, compression=None, max_queue=None
        )
        self.task = asyncio.get_running_loop().create_task(self._receive())

    async def _receive(self) -> None:
        try:
            async for text in self.socket:
                self.note(str(text), clock())
        except Exception:  # the report says the socket closed
            pass
        self.closed = self.socket.close_code or 1006

    def close(self) -> None:
        self.task.cancel()


class HallViewer(LibraryViewer):
    """A hall socket of the `websockets` client library: a receipt per table card changed."""

    def __init__(self, path: str) -> None:
        super().__init__(path)
        self.matches: list[str] = []
        self.last: dict[str, int] = {}  # the newest seq received of each match

    def note(self, text: str, now: float) -> None:
        message = json.loads(text)
        if message["type"] == "table":
            self._receipt(message["card"]["match"], now, len(text))
        elif message["type"] == "hall":
            # The whole hall (on connect, or when the tables or the waiting matches
            # change) shows every table's card: a receipt of each seq it shows anew.
            for card in message["tables"]:
                match = card["match"]
                if match is not None and match["seq"] > self.last.get(match["id"], -1):
                    self._receipt(match, now, len(text))

    def _receipt(self, match: dict[str, Any] | None, now: float, size: int) -> None:
        if match is None:
            return
        self.last[match["id"]] = max(self.last.get(match["id"], -1), match["seq"])
        self.matches.append(match["id"])
        self.seqs.append(match["seq"])
        self.times.append(now)
        self.sizes.append(size)

    def report(self) -> dict[str, Any]:
        return {**super().report(), "matches": self.matches}


class ThinViewer(Receipts, asyncio.Protocol):
    """A socket as thin as a client can be."""

    def __init__(self, path: str) -> None:
        super().__init__(path)
        self.opened: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.transport: asyncio.Transport | None = None
        self.buffer = bytearray()
        self.open_ = False

    async def open(self, port: int) -> None:
        await asyncio.get_running_loop().create_connection(lambda: self, "127.0.0.1", port)
        await self.opened

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        key = base64.b64encode(os.urandom(16)).decode()
        transport.write(
            f"GET {self.path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n".encode()
        )

    def data_received(self, data: bytes) -> None:
        now = clock()
        self.buffer += data
        if not self.open_:
            end = self.buffer.find(b"\r\n\r\n")
            if end < 0:
                return
            if not self.buffer.startswith(b"HTTP/1.1 101"):
                self.opened.set_exception(ConnectionError(bytes(self.buffer[:80]).decode()))
                return
            del self.buffer[: end + 4]
            self.open_ = True
            self.opened.set_result(None)
        self._frames(now)

    def connection_lost(self, exc: Exception | None) -> None:
        if self.closed is None:
            self.closed = 1006
        if not self.opened.done():
            self.opened.set_exception(ConnectionError(f"{self.path}: closed before opening"))

    def _frames(self, now: float) -> None:
        buffer, at = self.buffer, 0
        while len(buffer) - at >= 2:
            opcode, length, start = buffer[at] & 0x0F, buffer[at + 1] & 0x7F, at + 2
            if length == 126:
                length, start = int.from_bytes(buffer[at + 2 : at + 4], "big"), at + 4
            elif length == 127:
                length, start = int.from_bytes(buffer[at + 2 : at + 10], "big"), at + 10
            if len(buffer) < start + length:
                break
            payload = bytes(buffer[start : start + length])
            at = start + length
            if opcode == 1:
                self.note(payload.decode(), now)
            elif opcode == 9:
                self._control(10, payload)  # pong: the server's ping is answered
            elif opcode == 8:
                self.closed = int.from_bytes(payload[:2], "big") if payload else 1005
        del buffer[:at]

    def _control(self, opcode: int, payload: bytes) -> None:
        """Send a small control frame, masked as a client must."""
        mask = os.urandom(4)
        masked = bytes(byte ^ mask[i % 4] for i, byte in enumerate(payload))
        assert self.transport is not None
        self.transport.write(bytes([0x80 | opcode, 0x80 | len(payload)]) + mask + masked)

    def close(self) -> None:
        if self.transport is not None:
            self.transport.close()


KINDS: dict[str, type[LibraryViewer] | type[ThinViewer]] = {
    "websockets": LibraryViewer,
    "thin": ThinViewer,
    "hall": HallViewer,
}


async def watch(port: int, paths: list[str], kind: str) -> None:
    viewers = [KINDS[kind](path) for path in paths]
    for first in range(0, len(viewers), CONNECT_AT_ONCE):
        batch = viewers[first : first + CONNECT_AT_ONCE]
        await asyncio.wait_for(
            asyncio.gather(*(viewer.open(port) for viewer in batch)), CONNECT_SECONDS
        )
    # The client is the instrument: its sockets' objects stay out of the collector's full
    # passes, whose pauses would pass for latency.
    gc.collect()
    gc.freeze()
    print(json.dumps({"ready": len(viewers)}), flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)  # "report"
    print(json.dumps({"viewers": [viewer.report() for viewer in viewers]}), flush=True)
    for viewer in viewers:
        viewer.close()


def main() -> None:
    order = json.loads(sys.stdin.readline())
    asyncio.run(watch(order["port"], order["paths"], order["kind"]))


if __name__ == "__main__":
    main()
