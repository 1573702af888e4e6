"""Events are append-only: the model, the query API and the database itself refuse changes."""

import io

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.checks import run_checks
from django.core.management import CommandError, call_command
from django.db import DatabaseError, connection, transaction
from django.db.migrations.executor import MigrationExecutor
from django.db.models import ProtectedError

from matches.immutability import EVENTS_TABLE, installed_triggers, triggers_lifted
from matches.models import Event, ImmutableEventError, Match, Player
from tests.support.builders import new_match, open_game

EXPECTED_TRIGGERS = {
    "postgresql": {f"{EVENTS_TABLE}_immutable", f"{EVENTS_TABLE}_no_truncate"},
    "sqlite": {
        f"{EVENTS_TABLE}_no_update",
        f"{EVENTS_TABLE}_no_delete",
        f"{EVENTS_TABLE}_no_replace",
    },
}
# The database this run tests: each form of statement is tested on the database that has it.
VENDOR = "postgresql" if "postgresql" in settings.DATABASES["default"]["ENGINE"] else "sqlite"
COLUMNS = (
    "id, match_id, seq, type, data, recorded_at, at, recorded_by, idempotency_key, "
    "command_digest, hash"
)
# Every statement that could change or remove a stored event, beyond plain UPDATE and DELETE:
# each copies event 1 of the match with another type and hash, trying to take its place.
FORGED = f"""SELECT id, match_id, seq, 'match_forfeited', data, recorded_at, at, recorded_by,
    idempotency_key, command_digest, '{"0" * 64}' FROM {EVENTS_TABLE} WHERE seq = 1"""
REWRITES = {
    "sqlite": {
        "REPLACE INTO": f"REPLACE INTO {EVENTS_TABLE} ({COLUMNS}) {FORGED}",
        "INSERT OR REPLACE": f"INSERT OR REPLACE INTO {EVENTS_TABLE} ({COLUMNS}) {FORGED}",
        "upsert": f"INSERT INTO {EVENTS_TABLE} ({COLUMNS}) {FORGED} WHERE true "
        "ON CONFLICT (id) DO UPDATE SET hash = excluded.hash",
        "UPDATE OR REPLACE": f"UPDATE OR REPLACE {EVENTS_TABLE} SET seq = 1 WHERE seq = 2",
    },
    "postgresql": {
        "upsert": f"INSERT INTO {EVENTS_TABLE} ({COLUMNS}) {FORGED} "
        "ON CONFLICT (id) DO UPDATE SET hash = excluded.hash",
        "MERGE": f"MERGE INTO {EVENTS_TABLE} e USING (SELECT 1 AS one) s ON e.seq = 1 "
        f"WHEN MATCHED THEN UPDATE SET hash = '{'f' * 64}'",
        "MERGE delete": f"MERGE INTO {EVENTS_TABLE} e USING (SELECT 1 AS one) s ON e.seq = 1 "
        "WHEN MATCHED THEN DELETE",
        "DELETE with USING": f"DELETE FROM {EVENTS_TABLE} e USING {EVENTS_TABLE} f "
        "WHERE e.id = f.id",
    },
}


@pytest.fixture
def recorded(db):
    """A match with three recorded events."""
    match = new_match()
    open_game(match.id)
    return match


def refused_by_database(sql, params=()):
    """Run one statement in its own transaction and return whether the database refused it."""
    with pytest.raises(DatabaseError) as refusal, transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
    return refusal.value


def test_raw_sql_update_of_an_event_is_refused_by_the_database(recorded):
    error = refused_by_database(f"UPDATE {EVENTS_TABLE} SET type = 'shot' WHERE seq = 1")

    assert "immutable" in str(error)
    assert Event.objects.get(match=recorded, seq=1).type == "lag"


def test_raw_sql_update_of_the_hash_is_refused_by_the_database(recorded):
    refused_by_database(f"UPDATE {EVENTS_TABLE} SET hash = %s", ["0" * 64])

    assert not Event.objects.filter(hash="0" * 64).exists()


def test_raw_sql_delete_of_an_event_is_refused_by_the_database(recorded):
    error = refused_by_database(f"DELETE FROM {EVENTS_TABLE} WHERE seq = 3")

    assert "immutable" in str(error)
    assert Event.objects.filter(match=recorded).count() == 3


def test_emptying_the_whole_events_table_at_once_is_refused(recorded):
    # PostgreSQL's TRUNCATE; SQLite's is an unqualified DELETE (its truncate optimisation).
    if connection.vendor == "postgresql":
        refused_by_database(f"TRUNCATE {EVENTS_TABLE} CASCADE")
    else:
        refused_by_database(f"DELETE FROM {EVENTS_TABLE}")

    assert Event.objects.count() == 3


@pytest.mark.parametrize("form", sorted(REWRITES[VENDOR]))
def test_every_statement_that_would_replace_an_event_is_refused_by_the_database(recorded, form):
    sql = REWRITES[VENDOR][form]
    before = list(Event.objects.order_by("id").values_list("id", "seq", "type", "hash"))

    refused_by_database(sql)

    assert list(Event.objects.order_by("id").values_list("id", "seq", "type", "hash")) == before


def test_saving_a_recorded_event_again_is_refused_by_the_model(recorded):
    event = Event.objects.get(match=recorded, seq=2)
    event.type = "shot"

    with pytest.raises(ImmutableEventError):
        event.save()

    assert Event.objects.get(pk=event.pk).type == "game_started"


def test_deleting_a_recorded_event_is_refused_by_the_model(recorded):
    event = Event.objects.get(match=recorded, seq=2)

    with pytest.raises(ImmutableEventError):
        event.delete()

    assert Event.objects.filter(pk=event.pk).exists()


def test_queryset_update_of_events_is_refused_by_the_database(recorded):
    with pytest.raises(DatabaseError), transaction.atomic():
        Event.objects.filter(match=recorded).update(recorded_by="mallory")

    assert set(Event.objects.values_list("recorded_by", flat=True)) == {"petrenko"}


def test_queryset_bulk_update_of_events_is_refused_by_the_database(recorded):
    events = list(Event.objects.filter(match=recorded))
    for event in events:
        event.hash = "f" * 64

    with pytest.raises(DatabaseError), transaction.atomic():
        Event.objects.bulk_update(events, ["hash"])

    assert not Event.objects.filter(hash="f" * 64).exists()


def test_queryset_delete_of_events_is_refused_by_the_database(recorded):
    with pytest.raises(DatabaseError), transaction.atomic():
        Event.objects.filter(match=recorded).delete()

    assert Event.objects.filter(match=recorded).count() == 3


def test_the_migrations_install_the_triggers_and_unapplying_them_removes_them(event_db):
    leaf = ("matches", "0012_log_hashes_cover_global_ids")
    executor = MigrationExecutor(connection)
    assert leaf in executor.loader.graph.leaf_nodes("matches"), "test the newest migration"

    executor.migrate([("matches", "0001_initial")])
    assert not EXPECTED_TRIGGERS[connection.vendor] & installed_triggers()

    executor = MigrationExecutor(connection)
    # Every app's newest: the read side's tables went back with the migrations they need.
    executor.migrate(executor.loader.graph.leaf_nodes())
    assert EXPECTED_TRIGGERS[connection.vendor] <= installed_triggers()


def test_deleting_a_match_with_events_is_refused(recorded):
    with pytest.raises(ProtectedError), transaction.atomic():
        recorded.delete()

    assert Match.objects.filter(pk=recorded.pk).exists()
    assert Event.objects.filter(match=recorded).count() == 3


def test_deleting_a_player_of_a_match_with_events_is_refused(recorded):
    with pytest.raises(ProtectedError), transaction.atomic():
        Player.objects.get(federation_id="UA-101").delete()

    assert Event.objects.filter(match=recorded).count() == 3


def test_deleting_a_login_keeps_the_officiating_referee_the_match_names(recorded):
    get_user_model().objects.create_user("petrenko").delete()

    recorded.refresh_from_db()
    assert recorded.referee_username == "petrenko"
    assert set(Event.objects.filter(match=recorded).values_list("recorded_by", flat=True)) == {
        "petrenko"
    }


def test_the_system_check_and_verify_archive_fail_when_the_triggers_are_missing(recorded):
    assert not run_checks()
    with triggers_lifted():
        errors = run_checks()
        with pytest.raises(CommandError, match="not protected"):
            call_command("verify_archive", stdout=io.StringIO(), stderr=io.StringIO())

    assert [error.id for error in errors] == ["matches.E001"]
    assert "immutability triggers" in errors[0].msg
