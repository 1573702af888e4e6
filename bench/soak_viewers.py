"""The soak's viewers: pages that stay open for the whole run and reconnect as the pages do.

`python -m bench.soak_viewers` reads one JSON line on standard input, `{"ports": [...],
"boards": [{"server": I, "match": ID, "after": SEQ}, ...], "halls": [{"server": I,
"competition": ID}, ...]}`, opens one socket each on 127.0.0.1 at `ports[I]`, prints
`{"ready": N}` once every socket has opened once, then answers each line `report` with
every viewer's report, until its standard input ends.

Each viewer follows its socket as the page's scripts do (`socket.js`, `live.js`,
`hall.js`): a dropped socket is opened again after 1 s, 2 s, 4 s, ... at most 10 s. A
board applies each `seq` once, asks for a `resume` from its last one when it sees a gap
(an event past the next, or a head past its last), and reconnects with `?after=` its last
`seq`. A hall keeps the last whole hall with each table's card applied on top of it, and
reconnects afresh (with `?version=` the last version it was sent, if it was sent one).
"""

from __future__ import annotations

import asyncio
import json
import sys
from abc import ABC, abstractmethod
from typing import Any

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from bench.viewers import clock

FIRST_DELAY_S = 1.0  # socket.js: FIRST_DELAY
LONGEST_DELAY_S = 10.0  # socket.js: LONGEST_DELAY
NOT_FOUND = 4404  # a close that ends the page's following for good
OPEN_TIMEOUT_S = 10.0
READY_S = 60.0  # the longest the first opening of every socket may take


def hall_applied(hall: dict[str, Any] | None, message: dict[str, Any]) -> dict[str, Any] | None:
    """Return the hall a page shows after one message, as `hall.js` applies it: a `hall`
    message is the whole hall, a `table` message replaces that table's card."""
    kind = message.get("type")
    if kind == "hall":
        return {key: value for key, value in message.items() if key != "type"}
    if kind != "table" or hall is None:
        return hall
    card = message["card"]
    if all(known["table"] != card["table"] for known in hall["tables"]):
        return hall  # a table the page does not show: left for the next whole hall
    tables = [card if known["table"] == card["table"] else known for known in hall["tables"]]
    newer: dict[str, Any] = {key: message[key] for key in ("now", "version") if key in message}
    return {**hall, **newer, "tables": tables}


def cards_shown(message: dict[str, Any]) -> list[dict[str, Any]]:
    """Return the matches (id and seq) the cards of a hall or table message show."""
    if message.get("type") == "hall":
        cards = message["tables"]
    elif message.get("type") == "table":
        cards = [message["card"]]
    else:
        return []
    return [card["match"] for card in cards if card.get("match") is not None]


class Follower(ABC):
    """One page's socket, opened again whenever it drops, as `socket.js` does."""

    kind = ""

    def __init__(self, port: int, server: int) -> None:
        self.port = port
        self.server = server
        self.connections = 0
        self.closes: list[int] = []  # each connection's close code (1006: no close frame)
        self.opened = asyncio.Event()

    @abstractmethod
    def url(self) -> str:
        """Return the address to open now (a page resumes where it is)."""

    def began(self) -> None:
        """Note that a new connection has opened."""
        self.connections += 1
        self.opened.set()

    @abstractmethod
    def handle(self, message: dict[str, Any], now: float) -> str | None:
        """Apply one message; return what to send back, if anything."""

    async def follow(self) -> None:
        """Open the socket, apply what it sends, and open it again after each drop, until
        it is closed with 4404 (nothing there to follow)."""
        delay = FIRST_DELAY_S
        while True:
            code = 1006
            try:
                async with connect(
                    self.url(),
                    proxy=None,
                    compression=None,
                    max_queue=None,
                    open_timeout=OPEN_TIMEOUT_S,
                ) as socket:
                    delay = FIRST_DELAY_S
                    self.began()
                    try:
                        async for text in socket:
                            try:
                                message = json.loads(text)
                            except ValueError:
                                continue  # skipped as the page's script skips it
                            answer = self.handle(message, clock())
                            if answer is not None:
                                await socket.send(answer)
                    except ConnectionClosed:
                        pass
                    code = socket.close_code or 1006
            except (OSError, InvalidHandshake, TimeoutError, ConnectionClosed):
                pass  # the server is away, or went while opening: tried again as the page would
            self.closes.append(code)
            if code == NOT_FOUND:
                return
            await asyncio.sleep(delay)
            delay = min(delay * 2, LONGEST_DELAY_S)

    def report(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "server": self.server,
            "connections": self.connections,
            "closes": self.closes,
        }


class Board(Follower):
    """A match board: each `seq` applied once, in order, from the `after` it opened with."""

    kind = "board"

    def __init__(self, port: int, server: int, match: str, after: int) -> None:
        super().__init__(port, server)
        self.match = match
        self.after = after
        self.last = after  # the last seq applied
        self.asked = -1  # the seq a resume was last asked after: once per gap
        self.receipts: list[tuple[int, float]] = []  # each seq applied, and when
        self.doubled = 0  # events sent again that the page had already
        self.skipped = 0  # events past the next one: something before them was not sent
        self.resumes = 0

    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws/matches/{self.match}/?after={self.last}"

    def began(self) -> None:
        super().began()
        self.asked = -1

    def handle(self, message: dict[str, Any], now: float) -> str | None:
        kind, seq = message.get("type"), message.get("seq")
        if kind == "event" and isinstance(seq, int):
            if seq <= self.last:
                self.doubled += 1
                return None
            if seq > self.last + 1:
                self.skipped += 1
                return self.ask()
            self.last, self.asked = seq, -1
            self.receipts.append((seq, now))
        elif kind == "head" and isinstance(seq, int) and seq > self.last:
            self.asked = -1  # a resume asked before may itself have been lost
            return self.ask()
        return None

    def ask(self) -> str | None:
        if self.asked == self.last:
            return None
        self.asked = self.last
        self.resumes += 1
        return json.dumps({"type": "resume", "after": self.last})

    def report(self) -> dict[str, Any]:
        return super().report() | {
            "match": self.match,
            "after": self.after,
            "last": self.last,
            "receipts": {self.match: self.receipts},
            "doubled": self.doubled,
            "skipped": self.skipped,
            "resumes": self.resumes,
        }


class Hall(Follower):
    """A competition's hall: the last whole hall with each changed card applied on top."""

    kind = "hall"

    def __init__(self, port: int, server: int, competition: str) -> None:
        super().__init__(port, server)
        self.competition = competition
        self.hall: dict[str, Any] | None = None
        self.version: int | None = None  # the last top-level version sent, if any
        self.seqs: dict[str, int] = {}  # each match's newest seq a card showed
        # Each match's seqs its cards showed anew, and when.
        self.receipts: dict[str, list[tuple[int, float]]] = {}
        self.backwards = 0  # a card's seq, or the hall's version, below one shown before

    def url(self) -> str:
        path = f"ws://127.0.0.1:{self.port}/ws/competitions/{self.competition}/hall/"
        return path if self.version is None else f"{path}?version={self.version}"

    def handle(self, message: dict[str, Any], now: float) -> str | None:
        version = message.get("version")
        if isinstance(version, int) and not isinstance(version, bool):
            if self.version is not None and version < self.version:
                self.backwards += 1
            self.version = version if self.version is None else max(version, self.version)
        for match in cards_shown(message):
            known = self.seqs.get(match["id"])
            if known is not None and match["seq"] < known:
                self.backwards += 1
            elif known is None or match["seq"] > known:
                self.seqs[match["id"]] = match["seq"]
                self.receipts.setdefault(match["id"], []).append((match["seq"], now))
        self.hall = hall_applied(self.hall, message)
        return None

    def report(self) -> dict[str, Any]:
        return super().report() | {
            "competition": self.competition,
            "hall": self.hall,
            "version": self.version,
            "seqs": self.seqs,
            "receipts": self.receipts,
            "backwards": self.backwards,
        }


def followers(order: dict[str, Any]) -> list[Follower]:
    """Return the viewers an order names, none opened yet."""
    ports = order["ports"]
    boards: list[Follower] = [
        Board(ports[board["server"]], board["server"], board["match"], board["after"])
        for board in order["boards"]
    ]
    halls: list[Follower] = [
        Hall(ports[hall["server"]], hall["server"], hall["competition"]) for hall in order["halls"]
    ]
    return boards + halls


async def watch(order: dict[str, Any]) -> None:
    viewers = followers(order)
    tasks = [asyncio.create_task(viewer.follow()) for viewer in viewers]
    await asyncio.wait_for(asyncio.gather(*(viewer.opened.wait() for viewer in viewers)), READY_S)
    print(json.dumps({"ready": len(viewers)}), flush=True)
    loop = asyncio.get_running_loop()
    while (line := await loop.run_in_executor(None, sys.stdin.readline)) != "":
        if line.strip() == "report":
            reports = [viewer.report() for viewer in viewers]
            print(json.dumps({"viewers": reports}), flush=True)
    for task in tasks:
        task.cancel()


def main() -> None:
    asyncio.run(watch(json.loads(sys.stdin.readline())))


if __name__ == "__main__":
    main()
