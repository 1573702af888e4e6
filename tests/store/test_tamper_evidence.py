"""Tamper evidence: a trigger out of force, a column beside the hash, a lost match, a lost event."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.checks import run_checks
from django.core.management import CommandError, call_command
from django.core.management.sql import emit_post_migrate_signal
from django.db import DatabaseError, connection, transaction

from matches import store
from matches.checks import REPAIR
from matches.domain.errors import Refused
from matches.immutability import EVENTS_TABLE, trigger_faults, triggers_lifted
from matches.models import Event, Match
from matches.records import archive_verify
from replay.models import MatchSummary
from replay.projections import projector
from tests.support.builders import BY, play, seven_events_and_another
from tests.support.servers import database_url
from tests.support.triggers import ROW_TRIGGER

ROOT = Path(__file__).resolve().parents[2]
MATCH_ID = "cup-a-1"
TAMPERED = 4  # the first shot: seq 1 to 3 are the lag, the game's start and the break
postgresql_only = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="PostgreSQL alone can disable a trigger"
)


@pytest.fixture
def seven_events(db):
    """A match of seven events (four shots after the break), and a second, sound one."""
    return seven_events_and_another(MATCH_ID)


def execute(sql: str, params=()) -> None:
    """Run one statement as a database writer would, the triggers out of the way."""
    with triggers_lifted(), connection.cursor() as cursor:
        cursor.execute(sql, params)


def verify(*args: str) -> tuple[str, bool]:
    """Run verify_archive; return what it wrote on standard error and whether it failed."""
    err = io.StringIO()
    try:
        call_command("verify_archive", *args, stdout=io.StringIO(), stderr=err)
    except CommandError:
        return err.getvalue(), True
    return err.getvalue(), False


# -- Triggers out of force ----------------------------------------------------------------


def test_a_dropped_trigger_is_named_by_the_check_and_verify_archive_and_migrate_puts_it_back(
    seven_events,
):
    name = ROW_TRIGGER[connection.vendor]
    with connection.cursor() as cursor:
        table = f" ON {EVENTS_TABLE}" if connection.vendor == "postgresql" else ""
        cursor.execute(f"DROP TRIGGER {name}{table}")

    errors = run_checks()
    said, failed = verify()

    assert [error.id for error in errors] == ["matches.E001"]
    assert f"{name} (missing)" in errors[0].msg and f"{name} (missing)" in said
    assert failed
    emit_post_migrate_signal(0, False, "default")  # what every `manage.py migrate` ends with
    assert trigger_faults() == {} and not run_checks()


@postgresql_only
def test_a_disabled_trigger_is_flagged_like_a_missing_one_and_migrate_enables_it(seven_events):
    name = ROW_TRIGGER["postgresql"]
    with connection.cursor() as cursor:
        # The foreign keys checked now: ALTER TABLE waits for no check deferred to the commit.
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute(f"ALTER TABLE {EVENTS_TABLE} DISABLE TRIGGER {name}")
        cursor.execute(f"DELETE FROM {EVENTS_TABLE} WHERE match_id = %s AND seq = 7", [MATCH_ID])

    errors = run_checks()
    said, failed = verify()

    assert trigger_faults() == {name: "disabled"}
    assert [error.id for error in errors] == ["matches.E001"]
    assert f"{name} (disabled)" in errors[0].msg and f"{name} (disabled)" in said
    assert failed
    emit_post_migrate_signal(0, False, "default")
    assert trigger_faults() == {}
    with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM {EVENTS_TABLE} WHERE match_id = %s AND seq = 6", [MATCH_ID])


@postgresql_only
def test_a_trigger_whose_function_no_longer_refuses_is_flagged_as_altered(seven_events):
    with connection.cursor() as cursor:
        cursor.execute(
            f"CREATE OR REPLACE FUNCTION {EVENTS_TABLE}_refuse() RETURNS trigger AS $$ "
            "BEGIN RETURN COALESCE(NEW, OLD); END $$ LANGUAGE plpgsql"
        )

    assert trigger_faults() == {
        f"{EVENTS_TABLE}_immutable": "altered",
        f"{EVENTS_TABLE}_no_truncate": "altered",
    }
    assert [error.id for error in run_checks()] == ["matches.E001"]
    emit_post_migrate_signal(0, False, "default")
    assert trigger_faults() == {}


@postgresql_only
def test_a_session_in_replica_mode_fires_no_trigger_and_is_flagged(seven_events):
    with connection.cursor() as cursor:
        try:
            with transaction.atomic():
                cursor.execute("SET LOCAL session_replication_role = replica")
        except DatabaseError:
            pytest.skip("setting the replication role takes a superuser")
        try:
            faults = trigger_faults()
        finally:
            cursor.execute("SET LOCAL session_replication_role = DEFAULT")

    assert faults == {
        f"{EVENTS_TABLE}_immutable": "disabled",
        f"{EVENTS_TABLE}_no_truncate": "disabled",
    }
    assert trigger_faults() == {}


# -- Every column the pages read agrees with the hash ---------------------------------------


def _shot_data() -> dict:
    return json.loads(
        Event.objects.filter(match_id=MATCH_ID, seq=TAMPERED).values_list("data_text", flat=True)[0]
    )


# Each stored column of event 4, changed as a database writer could: the column, its new value.
CHANGES = {
    "type": lambda: ("type", "shot_amended"),
    "data": lambda: ("data", json.dumps({**_shot_data(), "contacts": []})),
    "data holding an envelope key": lambda: ("data", json.dumps({**_shot_data(), "seq": 4})),
    "seq": lambda: ("seq", 40),
    "at": lambda: ("at", "2020-01-01T00:00:00.000Z"),
    "recorded_by": lambda: ("recorded_by", "someone-else"),
    "recorded_at": lambda: ("recorded_at", "2020-01-01 00:00:00"),
    "hash": lambda: ("hash", "0" * 64),
}


@pytest.mark.parametrize("change", CHANGES, ids=list(CHANGES))
def test_verify_archive_names_the_match_and_seq_of_any_changed_column(seven_events, change):
    column, value = CHANGES[change]()
    execute(
        f"UPDATE {EVENTS_TABLE} SET {column} = %s WHERE match_id = %s AND seq = %s",
        [value, MATCH_ID, TAMPERED],
    )

    said, failed = verify()

    assert failed
    assert f"{MATCH_ID} seq {TAMPERED}: " in said, said
    assert "cup-a-2" not in said
    assert archive_verify(["cup-a-2"]) == {"cup-a-2": []}


def test_a_sound_match_has_every_column_as_the_hash_has_it(seven_events):
    assert store.verify_chain(seven_events) == []
    said, failed = verify()
    assert (said, failed) == ("", False)


def test_the_projector_counts_corrections_by_the_hashed_type_not_the_type_column(seven_events):
    execute(
        f"UPDATE {EVENTS_TABLE} SET type = 'shot_amended' WHERE match_id = %s AND seq = %s",
        [MATCH_ID, TAMPERED],
    )

    projector.rebuild()

    summary = MatchSummary.objects.get(pk=MATCH_ID)
    assert (summary.amendments, summary.retractions, summary.status) == (0, 0, "playing")


# -- A match row lost, its events left --------------------------------------------------------


def test_events_whose_match_row_is_gone_are_reported_by_a_plain_verify_archive(seven_events):
    # Foreign keys are checked at commit (Django makes them deferrable): SQLite run without
    # them, or a writer with the checks off, commits the same.
    execute("DELETE FROM matches_match WHERE id = %s", [MATCH_ID])
    assert not Match.objects.filter(pk=MATCH_ID).exists()
    try:
        said, failed = verify()
        named, named_failed = verify(MATCH_ID)
    finally:
        seven_events.save(
            force_insert=True
        )  # the test's transaction checks its foreign keys at the end

    assert failed and named_failed
    line = f"{MATCH_ID} seq 1: the match is missing from the archive, not its 7 events (seq 1 to 7)"
    assert said.splitlines() == [line] and named.splitlines() == [line]


# -- An event lost in the middle --------------------------------------------------------------


def test_verify_archive_names_a_deleted_middle_event(seven_events):
    execute(f"DELETE FROM {EVENTS_TABLE} WHERE match_id = %s AND seq = %s", [MATCH_ID, TAMPERED])

    said, failed = verify()

    assert failed
    assert said.splitlines() == [
        f"{MATCH_ID} seq {TAMPERED}: event seq {TAMPERED} is missing",
        f"{MATCH_ID} seq {TAMPERED + 1}: hash does not match",
    ]


def test_every_read_of_the_store_refuses_a_log_with_an_event_missing(seven_events):
    execute(f"DELETE FROM {EVENTS_TABLE} WHERE match_id = %s AND seq = %s", [MATCH_ID, TAMPERED])

    for read in (store.load_facts, store.load_chained, store.load):
        with pytest.raises(Refused) as refused:
            read(MATCH_ID)
        assert (refused.value.seq, refused.value.message) == (
            TAMPERED,
            "the stored event is missing",
        )
    assert len(store.load_facts(MATCH_ID, after=TAMPERED)) == 3  # the rest of the log reads


def test_recording_into_a_match_with_an_event_missing_is_refused_naming_it(seven_events):
    execute(f"DELETE FROM {EVENTS_TABLE} WHERE match_id = %s AND seq = %s", [MATCH_ID, TAMPERED])

    with pytest.raises(Refused) as refused:
        play(MATCH_ID, 7)

    assert refused.value.seq == TAMPERED
    assert Event.objects.filter(match_id=MATCH_ID, recorded_by=BY).count() == 6


# -- From the command line, as an operator meets it ---------------------------------------


@pytest.mark.slow
@pytest.mark.usefixtures("event_db")
def test_from_the_command_line_a_dropped_trigger_fails_check_and_verify_and_the_hint_repairs_it():
    environ = {**os.environ, "DATABASE_URL": database_url()}  # this test's, committed
    environ.pop("DJANGO_SETTINGS_MODULE", None)

    def manage(*args: str) -> subprocess.CompletedProcess:
        command = [sys.executable, "manage.py", *args]
        return subprocess.run(command, cwd=ROOT, env=environ, capture_output=True, text=True)

    name = ROW_TRIGGER[connection.vendor]
    with connection.cursor() as cursor:
        table = f" ON {EVENTS_TABLE}" if connection.vendor == "postgresql" else ""
        cursor.execute(f"DROP TRIGGER {name}{table}")

    checked = run_checks()  # as `manage.py check` and every server start run them
    verified = manage("verify_archive")
    repaired = manage(*REPAIR.split()[2:], "-v0")

    named = f"{name} (missing)"
    assert named in checked[0].msg and REPAIR in checked[0].hint
    # Not stopped by the system check: it verifies the archive and names the trigger itself.
    assert verified.returncode != 0 and "0 matches checked, 0 failing" in verified.stdout
    assert named in verified.stderr and REPAIR in verified.stderr
    assert repaired.returncode == 0, repaired.stderr
    assert trigger_faults() == {}
