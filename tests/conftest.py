"""Shared fixtures for the whole suite."""

import os
import shutil
from collections.abc import Iterator

import pytest
from django.conf import settings as django_settings
from django.core.cache import cache
from django.db import connection
from hypothesis import settings

from carambole import throttle
from matches.immutability import install_triggers, remove_triggers
from tests.servers import free_port, own_redis

DATABASE_FIXTURES = {"db", "transactional_db", "event_db", "live_server"}

# The suite runs with debug off, as production does, and serves its ASGI application to
# test clients: with a key of its own, not the development key that serving refuses.
django_settings.SECRET_KEY = "test-suite-key-" + "k" * 50
# Test clients speak plain HTTP to the application, as the load balancer does behind TLS.
django_settings.SECURE_SSL_REDIRECT = False
# Hashing a password costs most of a second at Django's million iterations: the tests
# hash theirs with a thousand, and still check any hash the real settings made.
django_settings.PASSWORD_HASHERS = ["tests.hashers.QuickPBKDF2PasswordHasher"]
# The throttles' counts (carambole/throttle.py) in this process's memory, emptied before
# each test (below): what one test failed never refuses another's login. The servers the
# tests start count in Redis when they are given one.
django_settings.CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "tests"}
}

# Property tests take their number of examples from the profile: few while developing, many
# in CI, where the time is set aside for them. HYPOTHESIS_PROFILE picks another profile.
settings.register_profile("dev", max_examples=50)
settings.register_profile("ci", max_examples=500, print_blob=True)
settings.load_profile(
    os.getenv("HYPOTHESIS_PROFILE") or ("ci" if os.getenv("CI") == "true" else "dev")
)


def pytest_report_header():
    vendor = {"postgresql": "PostgreSQL", "sqlite": "SQLite"}.get(
        connection.vendor, connection.vendor
    )
    redis = os.getenv("REDIS_URL") or (
        "none for the app (in-memory layer, eager Celery); the Redis tests start their own"
        if shutil.which("redis-server")
        else "none (the Redis tests skip: no REDIS_URL, no redis-server)"
    )
    return [
        f"carambole: database {vendor}, Redis {redis}, CI={os.getenv('CI', '')}, "
        f"hypothesis profile {settings.get_current_profile_name()}"
    ]


@pytest.fixture(autouse=True)
def _events_immutable(request, django_db_blocker):
    """Every test that touches the database starts with the immutability triggers in force."""
    uses_db = DATABASE_FIXTURES & set(request.fixturenames) or request.node.get_closest_marker(
        "django_db"
    )
    if uses_db:
        request.getfixturevalue("django_db_setup")
        with django_db_blocker.unblock():
            install_triggers(connection)
    yield


@pytest.fixture(autouse=True)
def _throttles_forget(monkeypatch):
    """Every test starts with no failed login or token counted; a refusal answers at once."""
    cache.clear()
    monkeypatch.setattr(throttle, "REFUSAL_PAUSE_S", 0)
    yield


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """Return a Redis for the tests that need one: `REDIS_URL`, else a redis-server of their own.

    With neither (no `REDIS_URL`, no `redis-server` on the PATH) a test skips, and fails
    under `CI=true`. The suite's own server is started once, on a free loopback port.
    """
    url = os.getenv("REDIS_URL")
    if url:
        yield url
        return
    port = free_port()
    with own_redis(port):
        yield f"redis://127.0.0.1:{port}/0"


@pytest.fixture
def event_db(transactional_db):
    """A database whose transactions really commit (several connections, threads).

    Test-only way around the triggers: the flush that follows this test must empty
    the events table, so they are lifted here and re-installed by the next test.
    """
    yield
    remove_triggers(connection)
