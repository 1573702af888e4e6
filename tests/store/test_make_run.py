"""`make run` as a newcomer uses it: serve, refuse a second one on the port, stop, start again.

Slow: each test starts the real command (`manage.py run_demo`, what `make run` runs once
migrated) on a database file of its own and a free port. The journeys go further.
"""

from __future__ import annotations

import http.cookiejar
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from contextlib import AbstractContextManager
from pathlib import Path

import pytest
from websockets.sync.client import connect as websocket

from bench import processes
from matches.management.commands.run_demo import address_taken
from tests.support.servers import ROOT, free_port

# Migrating a new database and loading the demo before serving: minutes on a loaded machine.
MIGRATE_AND_DEMO_S = 600.0

pytestmark = pytest.mark.slow

STOP_S = 120.0  # how long a test waits for a server to stop once told (a loaded machine)


def environment(database: Path) -> dict[str, str]:
    """Return the environment of `make run`, on this SQLite file."""
    return {
        **{k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")},
        "DJANGO_DEBUG": "1",
        "DATABASE_URL": f"sqlite:///{database}",
    }


@pytest.fixture(scope="module")
def migrated(tmp_path_factory) -> Path:
    """A database file migrated once, for each test to copy (a migration takes seconds)."""
    database = tmp_path_factory.mktemp("migrated") / "db.sqlite3"
    done = manage(environment(database), "migrate", "--no-input")
    assert done.returncode == 0, done.stderr
    return database


@pytest.fixture
def environ(migrated: Path, tmp_path: Path) -> dict[str, str]:
    """The environment of `make run`, on a migrated database file of this test's own."""
    database = tmp_path / "db.sqlite3"
    for suffix in ("", "-wal"):  # a write-ahead log left open holds part of the database
        if Path(f"{migrated}{suffix}").exists():
            shutil.copyfile(f"{migrated}{suffix}", f"{database}{suffix}")
    return environment(database)


def manage(env: dict[str, str], *arguments: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", *arguments],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def running(env: dict[str, str], port: int) -> AbstractContextManager[subprocess.Popen[str]]:
    """Run `manage.py run_demo --port PORT` until the test is done with it."""
    command = [sys.executable, "manage.py", "run_demo", "--port", str(port), "--matches", "1"]
    return processes.running(command, env, port, timeout=MIGRATE_AND_DEMO_S)


def stopped_by_sigterm(process: subprocess.Popen) -> int:
    process.send_signal(signal.SIGTERM)
    return process.wait(timeout=STOP_S)


def logged_in_opener(port: int, username: str, password: str) -> urllib.request.OpenerDirector:
    """Log in through the login page, as a browser does; return an opener with its cookies."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(
        urllib.request.ProxyHandler({}), urllib.request.HTTPCookieProcessor(jar)
    )
    login = f"http://127.0.0.1:{port}/login/"
    page = opener.open(login, timeout=30).read().decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    form = {"csrfmiddlewaretoken": token, "username": username, "password": password}
    opener.open(
        urllib.request.Request(login, data=urllib.parse.urlencode(form).encode(), method="POST"),
        timeout=30,
    )
    return opener


def console_url(port: int) -> str:
    return f"http://127.0.0.1:{port}/referee/matches/demo-live-1/"


def test_make_runs_command_serves_a_page_and_a_match_socket_sends_its_state(environ):
    port = free_port()
    board = f"http://127.0.0.1:{port}/matches/demo-live-1/"
    with running(environ, port):
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        with opener.open(board, timeout=30) as page:
            status, html = page.status, page.read().decode()
        address = f"ws://127.0.0.1:{port}/ws/matches/demo-live-1/?after=0"
        with websocket(address, proxy=None, open_timeout=30) as watching:
            first = json.loads(watching.recv(timeout=30))
            while first["type"] != "event":  # the clock's `head` may come first
                first = json.loads(watching.recv(timeout=30))

    assert status == 200
    assert "demo-live-1" in html
    assert (first["type"], first["seq"]) == ("event", 1)
    assert first["state"], "the first event came without the state after it"


@pytest.mark.journey  # the demo served twice, logged in across a restart
def test_a_second_run_is_refused_sigterm_frees_the_port_and_the_referee_stays_logged_in(environ):
    port = free_port()
    with running(environ, port) as served:
        second = manage(environ, "run_demo", "--port", str(port), "--matches", "1")
        referee = logged_in_opener(port, "demo-referee", "demo-referee-pass")
        assert referee.open(console_url(port), timeout=30).url == console_url(port)
        stopped_by_sigterm(served)  # within STOP_S, or the test fails

    # A second run on the taken port said so, and was refused before loading anything.
    assert second.returncode != 0
    assert f"port {port} on 127.0.0.1 is taken" in second.stderr
    assert f"make run PORT={port + 1}" in second.stderr
    assert "demo match" not in second.stdout

    with running(environ, port):  # the port is free again
        answer = referee.open(console_url(port), timeout=30)

    assert answer.url == console_url(port), "the restart sent the referee to the login page"
    assert "demo-live-1" in answer.read().decode()


@pytest.mark.journey  # `make run` itself
def test_make_run_serves_on_the_port_it_is_given_and_a_sigterm_to_make_stops_it(environ):
    port = free_port()
    command = ["make", "--no-print-directory", "run", f"PORT={port}"]
    with processes.running(command, environ, port, timeout=MIGRATE_AND_DEMO_S) as make:
        make.send_signal(signal.SIGTERM)
        make.wait(timeout=STOP_S)
        # make passed the signal on: nothing serves on the port any more.
        deadline = time.monotonic() + STOP_S
        while address_taken("127.0.0.1", port) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not address_taken("127.0.0.1", port), "the server outlived make"
