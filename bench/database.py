"""A throwaway database for the benchmark, so the user's own database is never touched.

SQLite: a new file. PostgreSQL: a new database on the server `DATABASE_URL` names (its
role may create databases, as CI's does), dropped at the end whatever happened.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg
from django.conf import settings
from django.core.management import call_command
from django.db import DEFAULT_DB_ALIAS, connections
from django.test.utils import override_settings
from psycopg import sql

from carambole.settings import database_from_url


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
    connection = connections[DEFAULT_DB_ALIAS]
    connection.close()
    if hasattr(connection, "close_pool"):  # a pool is kept by alias: it would outlive the swap
        connection.close_pool()
    del connections[DEFAULT_DB_ALIAS]
    connections.settings[DEFAULT_DB_ALIAS] = database


@contextmanager
def throwaway_postgres(url: str) -> Iterator[str]:
    """Create and migrate a database of the bench's own beside the one `url` names; point the
    default connection at it; yield its URL; drop it afterwards."""
    name = f"carambole_bench_{secrets.token_hex(4)}"
    parts = urlsplit(url)
    own = urlunsplit(parts._replace(path=f"/{name}"))
    with psycopg.connect(url, autocommit=True) as server:
        server.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    original = connections.settings[DEFAULT_DB_ALIAS]
    try:
        _swap(
            connections.configure_settings({DEFAULT_DB_ALIAS: database_from_url(own)})[
                DEFAULT_DB_ALIAS
            ]
        )
        with override_settings(DEBUG=False):
            call_command("migrate", verbosity=0, interactive=False)
            yield own
    finally:
        _swap(original)
        with psycopg.connect(url, autocommit=True) as server:
            server.execute(
                sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
            )
