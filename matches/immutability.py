"""The database's own refusal to change or delete events: triggers on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.db import connection as default_connection

EVENTS_TABLE = "matches_event"
MESSAGE = "events are immutable: record a correction instead"

SQLITE_INSTALL = [
    f"""CREATE TRIGGER IF NOT EXISTS {EVENTS_TABLE}_no_update BEFORE UPDATE ON {EVENTS_TABLE}
        BEGIN SELECT RAISE(ABORT, '{MESSAGE}'); END""",
    f"""CREATE TRIGGER IF NOT EXISTS {EVENTS_TABLE}_no_delete BEFORE DELETE ON {EVENTS_TABLE}
        BEGIN SELECT RAISE(ABORT, '{MESSAGE}'); END""",
    # REPLACE INTO and INSERT OR REPLACE delete the row they collide with, and that
    # implicit delete fires no DELETE trigger: refuse the colliding insert itself.
    f"""CREATE TRIGGER IF NOT EXISTS {EVENTS_TABLE}_no_replace BEFORE INSERT ON {EVENTS_TABLE}
        WHEN EXISTS (SELECT 1 FROM {EVENTS_TABLE} WHERE id = NEW.id)
        OR EXISTS (SELECT 1 FROM {EVENTS_TABLE} WHERE match_id = NEW.match_id AND seq = NEW.seq)
        OR (NEW.idempotency_key IS NOT NULL AND EXISTS (
            SELECT 1 FROM {EVENTS_TABLE}
            WHERE match_id = NEW.match_id AND idempotency_key = NEW.idempotency_key
        ))
        BEGIN SELECT RAISE(ABORT, '{MESSAGE}'); END""",
]
SQLITE_REMOVE = [
    f"DROP TRIGGER IF EXISTS {EVENTS_TABLE}_no_update",
    f"DROP TRIGGER IF EXISTS {EVENTS_TABLE}_no_delete",
    f"DROP TRIGGER IF EXISTS {EVENTS_TABLE}_no_replace",
]
# The triggers each database must have for the events to be immutable.
REQUIRED_TRIGGERS = {
    "sqlite": {
        f"{EVENTS_TABLE}_no_update",
        f"{EVENTS_TABLE}_no_delete",
        f"{EVENTS_TABLE}_no_replace",
    },
    "postgresql": {f"{EVENTS_TABLE}_immutable", f"{EVENTS_TABLE}_no_truncate"},
}
POSTGRESQL_INSTALL = [
    f"""CREATE OR REPLACE FUNCTION {EVENTS_TABLE}_refuse() RETURNS trigger AS $$
        BEGIN RAISE EXCEPTION '{MESSAGE}' USING ERRCODE = 'insufficient_privilege'; END
        $$ LANGUAGE plpgsql""",
    f"""CREATE OR REPLACE TRIGGER {EVENTS_TABLE}_immutable
        BEFORE UPDATE OR DELETE ON {EVENTS_TABLE}
        FOR EACH ROW EXECUTE FUNCTION {EVENTS_TABLE}_refuse()""",
    f"""CREATE OR REPLACE TRIGGER {EVENTS_TABLE}_no_truncate
        BEFORE TRUNCATE ON {EVENTS_TABLE}
        FOR EACH STATEMENT EXECUTE FUNCTION {EVENTS_TABLE}_refuse()""",
]
POSTGRESQL_REMOVE = [
    f"DROP TRIGGER IF EXISTS {EVENTS_TABLE}_immutable ON {EVENTS_TABLE}",
    f"DROP TRIGGER IF EXISTS {EVENTS_TABLE}_no_truncate ON {EVENTS_TABLE}",
]


def _statements(vendor: str, install: bool) -> list[str]:
    if vendor == "postgresql":
        return POSTGRESQL_INSTALL if install else POSTGRESQL_REMOVE
    if vendor == "sqlite":
        return SQLITE_INSTALL if install else SQLITE_REMOVE
    raise RuntimeError(f"no immutability triggers for the {vendor} database")


def install_triggers(connection=default_connection) -> None:
    """Install the triggers that refuse UPDATE and DELETE of events."""
    with connection.cursor() as cursor:
        for statement in _statements(connection.vendor, install=True):
            cursor.execute(statement)


def remove_triggers(connection=default_connection) -> None:
    with connection.cursor() as cursor:
        for statement in _statements(connection.vendor, install=False):
            cursor.execute(statement)


def installed_triggers(connection=default_connection) -> set[str]:
    """Return the names of the immutability triggers present on the events table."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                "SELECT tgname FROM pg_trigger WHERE tgrelid = %s::regclass AND NOT tgisinternal",
                [EVENTS_TABLE],
            )
        else:
            cursor.execute(
                "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = %s",
                [EVENTS_TABLE],
            )
        return {row[0] for row in cursor.fetchall()}


def missing_triggers(connection=default_connection) -> set[str]:
    """Return the immutability triggers the events table lacks (none before it exists)."""
    if EVENTS_TABLE not in connection.introspection.table_names():
        return set()  # not migrated yet: nothing to protect
    return REQUIRED_TRIGGERS.get(connection.vendor, set()) - installed_triggers(connection)


@contextmanager
def triggers_lifted(connection=default_connection) -> Iterator[None]:
    """Test-only: lift the triggers (to flush a test database or to simulate tampering)."""
    remove_triggers(connection)
    try:
        yield
    finally:
        install_triggers(connection)
