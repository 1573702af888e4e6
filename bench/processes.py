"""Start and stop the processes the bench and the tests run: uvicorn, Celery, Redis.

One copy of the plumbing both need: a free loopback port, waiting until a process
listens on it, stopping one for sure, carambole's environment when served as in
production, and each program's command line. It lives in `bench` because the bench may
not import the tests while the tests may import the bench (tests/support/servers.py
and celery_workers.py build on it); the application itself never starts a server.
"""

from __future__ import annotations

import os
import secrets
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Generous: a server that starts in a second on a quiet machine takes a minute on a loaded one.
STARTUP_S = 180.0
APPLICATION = "carambole.asgi:application"


def free_port() -> int:
    """Return a loopback port no process listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def listening(port: int) -> bool:
    """Return whether a process accepts connections on this loopback port."""
    try:
        socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
    except OSError:
        return False
    return True


def wait_for_port(
    port: int,
    process: subprocess.Popen,
    what: str,
    log: Callable[[], str] | None = None,
    timeout: float = STARTUP_S,
) -> None:
    """Return once `process` listens on `port`; fail with what it said if it exits or never does."""
    deadline = time.monotonic() + timeout
    while not listening(port):
        if process.poll() is not None:
            said = log() if log else process.stderr.read() if process.stderr else ""
            raise RuntimeError(f"{what} exited: {said}")
        if time.monotonic() > deadline:
            raise RuntimeError(f"{what} did not listen on {port} within {timeout} s")
        time.sleep(0.1)


def stop(process: subprocess.Popen, timeout: float = 10) -> None:
    """Ask a process to end (SIGTERM), kill it if it has not within `timeout` s, and reap it."""
    if process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def served_environ(database_url: str, redis_url: str | None, **extra: str) -> dict[str, str]:
    """Return the environment of carambole served as in production on this database.

    A key of its own, plain HTTP (the tests and the bench speak it on loopback), Redis
    only when given one: the caller's own `REDIS_URL` is never passed on by mistake. Its
    sockets unbounded by number (carambole/admission.py): every viewer of the bench and
    the tests comes from the one loopback address, thousands of them at once.
    """
    environ = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "carambole.settings",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "DATABASE_URL": database_url,
        "SECURE_SSL_REDIRECT": "0",
        "SOCKETS_PER_ADDRESS_PER_SECOND": "0",
        "SOCKETS_PER_PROCESS": "0",
        **extra,
    }
    environ.pop("REDIS_URL", None)
    if redis_url:
        environ["REDIS_URL"] = redis_url
    return environ


def uvicorn_command(port: int, *options: str) -> list[str]:
    """Return uvicorn's command line on this loopback port (the application to append)."""
    return [sys.executable, "-m", "uvicorn", "--host", "127.0.0.1", "--port", str(port), *options]


def celery_worker_command(schedule: Path) -> list[str]:
    """Return the command line of one Celery worker with its beat, nothing left queued."""
    return (
        [sys.executable, "-m", "celery", "-A", "carambole", "worker", "-B"]
        + ["--schedule", str(schedule), "--concurrency", "1", "--loglevel", "INFO"]
        + ["--without-gossip", "--without-mingle", "--without-heartbeat"]
        # What was enqueued before the worker started (the caller's own recordings) is done.
        + ["--purge"]
    )


def redis_server_command(binary: str, port: int) -> list[str]:
    """Return the command line of a throwaway redis-server on this loopback port."""
    return [binary, "--bind", "127.0.0.1", "--port", str(port), "--save", "", "--appendonly", "no"]


@contextmanager
def running(
    command: list[str],
    environ: dict[str, str],
    port: int,
    timeout: float = STARTUP_S,
    cwd: Path = ROOT,
) -> Iterator[subprocess.Popen[str]]:
    """Run a server process until the block ends; fail with its last words if it dies.

    From `cwd`, this checkout unless told otherwise (a bench of another one's code).
    """
    with tempfile.TemporaryFile("w+") as errors:
        process = subprocess.Popen(
            command, cwd=cwd, env=environ, stdout=subprocess.DEVNULL, stderr=errors, text=True
        )

        def said() -> str:
            errors.seek(0)
            return errors.read()[-2000:]

        try:
            wait_for_port(port, process, command[2], said, timeout)
            yield process
        finally:
            stop(process)
