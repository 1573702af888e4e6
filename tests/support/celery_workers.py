"""Real processes for the slow standings tests: a server, Celery workers and a redis-server.

Each shares the test's database (the test must use `event_db`, so its transactions
commit) and is stopped when its block ends, whatever happens.
"""

from __future__ import annotations

import os
import secrets
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.support.servers import database_url, serving

ROOT = Path(__file__).resolve().parents[2]
STARTUP_S = 60.0


def environment(redis_url: str, **extra: str) -> dict[str, str]:
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "carambole.settings",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "DATABASE_URL": database_url(),
        "REDIS_URL": redis_url,
        "SECURE_SSL_REDIRECT": "0",
        "PROJECTOR_SWEEP_SECONDS": "2",
        **extra,
    }


def stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@contextmanager
def server(redis_url: str) -> Iterator[int]:
    """Serve carambole on a free loopback port, its sweep every 2 s; yield the port."""
    with serving(redis_url, environ={"PROJECTOR_SWEEP_SECONDS": "2"}) as served:
        yield served.port


class Worker:
    """A `celery -A carambole worker -B` process, its log kept for the test to read."""

    def __init__(self, redis_url: str, schedule: Path, **extra: str) -> None:
        self.lines: list[str] = []
        self.process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "carambole", "worker", "-B"]
            + ["--schedule", str(schedule), "--concurrency", "1", "--loglevel", "INFO"]
            + ["--without-gossip", "--without-mingle", "--without-heartbeat"]
            # What the test process enqueued before (its own recordings) is done already.
            + ["--purge"],
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
        stop(self.process)
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
def worker(redis_url: str, schedule: Path, **extra: str) -> Iterator[Worker]:
    started = Worker(redis_url, schedule, **extra)
    try:
        started.wait_for("ready.")
        yield started
    finally:
        started.stop()
