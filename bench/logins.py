"""Recording under a login attack: a referee's shots through the API while six clients guess.

uvicorn serves carambole (as in production) on a throwaway SQLite database, with Redis
when `REDIS_URL` is set. A referee records shots on a match through the REST API with
a token, one after another, first alone (idle) and then while six clients, each from a
loopback address of its own, post wrong passwords to `/login/` as fast as they are
answered. Passwords are hashed as in production: Django's PBKDF2 at its full count.

Two attacks. On the referee's account, with the documented limits: the throttle ends
it after the account's ten failures. And the worst case, the limits raised so that
every attempt is hashed (what an attack from many addresses on many accounts comes
to): then only the bound on password checks at once, and their priority, keep the
recording's CPU. The figure: the referee's p99 under attack over its idle p99 (target:
at most 1.5).
"""

from __future__ import annotations

import http.client
import json
import re
import secrets
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, TextIO
from urllib.parse import urlencode

from django.contrib.auth import get_user_model

from bench.database import throwaway_sqlite
from bench.fanout import SERVE, STARTUP_S, percentile, served_environ
from bench.processes import free_port, running, uvicorn_command
from bench.recording import QUIET, opened_match
from replay.api.tokens import token_issue

TARGET = 1.5  # the referee's p99 under attack / its p99 idle
MATCH = "bench-logins"
REFEREE = "bench-referee"
OPENED_SEQ = 3
WARM_UP_SHOTS = 10
ATTACK_SETTLE_S = 1.0  # for every attacker to have a guess in flight before timing starts
UNLIMITED = {
    "LOGIN_FAILURES_PER_ACCOUNT": "1000000",
    "LOGIN_FAILURES_PER_ADDRESS": "1000000",
}
SCENARIOS = {
    "one_account_documented_limits": {},
    "every_attempt_hashed": UNLIMITED,
}


@dataclass(frozen=True)
class LoginsOptions:
    shots: int = 300  # timed in each phase (of 300, the p99 is the third slowest)
    shot_pace_s: float = 0.02
    phase_s: float = 60.0  # at most, each phase: fewer shots on a machine that slow
    attackers: int = 6
    redis_url: str | None = None


def run_logins(options: LoginsOptions, log: TextIO = sys.stderr) -> dict[str, Any]:
    """Measure the referee's recording idle and under each attack; return the figures."""
    directory = Path(tempfile.mkdtemp(prefix="carambole-logins-"))
    path = directory / "logins.sqlite3"
    results: dict[str, Any] = {}
    try:
        with throwaway_sqlite(path):
            key = token_issue(REFEREE).key
            opened_match(MATCH, OPENED_SEQ)
            referee = get_user_model().objects.get(username=REFEREE)
            referee.set_password(secrets.token_urlsafe(16))  # the real hasher, as deployed
            referee.save()
            recorder = Referee(key)
            for scenario, limits in SCENARIOS.items():
                print(f"logins under attack: {scenario}", file=log)
                results[scenario] = _scenario(path, recorder, limits, options)
    finally:
        for child in directory.iterdir():
            child.unlink()
        directory.rmdir()
    for figures in results.values():
        figures["p99_ratio"] = round(figures["attacked_p99_ms"] / figures["idle_p99_ms"], 2)
        figures["meets_target"] = figures["p99_ratio"] <= TARGET
    return {
        "scenarios": results,
        "target": TARGET,
        "options": asdict(options) | {"redis_url": bool(options.redis_url)},
    }


def _scenario(
    path: Path, referee: Referee, limits: dict[str, str], options: LoginsOptions
) -> dict[str, Any]:
    with _server(path, options.redis_url, limits) as port:
        referee.connect(port)
        referee.record(WARM_UP_SHOTS, options.shot_pace_s, options.phase_s)
        # A server that has served logins before: what a first login loads, once, is not timed.
        warm = threading.Event()
        warm.set()
        _guess(port, "127.0.0.250", warm, Counter(), once=True)
        idle = referee.record(options.shots, options.shot_pace_s, options.phase_s)
        stop = threading.Event()
        answers: list[Counter[str]] = [Counter() for _ in range(options.attackers)]
        attackers = [
            threading.Thread(target=_guess, args=(port, f"127.0.0.{2 + n}", stop, answers[n]))
            for n in range(options.attackers)
        ]
        for attacker in attackers:
            attacker.start()
        time.sleep(ATTACK_SETTLE_S)
        attacked = referee.record(options.shots, options.shot_pace_s, options.phase_s)
        stop.set()
        referee.close()
    for attacker in attackers:  # the server is gone: a guess still waiting fails at once
        attacker.join(timeout=30)
    return {
        "shots": [len(idle), len(attacked)],
        **_figures("idle", idle),
        **_figures("attacked", attacked),
        "guesses": dict(sorted(sum(answers, Counter()).items())),
        "errors": referee.errors,
    }


def _figures(phase: str, seconds: list[float]) -> dict[str, float]:
    return {
        f"{phase}_p50_ms": round(statistics.median(seconds) * 1000, 1),
        f"{phase}_p99_ms": round(percentile(seconds, 99) * 1000, 1),
    }


class Referee:
    """Records shots on the bench's match through the API, timing each, on one connection."""

    def __init__(self, key: str) -> None:
        self.key = key
        self.seq = OPENED_SEQ
        self.errors = 0
        self.connection: http.client.HTTPConnection | None = None

    def connect(self, port: int) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()

    def record(self, shots: int, pace_s: float, most_s: float) -> list[float]:
        """Record `shots` shots `pace_s` apart (or as many as `most_s` allows); time each."""
        assert self.connection is not None
        # Anew: the server ends a connection idle for 5 s (a login hashed on a loaded machine
        # between two phases takes longer), and sending on it would break the pipe.
        self.connection.close()
        headers = {"Content-Type": "application/json", "Authorization": f"Token {self.key}"}
        timed: list[float] = []
        deadline = time.monotonic() + most_s
        while len(timed) < shots and time.monotonic() < deadline:
            body = json.dumps({"expected_seq": self.seq, "event": {"type": "shot", **QUIET}})
            started = time.perf_counter()
            self.connection.request("POST", f"/api/matches/{MATCH}/events", body, headers)
            answer = self.connection.getresponse()
            answer.read()
            timed.append(time.perf_counter() - started)
            if answer.status == 201:
                self.seq += 1
            else:
                self.errors += 1
            time.sleep(pace_s)
        return timed


def _guess(
    port: int, address: str, stop: threading.Event, answers: Counter[str], once: bool = False
) -> None:
    """Post wrong passwords for the referee from one address until told to stop; count answers."""
    connection = http.client.HTTPConnection(
        "127.0.0.1", port, timeout=120, source_address=(address, 0)
    )
    try:
        connection.request("GET", "/login/")
        form = connection.getresponse()
        page = form.read().decode()
        csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
        cookie = form.headers.get("Set-Cookie", "").split(";")[0]
        if csrf is None or not cookie:
            raise RuntimeError(f"no login form at /login/: {form.status}")
        headers = {"Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie}
        while once or not stop.is_set():
            guess = {"csrfmiddlewaretoken": csrf.group(1), "username": REFEREE}
            guess["password"] = secrets.token_urlsafe(12)
            connection.request("POST", "/login/", urlencode(guess), headers)
            answer = connection.getresponse()
            answer.read()
            answers[str(answer.status)] += 1
            if once:
                return
    except (OSError, http.client.HTTPException):
        if not stop.is_set():
            raise
    finally:
        connection.close()


@contextmanager
def _server(path: Path, redis_url: str | None, limits: dict[str, str]) -> Iterator[int]:
    port = free_port()
    environ = served_environ(path, redis_url, SECURE_COOKIES="0", **limits)
    command = uvicorn_command(port, *SERVE)
    command += ["--timeout-graceful-shutdown", "1"]  # the guesses still waiting are dropped
    with running([*command, "carambole.asgi:application"], environ, port, STARTUP_S):
        yield port


def table(results: dict[str, Any]) -> list[str]:
    """Return the figures as the bench's table prints them."""
    options = results["options"]
    lines = [
        f"(l) a referee's shots recorded through the API, alone and while {options['attackers']} "
        f"clients post wrong passwords (PBKDF2 as deployed), p50 and p99 (target: p99 <= "
        f"{results['target']}x idle)"
    ]
    for scenario, figures in results["scenarios"].items():
        guesses = ", ".join(
            f"{count} answered {status}" for status, count in figures["guesses"].items()
        )
        over = "" if figures["meets_target"] else " (over)"
        lines.append(
            f"  {scenario:<32}idle p50 {figures['idle_p50_ms']:>5.1f} ms "
            f"p99 {figures['idle_p99_ms']:>6.1f} ms  "
            f"attacked p50 {figures['attacked_p50_ms']:>5.1f} ms "
            f"p99 {figures['attacked_p99_ms']:>6.1f} ms  {figures['p99_ratio']}x idle{over}"
        )
        idle, attacked = figures["shots"]
        lines.append(
            f"    shots timed: {idle} idle, {attacked} attacked; guesses: {guesses}; "
            f"recording errors: {figures['errors']}"
        )
    return lines
