"""Real processes for the slow standings tests: a server, Celery workers and a redis-server.

Each shares the test's database (the test must use `event_db`, so its transactions
commit) and is stopped when its block ends, whatever happens.
"""

from __future__ import annotations

import os
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from bench.processes import ROOT, celery_worker_command, served_environ, stop
from tests.support.servers import database_url, serving

STARTUP_S = 60.0
# What a worker started `holding=True` logs once a recompute holds the projector's cursor.
CURSOR_HELD = "the recompute holds the projector's cursor"
HOLDING_MODULE = "tests.support.held_cursor"


def environment(redis_url: str, **extra: str) -> dict[str, str]:
    """Return a worker's environment: the test's database, a sweep every 2 s unless told."""
    return served_environ(database_url(), redis_url, **{"PROJECTOR_SWEEP_SECONDS": "2", **extra})


class Served:
    """A server's port, and its log for the test to wait on."""

    def __init__(self, port: int, log: Callable[[], str]) -> None:
        self.port = port
        self.log = log

    def wait_for(self, words: str, timeout: float = STARTUP_S) -> None:
        """Wait for these words in the server's log (a liveness limit)."""
        deadline = time.monotonic() + timeout
        while words not in self.log():
            if time.monotonic() > deadline:
                raise RuntimeError(f"no {words!r} in the server's log:\n" + self.log()[-3000:])
            time.sleep(0.1)


@contextmanager
def server(redis_url: str) -> Iterator[Served]:
    """Serve carambole on a free loopback port, its sweep every 2 s; yield its port and log."""
    with serving(redis_url, environ={"PROJECTOR_SWEEP_SECONDS": "2"}) as served:
        yield Served(served.port, served.log)


class Worker:
    """A `celery -A carambole worker -B` process, its log kept for the test to read."""

    def __init__(
        self, redis_url: str, schedule: Path, *, holding: bool = False, **extra: str
    ) -> None:
        self.lines: list[str] = []
        command = celery_worker_command(schedule)
        if holding:
            command += ["--include", HOLDING_MODULE]
        self.process = subprocess.Popen(
            command,
            cwd=ROOT,
            env=environment(redis_url, **extra),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self.lines.append(line)

    def wait_for(self, words: str, timeout: float = STARTUP_S) -> None:
        """Wait for a line of the worker's log with these words; fail if it exits first."""
        deadline = time.monotonic() + timeout
        while not any(words in line for line in self.lines):
            if self.process.poll() is not None:
                raise RuntimeError("the worker exited:\n" + "".join(self.lines[-30:]))
            if time.monotonic() > deadline:
                raise RuntimeError(f"no {words!r} in the worker's log:\n" + "".join(self.lines))
            time.sleep(0.1)

    def kill(self) -> None:
        """Kill the worker and its pool at once, as a lost machine would."""
        for pid in children(self.process.pid):
            os.kill(pid, signal.SIGKILL)
        self.process.kill()
        self.process.wait()
        self._close()

    def stop(self) -> None:
        stop(self.process, timeout=15)
        self._close()

    def _close(self) -> None:
        self.reader.join(timeout=10)
        if self.process.stderr is not None:
            self.process.stderr.close()


def children(pid: int) -> list[int]:
    """Return the ids of a process's children (the worker's pool and its beat), from /proc."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            # The parent is the second field after the command, which is in parentheses.
            fields = stat.read_text().rpartition(")")[2].split()
        except OSError:
            continue  # it ended meanwhile
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


@contextmanager
def worker(
    redis_url: str, schedule: Path, *, holding: bool = False, **extra: str
) -> Iterator[Worker]:
    """Run a worker with its beat, ready, until the block ends; `extra` is its environment.

    `holding`: each recompute holds the projector's cursor, logs `CURSOR_HELD` and waits
    (`tests/support/held_cursor.py`), for a test to kill the worker in the middle of one.
    """
    started = Worker(redis_url, schedule, holding=holding, **extra)
    try:
        started.wait_for("ready.")
        yield started
    finally:
        started.stop()
