"""A database outage is a 503 with Retry-After that a client can send again; a bug stays a 500."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psycopg
import pytest
from django.db import (
    DatabaseError,
    Error,
    InterfaceError,
    OperationalError,
    connection,
    transaction,
)

from carambole.outage import RETRY_AFTER_S, database_unavailable
from matches.models import Event
from replay.api.tokens import token_issue
from tests.support.builders import QUIET, new_match, open_game
from tests.support.servers import call, database_url, free_port, serving

# -- Which errors are an outage ---------------------------------------------------------


def wrapped(error: Exception, kind: type[Error] = OperationalError) -> Error:
    """Return a driver's error as Django raises it: its own class, the driver's as the cause."""
    try:
        raise kind(*error.args) from error
    except Error as django_error:
        return django_error


def sqlite_error(path: str, sql: str) -> sqlite3.Error:
    with pytest.raises(sqlite3.Error) as raised:
        sqlite3.connect(path, timeout=0).execute(sql)
    return raised.value


def test_a_postgresql_that_refuses_the_connection_is_an_outage():
    with pytest.raises(psycopg.OperationalError) as refused:
        psycopg.connect(host="127.0.0.1", port=free_port(), dbname="x", connect_timeout=5)

    assert database_unavailable(wrapped(refused.value))
    assert database_unavailable(wrapped(refused.value, InterfaceError))


def test_a_sqlite_file_locked_or_unopenable_is_an_outage(tmp_path):
    path = str(tmp_path / "db.sqlite3")
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("CREATE TABLE t (x)")
    holder.execute("BEGIN EXCLUSIVE")

    locked = sqlite_error(path, "INSERT INTO t VALUES (1)")
    unopenable = sqlite_error(str(tmp_path / "no-such-dir" / "db.sqlite3"), "SELECT 1")

    assert "locked" in str(locked) and database_unavailable(wrapped(locked))
    assert "unable to open" in str(unopenable) and database_unavailable(wrapped(unopenable))
    holder.close()


def test_a_query_of_ours_that_the_database_refuses_is_no_outage(db):
    with pytest.raises(DatabaseError) as refused, transaction.atomic():
        connection.cursor().execute("SELECT * FROM no_such_table")

    assert not database_unavailable(refused.value)  # a 500: a bug to fix, not to retry
    assert not database_unavailable(ValueError("unrelated"))


# -- Served -----------------------------------------------------------------------------


@pytest.mark.slow
def test_pages_and_the_api_answer_503_with_retry_after_while_postgresql_refuses():
    nowhere = {
        "DATABASE_URL": f"postgres://carambole:x@127.0.0.1:{free_port()}/carambole",
        "DB_POOL_TIMEOUT": "1",  # each request waits that long for a connection, then 503
    }
    with serving(None, environ=nowhere) as server:
        read = call(f"{server.url}/api/matches/cup-a-1/state")
        recorded = call(
            f"{server.url}/api/matches/cup-a-1/events",
            {"expected_seq": 0, "event": {"type": "shot", **QUIET}},
            key="k" * 40,
        )
        page = call(f"{server.url}/archive/", headers={"Accept-Language": "uk"})

    for answer in (read, recorded):
        assert answer.status == 503, answer
        assert answer.headers["Retry-After"] == str(RETRY_AFTER_S)
        assert answer.json() == {
            "error": f"the database cannot be reached; try again in {RETRY_AFTER_S} s",
            "field": None,
        }
    assert page.status == 503
    assert page.headers["Retry-After"] == str(RETRY_AFTER_S)
    assert page.headers["Content-Type"].startswith("text/html")
    assert "Тимчасово недоступно" in page.content.decode()


def served_url() -> str:
    """Return the test database's URL for a server: on SQLite, waiting 1 s for the write lock."""
    return f"{database_url()}?timeout=1" if connection.vendor == "sqlite" else database_url()


@contextmanager
def database_out_of_reach() -> Iterator[None]:
    """Make the test's own database refuse a served process for a while.

    SQLite: its write lock held here (a write waits 1 s for it, then gives up). PostgreSQL:
    the database taking no new connection (this test's own stays open).
    """
    if connection.vendor == "sqlite":
        holder = sqlite3.connect(Path(connection.settings_dict["NAME"]), isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")
        try:
            yield
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        return
    name = connection.ops.quote_name(connection.settings_dict["NAME"])
    # Said from another database (Django's own way in, as when it creates the test database):
    # PostgreSQL will not have a database refuse the connection that asks it to.
    with connection._nodb_cursor() as cursor:
        cursor.execute(f"ALTER DATABASE {name} ALLOW_CONNECTIONS false")
    try:
        yield
    finally:
        with connection._nodb_cursor() as cursor:
            cursor.execute(f"ALTER DATABASE {name} ALLOW_CONNECTIONS true")


@pytest.mark.slow
def test_a_shot_sent_during_an_outage_is_a_503_and_its_resend_records_it_once(event_db):
    match = new_match()
    head = open_game(match.id)
    key = token_issue("federation", staff=True).key
    body = {"expected_seq": head, "event": {"type": "shot", **QUIET}}

    with serving(None, environ={"DATABASE_URL": served_url()}) as server:
        events = f"{server.url}/api/matches/{match.id}/events"
        resend = {"Idempotency-Key": "tablet-7"}
        with database_out_of_reach():
            during = call(events, body, key=key, headers=resend)
        stored_during = Event.objects.filter(match=match).count()
        after = call(events, body, key=key, headers=resend)
        again = call(events, body, key=key, headers=resend)

    assert during.status == 503, during
    assert during.headers["Retry-After"] == str(RETRY_AFTER_S)
    assert stored_during == head
    assert (after.status, after.json()["seq"]) == (201, head + 1), after
    assert (again.status, again.headers.get("Idempotent-Replayed")) == (201, "true")
    assert Event.objects.filter(match=match).count() == head + 1
