"""The soak's processes: servers stopped and started again on their ports, the Celery
worker, and the viewers' process, asked for its viewers' reports as often as need be."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from bench import processes
from bench.fanout import SERVE
from bench.processes import free_port, uvicorn_command, wait_for_port
from bench.viewers import clock

STOPPING_S = 2  # uvicorn's graceful shutdown: open sockets are closed, requests finish


class Restartable:
    """A server process on a port of its own, stopped and started again on the same port."""

    def __init__(self, what: str, command: list[str], environ: dict[str, str], port: int):
        self.what = what
        self.command = command
        self.environ = environ
        self.port = port
        self.process: subprocess.Popen[str] | None = None
        # Appended to by every start: a pipe nobody reads would stall the process once full.
        self.errors = tempfile.TemporaryFile("a+", encoding="utf-8")

    def start(self) -> None:
        self.process = subprocess.Popen(
            self.command,
            cwd=processes.ROOT,
            env=self.environ,
            stdout=subprocess.DEVNULL,
            stderr=self.errors,
            text=True,
        )
        wait_for_port(self.port, self.process, self.what, self.log)

    def stop(self) -> None:
        process, self.process = self.process, None
        if process is not None:
            processes.stop(process)

    def restart(self, down_s: float) -> dict[str, float]:
        """Stop, stay down `down_s`, start again; return when it began and how long it took."""
        at = clock()
        self.stop()
        time.sleep(down_s)
        self.start()
        return {"at_s": at, "took_s": round(clock() - at, 2)}

    def written(self) -> str:
        """Return what the process wrote to its standard error, every start's."""
        self.errors.flush()
        self.errors.seek(0)
        return self.errors.read()

    def log(self) -> str:
        return self.written()[-2000:]


@contextmanager
def restartable(what: str, command: list[str], environ: dict[str, str]) -> Iterator[Restartable]:
    """Run a server until the block ends; its port is the one after `--port` in `command`."""
    port = int(command[command.index("--port") + 1])
    server = Restartable(what, command, environ, port)
    try:
        server.start()
        yield server
    finally:
        server.stop()
        server.errors.close()


def uvicorn_serving() -> list[str]:
    """Return the command line of a uvicorn serving carambole on a free port."""
    stopping = ("--timeout-graceful-shutdown", str(STOPPING_S))
    return [*uvicorn_command(free_port(), *SERVE, *stopping), processes.APPLICATION]


@contextmanager
def worker(environ: dict[str, str]) -> Iterator[subprocess.Popen[bytes]]:
    with tempfile.TemporaryDirectory(prefix="carambole-soak-beat-") as directory:
        command = processes.celery_worker_command(Path(directory) / "schedule")
        worker = subprocess.Popen(
            command,
            cwd=processes.ROOT,
            env=environ,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            yield worker
        finally:
            processes.stop(worker)


# -- The viewers' process ---------------------------------------------------------------------


class Pages:
    """The viewers' process: asked for every viewer's report, as often as need be."""

    def __init__(self, process: subprocess.Popen[str]) -> None:
        self.process = process

    def report(self) -> list[dict[str, Any]]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write("report\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError("the soak's viewers ended before their report")
        reports: list[dict[str, Any]] = json.loads(line)["viewers"]
        return reports


@contextmanager
def viewers(order: dict[str, Any]) -> Iterator[Pages]:
    """Open every viewer of the order in a process of their own; yield once all are open."""
    process = subprocess.Popen(
        [sys.executable, "-m", "bench.soak_viewers"],
        cwd=processes.ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdin is not None and process.stdout is not None
    try:
        process.stdin.write(json.dumps(order) + "\n")
        process.stdin.flush()
        line = process.stdout.readline()
        if not line or "ready" not in json.loads(line):
            raise RuntimeError(f"the soak's viewers could not connect: {line!r}")
        yield Pages(process)
    finally:
        process.stdin.close()  # its end: the viewers close their sockets and leave
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        process.stdout.close()
