"""Throttled logins and tokens on a served carambole: the embedded cache, and Redis shared by two.

Each client speaks from a loopback address of its own (127.x.y.z), as strangers on the
network would. The servers hash with a hasher that notes each hash in a file, so a test
sees that a refused attempt computes none.
"""

from __future__ import annotations

import http.client
import json
import re
import secrets
import time
from contextlib import ExitStack
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any, NamedTuple
from urllib.parse import urlencode

import pytest
from django.contrib.auth import get_user_model

from replay.api.tokens import token_issue
from tests.support.servers import serving

# Journeys: each waits out a login window on a real server.
pytestmark = [pytest.mark.slow, pytest.mark.journey, pytest.mark.usefixtures("event_db")]
PASSWORD = "a long enough password"
TOKEN_HEADER = "Authorization"


class Answer(NamedTuple):
    status: int
    headers: http.client.HTTPMessage
    body: str


class Client:
    """A browser or program at one loopback address, keeping its cookies, asking servers in turn."""

    def __init__(self, ports: list[int], address: str) -> None:
        self.ports = ports
        self.address = address
        self.cookies: dict[str, str] = {}
        self.asked = 0

    def ask(self, method: str, path: str, body: str = "", **headers: str) -> Answer:
        port = self.ports[self.asked % len(self.ports)]
        self.asked += 1
        connection = http.client.HTTPConnection(
            "127.0.0.1", port, timeout=60, source_address=(self.address, 0)
        )
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        try:
            connection.request(method, path, body, headers)
            answer = connection.getresponse()
            read = answer.read().decode()
        finally:
            connection.close()
        for line in answer.headers.get_all("Set-Cookie") or []:
            for name, morsel in SimpleCookie(line).items():
                self.cookies[name] = morsel.value
        return Answer(answer.status, answer.headers, read)

    def log_in(self, username: str, password: str) -> Answer:
        form = self.ask("GET", "/login/")
        csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form.body).group(1)
        body = urlencode({"csrfmiddlewaretoken": csrf, "username": username, "password": password})
        return self.ask(
            "POST", "/login/", body, **{"Content-Type": "application/x-www-form-urlencoded"}
        )

    def read_matches(self, key: str) -> Answer:
        return self.ask("GET", "/api/matches/", **{TOKEN_HEADER: f"Token {key}"})


def addresses() -> Any:
    """Yield loopback addresses no other test uses (a Redis may outlive a test's server)."""
    base = f"127.{secrets.randbelow(200) + 20}.{secrets.randbelow(250) + 1}"
    for last in range(1, 255):
        yield f"{base}.{last}"


def hashes(log: Path) -> int:
    return len(log.read_text().splitlines())


def served(stack: ExitStack, log: Path, count: int, redis_url: str | None, **limits: int) -> list:
    """Serve carambole `count` times (sharing one key) with these limits; return the ports."""
    environ = {
        "DJANGO_SETTINGS_MODULE": "tests.support.counted_settings",
        "CARAMBOLE_HASH_LOG": str(log),
        "SECRET_KEY": secrets.token_urlsafe(50),  # each server reads the others' signed cookies
        **{name: str(value) for name, value in limits.items()},
    }
    return [stack.enter_context(serving(redis_url, environ=environ)).port for _ in range(count)]


@pytest.fixture(params=["memory", "redis"])
def cache_of(request) -> tuple[str | None, int]:
    """The embedded default (one server, its memory), or Redis shared by two servers."""
    if request.param == "memory":
        return None, 1
    return request.getfixturevalue("redis_url"), 2


def test_each_limit_ends_in_429_with_retry_after_and_no_more_hashing(cache_of, tmp_path):
    redis_url, count = cache_of
    log = tmp_path / "hashes"
    log.touch()
    referee, staff = f"petrenko-{secrets.token_hex(4)}", f"federation-{secrets.token_hex(4)}"
    users = get_user_model()
    users.objects.create_user(referee, password=PASSWORD)
    users.objects.create_user(staff, password=PASSWORD, is_staff=True)
    key = token_issue(staff).key
    here = addresses()
    with ExitStack() as stack:
        ports = served(
            stack,
            log,
            count,
            redis_url,
            THROTTLE_WINDOW_SECONDS=600,
            LOGIN_FAILURES_PER_ACCOUNT=3,
            LOGIN_FAILURES_PER_ADDRESS=5,
            TOKEN_FAILURES_PER_ADDRESS=4,
        )
        tablet, stranger, another = (Client(ports, next(here)) for _ in range(3))
        assert tablet.log_in(referee, PASSWORD).status == 302

        # Per account: three wrong passwords are checked, each with its hash ...
        for tried in range(1, 4):
            assert stranger.log_in(referee, "wrong").status == 200
            assert hashes(log) == 1 + tried
        # ... then the account is refused, from any address, hashing nothing.
        refused = [stranger.log_in(referee, "wrong"), another.log_in(referee, PASSWORD)]
        for answer in refused:
            assert answer.status == 429
            assert 0 < int(answer.headers["Retry-After"]) <= 600
            assert "Too many failed logins" in answer.body
        assert hashes(log) == 4
        # The referee's own tablet, which logged in to it before, still logs in.
        assert tablet.log_in(referee, PASSWORD).status == 302
        assert hashes(log) == 5

        # Per address: five wrong logins for five accounts, then that address is refused.
        guesser = Client(ports, next(here))
        for number in range(5):
            assert guesser.log_in(f"nobody-{number}", "wrong").status == 200
        assert hashes(log) == 10
        assert guesser.log_in(staff, PASSWORD).status == 429
        assert hashes(log) == 10
        assert Client(ports, next(here)).log_in(staff, PASSWORD).status == 302

        # Random tokens: four answered 401, then 429, in the API's shape; a valid one passes.
        flooder = Client(ports, next(here))
        for _ in range(4):
            assert flooder.read_matches(secrets.token_urlsafe(32)).status == 401
        flooded = flooder.read_matches(secrets.token_urlsafe(32))
        assert flooded.status == 429 and 0 < int(flooded.headers["Retry-After"]) <= 600
        error = json.loads(flooded.body)
        assert error["field"] is None and "too many invalid tokens" in error["error"]
        assert flooder.read_matches(key).status == 200


def test_a_right_password_logs_in_once_the_window_has_ended(cache_of, tmp_path):
    redis_url, count = cache_of
    log = tmp_path / "hashes"
    log.touch()
    username = f"petrenko-{secrets.token_hex(4)}"
    get_user_model().objects.create_user(username, password=PASSWORD)
    with ExitStack() as stack:
        ports = served(
            stack, log, count, redis_url, THROTTLE_WINDOW_SECONDS=3, LOGIN_FAILURES_PER_ACCOUNT=2
        )
        referee = Client(ports, next(addresses()))
        tried = 0
        while (answer := referee.log_in(username, "wrong")).status == 200:
            tried += 1
            assert tried <= 10, "never refused"
        assert answer.status == 429

        time.sleep(int(answer.headers["Retry-After"]))

        assert referee.log_in(username, PASSWORD).status == 302
