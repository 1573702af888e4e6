"""Real servers for the slow tests: carambole served by uvicorn on the test database.

A test that serves must use `event_db` (its transactions really commit, so the server
process sees them); on SQLite the test database is then a file (settings.py names it).
Ports, waiting and stopping are `bench/processes.py`'s, which the bench uses too.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from email.message import Message
from functools import partial
from pathlib import Path
from typing import IO, Any, NamedTuple

import pytest
from django.db import connection

from bench.processes import (
    APPLICATION,
    ROOT,
    free_port,
    redis_server_command,
    served_environ,
    stop,
    uvicorn_command,
    wait_for_port,
)


def database_url() -> str:
    """Return a URL of the database this test uses, for the servers to share it."""
    settings = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{Path(settings['NAME']).resolve()}"
    return (
        f"postgres://{settings['USER']}:{settings['PASSWORD']}@{settings['HOST'] or '127.0.0.1'}"
        f":{settings['PORT'] or 5432}/{settings['NAME']}"
    )


class Uvicorn:
    """One uvicorn process serving carambole, as production does, on a loopback port of its own.

    `stop()` and `start()` again take the server down and bring it back on the same port,
    as a hall's network that drops and returns: the pages keep their address.
    """

    def __init__(
        self,
        redis_url: str | None,
        head_seconds: int = 15,
        *options: str,
        environ: Mapping[str, str] | None = None,
        descriptors: tuple[int, int] | None = None,
    ) -> None:
        self.port = free_port()
        self.options = options
        # The server's soft and hard limits of open files; None: this process's.
        self.descriptors = descriptors
        self.environ = served_environ(
            database_url(),
            redis_url,
            DJANGO_DEBUG="0",
            LIVE_HEAD_SECONDS=str(head_seconds),
            **(environ or {}),
        )
        self.process: subprocess.Popen | None = None
        # What the server logs goes to a file: a pipe nobody reads would fill up and
        # stall the server once it had logged 64 KiB (a request, a task, a warning each).
        self.errors: IO[str] | None = None

    def command(self) -> list[str]:
        """Return the command line that serves carambole on this server's port."""
        served_as_in_production = ("--ws", "websockets-sansio", "--lifespan", "off")
        # A test stops a server often (a dropped network): requests get 2 s to finish.
        stopping = ("--timeout-graceful-shutdown", "2")
        options = (*served_as_in_production, *stopping, *self.options)
        return [*uvicorn_command(self.port, *options), APPLICATION]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        """Start serving (again) on this server's port; return once it listens."""
        if self.process is not None:
            raise RuntimeError("uvicorn is serving already")
        if self.errors is None:
            # Appending: the server's writes land at the end whatever `log()` reads.
            self.errors = tempfile.TemporaryFile("a+", encoding="utf-8")
        self.process = subprocess.Popen(
            self.command(),
            cwd=ROOT,
            env=self.environ,
            stdout=subprocess.DEVNULL,
            stderr=self.errors,
            text=True,
            # The server's limits of open files, set in it before uvicorn starts.
            preexec_fn=None
            if self.descriptors is None
            else partial(resource.setrlimit, resource.RLIMIT_NOFILE, self.descriptors),
        )
        try:
            wait_for_port(self.port, self.process, "uvicorn", self.log)
        except BaseException:
            self.stop()
            raise

    def log(self) -> str:
        """Return what the server has logged (each start's after the one before)."""
        if self.errors is None:
            return ""
        self.errors.flush()
        self.errors.seek(0)
        return self.errors.read()

    def stop(self) -> None:
        """Stop serving: open connections drop and the port refuses new ones."""
        process, self.process = self.process, None
        if process is not None:
            stop(process)

    def close(self) -> None:
        """Stop serving and forget the log."""
        self.stop()
        if self.errors is not None:
            self.errors.close()
            self.errors = None


@contextmanager
def server(
    redis_url: str | None,
    head_seconds: int = 15,
    *arguments: str,
    environ: Mapping[str, str] | None = None,
) -> Iterator[int]:
    """Serve carambole on a free loopback port; yield the port."""
    with serving(redis_url, head_seconds, *arguments, environ=environ) as served:
        yield served.port


@contextmanager
def serving(
    redis_url: str | None,
    head_seconds: int = 15,
    *arguments: str,
    environ: Mapping[str, str] | None = None,
) -> Iterator[Uvicorn]:
    """Serve carambole on a free loopback port; yield the server to stop and start."""
    served = Uvicorn(redis_url, head_seconds, *arguments, environ=environ)
    try:
        served.start()
        yield served
    finally:
        served.close()


def redis_server_binary() -> str:
    """Return the redis-server on the PATH; skip the test without one (fail it in CI)."""
    binary = shutil.which("redis-server")
    if binary is None:
        if os.getenv("CI") == "true":
            pytest.fail("CI=true but redis-server is not installed")
        pytest.skip("needs redis-server")
    return binary


@contextmanager
def own_redis(port: int) -> Iterator[subprocess.Popen]:
    """Run a redis-server of this test's own on a loopback port (never CI's)."""
    binary = redis_server_binary()
    process = subprocess.Popen(
        redis_server_command(binary, port), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        wait_for_port(port, process, "redis-server")
        yield process
    finally:
        stop(process)


def post_event(url: str, key: str, body: Mapping[str, Any], timeout: float = 30) -> Posted:
    """POST a command to a served `.../events` as a program would (a token, no proxy)."""
    request = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "Authorization": f"Token {key}"},
        method="POST",
    )
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # loopback only
    started = time.monotonic()
    with opener.open(request, timeout=timeout) as answer:
        return Posted(answer.status, json.loads(answer.read()), time.monotonic() - started)


class Posted(NamedTuple):
    """A served server's answer to a command: its status, its body, how long it took."""

    status: int
    body: Any
    seconds: float


def call(
    url: str,
    body: Any = None,
    *,
    key: str | None = None,
    headers: Mapping[str, str] | None = None,
    timeout: float = 60,
) -> Answer:
    """Send a request to a served carambole (POST with a JSON body, else GET); any status."""
    sent = {"Content-Type": "application/json"} if body is not None else {}
    if key is not None:
        sent["Authorization"] = f"Token {key}"
    request = urllib.request.Request(
        url,
        data=None if body is None else json.dumps(body).encode(),
        headers={**sent, **(headers or {})},
        method="GET" if body is None else "POST",
    )
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # loopback only
    try:
        with opener.open(request, timeout=timeout) as answer:
            return Answer(answer.status, answer.headers, answer.read())
    except urllib.error.HTTPError as error:
        return Answer(error.code, error.headers, error.read())


class Answer(NamedTuple):
    """A served server's answer: its status, its headers (any case) and its body."""

    status: int
    headers: Message
    content: bytes

    def json(self) -> Any:
        return json.loads(self.content)
