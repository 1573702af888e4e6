"""Events are append-only: the model, the query API and the database itself refuse changes."""

import pytest
from django.contrib.auth import get_user_model
from django.db import DatabaseError, connection, transaction
from django.db.migrations.executor import MigrationExecutor
from django.db.models import ProtectedError

from matches.immutability import EVENTS_TABLE, installed_triggers
from matches.models import Event, ImmutableEventError, Match, Player
from tests.store.plays import new_match, open_game

EXPECTED_TRIGGERS = {
    "postgresql": {f"{EVENTS_TABLE}_immutable", f"{EVENTS_TABLE}_no_truncate"},
    "sqlite": {f"{EVENTS_TABLE}_no_update", f"{EVENTS_TABLE}_no_delete"},
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
    leaf = ("matches", "0002_event_immutability_triggers")
    executor = MigrationExecutor(connection)
    assert leaf in executor.loader.graph.leaf_nodes("matches"), "test the newest migration"

    executor.migrate([("matches", "0001_initial")])
    assert not EXPECTED_TRIGGERS[connection.vendor] & installed_triggers()

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes("matches"))
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


def test_deleting_the_referee_keeps_the_match_and_its_events(recorded):
    get_user_model().objects.get(username="petrenko").delete()

    recorded.refresh_from_db()
    assert recorded.referee is None
    assert (
        list(Event.objects.filter(match=recorded).values_list("recorded_by", flat=True))
        == ["petrenko"] * 3
    )
