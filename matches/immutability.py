"""The database's own refusal to change or delete events: triggers on SQLite and PostgreSQL.

A trigger can be there and still refuse nothing: PostgreSQL can disable it (`ALTER TABLE
... DISABLE TRIGGER`), or its function can be replaced. `trigger_faults` says which
trigger is not in force and why; the system check and `verify_archive` report it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.db import connection as default_connection
from django.db.backends.base.base import BaseDatabaseWrapper

EVENTS_TABLE = "matches_event"
MESSAGE = "events are immutable: record a correction instead"

# A competition's log shares the table (migration 0007 adds its column): until then the
# insert trigger knows only the matches' `seq` (the earlier migrations install it too).
SQLITE_COMPETITION_SEQ = f"""
        OR EXISTS (
            SELECT 1 FROM {EVENTS_TABLE}
            WHERE competition_id = NEW.competition_id AND seq = NEW.seq
        )"""


def _sqlite_install(competition_log: bool) -> list[str]:
    competition_seq = SQLITE_COMPETITION_SEQ if competition_log else ""
    return [
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
        )){competition_seq}
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
POSTGRESQL_FUNCTION = f"{EVENTS_TABLE}_refuse"
POSTGRESQL_REFUSAL = (
    f"BEGIN RAISE EXCEPTION '{MESSAGE}' USING ERRCODE = 'insufficient_privilege'; END"
)
# What each trigger fires on, as pg_trigger.tgtype writes it: 1 for each row, 2 before,
# 8 delete, 16 update, 32 truncate.
POSTGRESQL_FIRES_ON = {
    f"{EVENTS_TABLE}_immutable": 1 | 2 | 8 | 16,
    f"{EVENTS_TABLE}_no_truncate": 2 | 32,
}
POSTGRESQL_INSTALL = [
    f"""CREATE OR REPLACE FUNCTION {POSTGRESQL_FUNCTION}() RETURNS trigger AS $$
        {POSTGRESQL_REFUSAL}
        $$ LANGUAGE plpgsql""",
    f"""CREATE OR REPLACE TRIGGER {EVENTS_TABLE}_immutable
        BEFORE UPDATE OR DELETE ON {EVENTS_TABLE}
        FOR EACH ROW EXECUTE FUNCTION {POSTGRESQL_FUNCTION}()""",
    f"""CREATE OR REPLACE TRIGGER {EVENTS_TABLE}_no_truncate
        BEFORE TRUNCATE ON {EVENTS_TABLE}
        FOR EACH STATEMENT EXECUTE FUNCTION {POSTGRESQL_FUNCTION}()""",
]  # CREATE OR REPLACE enables a trigger disabled by hand: each install puts all back in force
POSTGRESQL_REMOVE = [
    f"DROP TRIGGER IF EXISTS {EVENTS_TABLE}_immutable ON {EVENTS_TABLE}",
    f"DROP TRIGGER IF EXISTS {EVENTS_TABLE}_no_truncate ON {EVENTS_TABLE}",
]


def _statements(connection: BaseDatabaseWrapper, install: bool) -> list[str]:
    vendor = connection.vendor
    if vendor == "postgresql":
        return POSTGRESQL_INSTALL if install else POSTGRESQL_REMOVE
    if vendor == "sqlite":
        return _sqlite_install(_has_competition_log(connection)) if install else SQLITE_REMOVE
    raise RuntimeError(f"no immutability triggers for the {vendor} database")


def _has_competition_log(connection: BaseDatabaseWrapper) -> bool:
    with connection.cursor() as cursor:
        columns = connection.introspection.get_table_description(cursor, EVENTS_TABLE)
    return any(column.name == "competition_id" for column in columns)


def install_triggers(connection: BaseDatabaseWrapper = default_connection) -> None:
    """Install the triggers that refuse UPDATE and DELETE of events."""
    with connection.cursor() as cursor:
        for statement in _statements(connection, install=True):
            cursor.execute(statement)


def remove_triggers(connection: BaseDatabaseWrapper = default_connection) -> None:
    with connection.cursor() as cursor:
        for statement in _statements(connection, install=False):
            cursor.execute(statement)


def installed_triggers(connection: BaseDatabaseWrapper = default_connection) -> set[str]:
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


def trigger_faults(connection: BaseDatabaseWrapper = default_connection) -> dict[str, str]:
    """Return each immutability trigger that is not in force: missing, disabled or altered."""
    if EVENTS_TABLE not in connection.introspection.table_names():
        return {}  # not migrated yet: nothing to protect
    required = REQUIRED_TRIGGERS.get(connection.vendor, set())
    faults = {name: "missing" for name in required - installed_triggers(connection)}
    if connection.vendor == "postgresql":
        faults.update(_postgresql_faults(connection))
    return faults


def _postgresql_faults(connection: BaseDatabaseWrapper) -> dict[str, str]:
    """Return the PostgreSQL triggers that are there but would not fire, or not refuse."""
    with connection.cursor() as cursor:
        # A session in replica mode fires only the triggers enabled for replicas (or always).
        cursor.execute("SELECT current_setting('session_replication_role')")
        firing = {"A", "R"} if cursor.fetchone()[0] == "replica" else {"A", "O"}
        cursor.execute(
            "SELECT t.tgname, t.tgenabled, t.tgtype, t.tgattr::text, t.tgqual IS NOT NULL, "
            "p.proname, p.prosrc FROM pg_trigger t JOIN pg_proc p ON p.oid = t.tgfoid "
            "WHERE t.tgrelid = %s::regclass AND NOT t.tgisinternal",
            [EVENTS_TABLE],
        )
        rows = cursor.fetchall()
    faults = {}
    for name, enabled, fires_on, columns, condition, function, source in rows:
        if name not in POSTGRESQL_FIRES_ON:
            continue
        if enabled not in firing:
            faults[name] = "disabled"
        elif (
            fires_on != POSTGRESQL_FIRES_ON[name]
            or columns.strip()  # UPDATE OF some columns: the others could be changed
            or condition  # a WHEN clause: some rows could be changed
            or function != POSTGRESQL_FUNCTION
            or " ".join(source.split()) != POSTGRESQL_REFUSAL
        ):
            faults[name] = "altered"
    return faults


def faults_in_words(faults: dict[str, str]) -> str:
    """Return the faults as one line: each trigger with what is wrong with it."""
    listed = ", ".join(f"{name} ({fault})" for name, fault in sorted(faults.items()))
    return f"the events table's immutability triggers are not in force: {listed}"


@contextmanager
def triggers_lifted(connection: BaseDatabaseWrapper = default_connection) -> Iterator[None]:
    """Test-only: lift the triggers (to flush a test database or to simulate tampering)."""
    remove_triggers(connection)
    try:
        yield
    finally:
        install_triggers(connection)
