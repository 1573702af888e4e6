"""Websocket churn: a server's memory after many sockets opened and closed, beside after the first.

Viewers come and go all day (a page opened, a phone locked, a network that drops); each
socket a server closed must leave nothing behind. Here sockets are opened in turn on a
match's board, its competition's hall and its standings, each served its first message
and closed, `AT_ONCE` at a time, and the server process's
resident memory (RSS, from `/proc`) is read after the first `FIRST` cycles and after
each `FIRST` more (the channel layer is Redis when `REDIS_URL` is set). The figure that
counts is the last reading over the first (target: at most `TARGET`): flat, whatever
the count.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path
from typing import Any, TextIO

from django.conf import settings
from websockets.asyncio.client import connect

from bench.database import throwaway_sqlite
from bench.fanout import OPENED_SEQ, open_matches, serve
from matches import services

TARGET = 1.2  # RSS after every cycle / RSS after the first FIRST
FIRST = 1_000  # cycles before the first reading, and between two readings
AT_ONCE = 8  # sockets open at a time
COMPETITION = "bench-churn"
CYCLE_SECONDS = 30.0  # the longest one cycle may take on a loaded machine


def run_churn(cycles: int, log: TextIO = sys.stderr) -> dict[str, Any]:
    """Serve carambole as in production and churn sockets on a match, its hall and its
    standings; return the figures."""
    directory = Path(tempfile.mkdtemp(prefix="carambole-churn-"))
    path = directory / "churn.sqlite3"
    try:
        with throwaway_sqlite(path):
            (match_id,) = open_matches("churn", 1, COMPETITION)
            services.tables_set(competition_id=COMPETITION, names=["1"], by="bench")
            services.match_assign_table(match_id=match_id, table="1", by="bench")
            paths = [
                f"/ws/matches/{match_id}/?after={OPENED_SEQ - 1}",
                f"/ws/competitions/{COMPETITION}/hall/",
                f"/ws/competitions/{COMPETITION}/",
            ]
            with serve(path, settings.REDIS_URL) as (port, server):
                print(f"websocket churn: {cycles:,} sockets opened and closed", file=log)
                return churn(port, server.pid, paths, cycles)
    finally:
        for child in directory.iterdir():
            child.unlink()
        directory.rmdir()


def table(figures: dict[str, Any]) -> list[str]:
    """Return the churn figures as the bench's table prints them."""
    verdict = "PASS" if figures["meets_target"] else "ABOVE TARGET"
    readings = ", ".join(f"{int(count):,}: {mb:.0f}" for count, mb in figures["rss_mb"].items())
    return [
        f"(w) websocket churn: {figures['cycles']:,} sockets opened and closed, "
        f"{figures['at_once']} at a time, on a board, a hall and standings in turn "
        "(server RSS, MB, after each thousand)",
        f"  {readings}",
        f"  after all / after the first {FIRST:,}: {figures['ratio']:.2f} "
        f"(target <= {figures['target']}: {verdict})",
    ]


def rss_bytes(pid: int) -> int:
    """Return a process's resident memory, as Linux counts it."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError(f"no VmRSS for process {pid}")


def churn(port: int, pid: int, paths: list[str], cycles: int) -> dict[str, Any]:
    """Open and close `cycles` sockets on the paths in turn, reading the server's RSS every
    FIRST."""
    readings = []
    done = 0
    urls = [f"ws://127.0.0.1:{port}{path}" for path in paths]
    while done < cycles:
        step = min(FIRST, cycles - done)
        asyncio.run(_cycles(urls, step))
        done += step
        readings.append((done, rss_bytes(pid)))
    first, last = readings[0][1], readings[-1][1]
    return {
        "cycles": cycles,
        "at_once": AT_ONCE,
        "rss_mb": {str(count): round(rss / 2**20, 1) for count, rss in readings},
        "first_mb": round(first / 2**20, 1),
        "last_mb": round(last / 2**20, 1),
        "ratio": round(last / first, 3),
        "target": TARGET,
        "meets_target": last / first <= TARGET,
    }


async def _cycles(urls: list[str], count: int) -> None:
    """Open `count` sockets on the urls in turn, `AT_ONCE` at a time, each until its first
    message."""
    left = iter(range(count))

    async def one_after_another() -> None:
        for number in left:
            url = urls[number % len(urls)]
            async with connect(url, proxy=None, compression=None) as socket:
                await asyncio.wait_for(socket.recv(), CYCLE_SECONDS)

    await asyncio.gather(*(one_after_another() for _ in range(AT_ONCE)))
