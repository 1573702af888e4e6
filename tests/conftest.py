"""Shared fixtures for the whole suite."""

import os

import pytest
from django.conf import settings as django_settings
from django.db import connection
from hypothesis import settings

from matches.immutability import install_triggers, remove_triggers

DATABASE_FIXTURES = {"db", "transactional_db", "event_db", "live_server"}

# The suite runs with debug off, as production does, and serves its ASGI application to
# test clients: with a key of its own, not the development key that serving refuses.
django_settings.SECRET_KEY = "test-suite-key-" + "k" * 50
# Test clients speak plain HTTP to the application, as the load balancer does behind TLS.
django_settings.SECURE_SSL_REDIRECT = False

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
    redis = os.getenv("REDIS_URL") or "none (in-memory channel layer, eager Celery)"
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


@pytest.fixture
def redis_url() -> str:
    """Return CI's Redis (REDIS_URL); without it a test skips, or fails under CI=true."""
    url = os.getenv("REDIS_URL")
    if not url:
        if os.getenv("CI") == "true":
            pytest.fail("CI=true but REDIS_URL is unset: Redis is missing")
        pytest.skip("needs Redis (REDIS_URL)")
    return url


@pytest.fixture
def event_db(transactional_db):
    """A database whose transactions really commit (several connections, threads).

    Test-only way around the triggers: the flush that follows this test must empty
    the events table, so they are lifted here and re-installed by the next test.
    """
    yield
    remove_triggers(connection)
