"""Shared fixtures for the whole suite."""

import os

import pytest
from django.db import connection

from matches.immutability import install_triggers, remove_triggers

DATABASE_FIXTURES = {"db", "transactional_db", "event_db", "live_server"}


def pytest_report_header():
    vendor = "PostgreSQL" if os.getenv("DATABASE_URL") else "SQLite"
    redis = os.getenv("REDIS_URL") or "none (in-memory channel layer, eager Celery)"
    return [f"carambole: database {vendor}, Redis {redis}, CI={os.getenv('CI', '')}"]


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
def event_db(transactional_db):
    """A database whose transactions really commit (several connections, threads).

    Test-only way around the triggers: the flush that follows this test must empty
    the events table, so they are lifted here and re-installed by the next test.
    """
    yield
    remove_triggers(connection)
