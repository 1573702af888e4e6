"""A throwaway database for the benchmark, so the user's own database is never touched.

SQLite: a new file. PostgreSQL: a new database on the server `DATABASE_URL` names (its
role may create databases, as CI's does), dropped at the end whatever happened.
"""

from __future__ import annotations

import secrets
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg
from django.core.management import call_command
from django.db import DEFAULT_DB_ALIAS, connections
from django.test.utils import override_settings
from psycopg import sql

from carambole.settings import database_from_url


@contextmanager
def throwaway_sqlite(path: Path) -> Iterator[None]:
    """Point the default connection at a new, migrated SQLite file; restore it afterwards.

    Set up as the embedded default is (its write-ahead log, its IMMEDIATE transactions),
    whatever database the environment names. DEBUG is off inside, as in production: with
    it on, Django logs every query.
    """
    original = connections.settings[DEFAULT_DB_ALIAS]
    _swap(
        connections.configure_settings({DEFAULT_DB_ALIAS: database_from_url(f"sqlite:///{path}")})[
            DEFAULT_DB_ALIAS
        ]
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


@contextmanager
def raw_inserts(database_url: str, vendor: str) -> Iterator[Callable[[], None]]:
    """Yield a bare insert of one row and its commit on a database (`sqlite:///FILE` or
    PostgreSQL's URL): the raw baseline the recording is measured against."""
    create = "CREATE TABLE IF NOT EXISTS bench_row (id {} PRIMARY KEY, data TEXT)"
    if vendor == "postgresql":
        with psycopg.connect(database_url, autocommit=True) as connection:
            connection.execute(create.format("BIGSERIAL"))

            def insert_pg() -> None:
                with connection.transaction():
                    connection.execute(
                        "INSERT INTO bench_row (data) VALUES (%s)", ['{"type": "shot"}']
                    )

            yield insert_pg
        return
    with sqlite3.connect(database_url.removeprefix("sqlite:///"), isolation_level=None) as lite:
        lite.execute("PRAGMA synchronous=NORMAL")
        lite.execute(create.format("INTEGER"))

        def insert_lite() -> None:
            lite.execute("BEGIN IMMEDIATE")
            lite.execute("INSERT INTO bench_row (data) VALUES (?)", ['{"type": "shot"}'])
            lite.execute("COMMIT")

        yield insert_lite
