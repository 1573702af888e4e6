"""Throttled logins: the rule of the counts, the refusal's page, and where passwords are hashed.

These run in the test process (its cache in memory); tests/test_logins_served.py asks a
served carambole, on each kind of cache, the same questions and counts its hashes.
"""

from __future__ import annotations

import logging
import os
import runpy
import threading
import time
from pathlib import Path

import pytest
from django.contrib.auth import authenticate, get_user_model
from django.contrib.auth.hashers import PBKDF2PasswordHasher, make_password
from django.core.exceptions import ImproperlyConfigured
from django.test import override_settings

import carambole.settings
from carambole import browsers, logins, throttle
from tests.support.demo_pages import inline_code

PASSWORD = "a long enough password"
LIMITS = {
    "THROTTLE_WINDOW_SECONDS": 600,
    "LOGIN_FAILURES_PER_ACCOUNT": 3,
    "LOGIN_FAILURES_PER_ADDRESS": 5,
}


class Clock:
    """A clock the test moves: the throttle's windows open and end by it."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def time(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch) -> Clock:
    moved = Clock()
    monkeypatch.setattr(throttle, "time", moved)
    return moved


@pytest.fixture
def hashes(tmp_path: Path, monkeypatch) -> Path:
    """Count every password hash this process computes, in a file of the test's own."""
    log = tmp_path / "hashes"
    log.touch()
    monkeypatch.setenv("CARAMBOLE_HASH_LOG", str(log))
    with override_settings(PASSWORD_HASHERS=["tests.support.hashers.CountedPBKDF2PasswordHasher"]):
        yield log


def counted(log: Path) -> int:
    return len(log.read_text().splitlines())


@pytest.fixture
def referee_with_password(db):
    return get_user_model().objects.create_user("petrenko", password=PASSWORD)


def wrong(client, username: str = "petrenko", address: str = "10.0.0.1", **extra):
    return client.post(
        "/login/", {"username": username, "password": "wrong"}, REMOTE_ADDR=address, **extra
    )


# -- The rule ---------------------------------------------------------------------------------


@override_settings(**LIMITS)
def test_a_window_allows_its_attempts_then_refuses_until_it_ends_counting_no_refusal(clock, db):
    account = (throttle.LOGIN_ACCOUNT, "petrenko")
    for _ in range(3):
        throttle.attempt(account)
        clock.now += 100

    with pytest.raises(throttle.TooManyAttempts) as refused:
        throttle.attempt(account)
    clock.now += 299
    with pytest.raises(throttle.TooManyAttempts) as last:
        throttle.attempt(account)  # one second before the end, and not counted either

    assert (refused.value.retry_after, last.value.retry_after) == (300, 1)
    clock.now += 1
    throttle.attempt(account)  # the window ended: a new one opens with this attempt
    throttle.attempt(account)
    throttle.attempt(account)
    with pytest.raises(throttle.TooManyAttempts):
        throttle.attempt(account)


@override_settings(**LIMITS)
def test_an_attempt_that_succeeds_is_taken_back_and_limits_count_apart(clock, db):
    account, address = (throttle.LOGIN_ACCOUNT, "petrenko"), (throttle.LOGIN_ADDRESS, "10.0.0.1")
    for _ in range(10):
        throttle.attempt(account, address).take_back()
    throttle.attempt(account)
    throttle.attempt(account)
    throttle.attempt(account, (throttle.LOGIN_ADDRESS, "10.0.0.2"))

    with pytest.raises(throttle.TooManyAttempts):
        throttle.attempt(address, account)
    throttle.attempt(address)  # the refusal above took back what it had counted
    throttle.attempt((throttle.LOGIN_ACCOUNT, "kovalenko"), address)


@override_settings(
    CACHES={
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:9/0",  # the discard port: nothing answers
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    },
    **LIMITS,
)
def test_a_redis_that_does_not_answer_lets_logins_through_uncounted(
    client, referee_with_password, caplog
):
    caplog.set_level(logging.WARNING, logger="carambole.throttle")
    for _ in range(LIMITS["LOGIN_FAILURES_PER_ACCOUNT"] + 1):
        assert wrong(client).status_code == 200

    answer = client.post("/login/", {"username": "petrenko", "password": PASSWORD})

    assert answer.status_code == 302
    assert "Redis did not answer" in caplog.text


def test_the_counts_live_in_redis_given_one_and_a_limit_below_one_is_refused(monkeypatch):
    monkeypatch.setenv("REDIS_URL", "redis://cache.example:6379/0")
    caches = runpy.run_path(carambole.settings.__file__)["CACHES"]
    monkeypatch.setenv("LOGIN_FAILURES_PER_ACCOUNT", "0")

    assert caches["default"]["BACKEND"] == "django.core.cache.backends.redis.RedisCache"
    assert caches["default"]["LOCATION"] == "redis://cache.example:6379/0"
    with pytest.raises(ImproperlyConfigured, match="LOGIN_FAILURES_PER_ACCOUNT=0 must be at"):
        runpy.run_path(carambole.settings.__file__)


# -- The login page ---------------------------------------------------------------------------


@override_settings(**LIMITS)
def test_the_refusal_says_in_the_users_language_when_to_try_again_and_hashes_nothing(
    client, referee_with_password, hashes
):
    for _ in range(3):
        assert wrong(client).status_code == 200
    before = counted(hashes)

    english = wrong(client, address="10.0.0.2")
    ukrainian = wrong(client, address="10.0.0.3", HTTP_ACCEPT_LANGUAGE="uk")
    right = client.post("/login/", {"username": "petrenko", "password": PASSWORD})

    assert before == 3 and counted(hashes) == before
    for page in english, ukrainian, right:
        assert page.status_code == 429
        assert 590 <= int(page["Retry-After"]) <= 600
    assert "Too many failed logins. Try again in 10 minutes." in english.content.decode()
    assert "Спробуйте знову через 10 хвилин." in ukrainian.content.decode()
    assert "UTC" in ukrainian.content.decode() and 'lang="uk"' in ukrainian.content.decode()
    # The page keeps to the site's Content-Security-Policy: no inline style or script.
    assert inline_code(english.content.decode()) == []
    assert "Content-Security-Policy" in english


@override_settings(**LIMITS)
def test_a_browser_that_logged_in_before_is_held_to_its_own_count_only(
    client, referee_with_password
):
    tablet = client.__class__()
    assert tablet.post("/login/", {"username": "petrenko", "password": PASSWORD}).status_code == 302
    tablet.post("/logout/")
    # A stranger on the hall's network (the tablet's address) fails for the referee's
    # account until it is refused, then for others until the address is.
    for username in ("petrenko", "petrenko", "petrenko", "kovalenko", "marchetti"):
        assert wrong(client, username, address="127.0.0.1").status_code == 200
    assert wrong(client, "someone", address="127.0.0.1").status_code == 429

    stranger = client.post("/login/", {"username": "petrenko", "password": PASSWORD})
    own = tablet.post("/login/", {"username": "petrenko", "password": PASSWORD})

    assert stranger.status_code == 429
    assert own.status_code == 302 and own["Location"] == "/"
    forged = tablet.cookies[browsers.LOGINS.cookie].value[:-2] + "xx"
    client.cookies[browsers.LOGINS.cookie] = forged
    assert client.post("/login/", {"username": "petrenko", "password": PASSWORD}).status_code == 429
    tablet.post("/logout/")
    for _ in range(3):
        assert wrong(tablet).status_code == 200  # the tablet's own failures count, apart
    assert wrong(tablet).status_code == 429


@override_settings(**LIMITS)
def test_the_admins_login_is_throttled_alike(client, referee_with_password, hashes):
    for _ in range(3):
        client.post("/admin/login/", {"username": "petrenko", "password": "wrong"})

    refused = client.post("/admin/login/", {"username": "petrenko", "password": "wrong"})

    assert refused.status_code == 429 and "Retry-After" in refused
    assert counted(hashes) == 3


# -- Where passwords are hashed ---------------------------------------------------------------


class Watched(PBKDF2PasswordHasher):
    """PBKDF2 at a thousand iterations that notes each hash's thread, priority and company."""

    iterations = 1_000
    seen: list[tuple[str, int, int]] = []
    running = 0
    lock = threading.Lock()

    def encode(self, password, salt, iterations=None):
        with Watched.lock:
            Watched.running += 1
            at_once = Watched.running
        time.sleep(0.05)  # long enough for every other login to be waiting by now
        priority = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
        Watched.seen.append((threading.current_thread().name, priority, at_once))
        with Watched.lock:
            Watched.running -= 1
        return super().encode(password, salt, iterations)


@pytest.mark.skipif(not hasattr(os, "getpriority"), reason="thread priorities are Linux's")
@override_settings(PASSWORD_HASHERS=["tests.test_logins.Watched"])
def test_passwords_are_hashed_one_at_a_time_at_the_lowest_priority_off_the_serving_threads(db):
    get_user_model().objects.create_user("petrenko", password=PASSWORD)
    Watched.seen.clear()
    threads = [threading.Thread(target=logins.hashed, args=(make_password, "x")) for _ in range(3)]
    for thread in threads:
        thread.start()

    checked = authenticate(username="petrenko", password=PASSWORD)
    for thread in threads:
        thread.join(timeout=60)

    assert checked is not None and len(Watched.seen) == 4
    assert {name.split("_")[0] for name, _, _ in Watched.seen} == {"password-check"}
    assert {priority for _, priority, _ in Watched.seen} == {19}
    assert max(at_once for _, _, at_once in Watched.seen) == 1


def test_a_session_logged_in_before_logins_were_throttled_stays_logged_in(
    client, referee_with_password
):
    client.force_login(referee_with_password, backend="django.contrib.auth.backends.ModelBackend")

    assert b'action="/logout/"' in client.get("/").content
