"""A throwaway SQLite database for the benchmark, so the user's own database is never touched."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from django.conf import settings
from django.core.management import call_command
from django.db import DEFAULT_DB_ALIAS, connections
from django.test.utils import override_settings


@contextmanager
def throwaway_sqlite(path: Path) -> Iterator[None]:
    """Point the default connection at a new, migrated SQLite file; restore it afterwards.

    DEBUG is off inside, as in production: with it on, Django logs every query.
    """
    original = connections.settings[DEFAULT_DB_ALIAS]
    _swap(
        connections.configure_settings(
            {
                DEFAULT_DB_ALIAS: {
                    "ENGINE": "django.db.backends.sqlite3",
                    "NAME": str(path),
                    "OPTIONS": dict(settings.DATABASES[DEFAULT_DB_ALIAS].get("OPTIONS", {}))
                    if "sqlite" in original["ENGINE"]
                    else {"transaction_mode": "IMMEDIATE", "timeout": 20},
                }
            }
        )[DEFAULT_DB_ALIAS]
    )
    try:
        with override_settings(DEBUG=False):
            call_command("migrate", verbosity=0, interactive=False)
            yield
    finally:
        _swap(original)


def _swap(database: dict) -> None:
    connections[DEFAULT_DB_ALIAS].close()
    del connections[DEFAULT_DB_ALIAS]
    connections.settings[DEFAULT_DB_ALIAS] = database
