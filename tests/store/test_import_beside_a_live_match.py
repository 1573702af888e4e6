"""An archive import never stops a live match: each record commits alone, briefly."""

import copy
import threading
import time

import pytest
from django.db import connections

from matches.models import Event, Match
from matches.records import record_import
from matches.simulator import simulate_match
from tests.store.plays import new_match, open_game, play

LONGEST_WAIT_S = 2.0  # what a referee may wait for a shot to be recorded, import or not


def archive(copies: int) -> list[dict]:
    """Return simulated records under distinct ids: an archive of some thousands of events."""
    originals = [simulate_match(seed) for seed in range(10)]
    records = []
    for number in range(copies):
        record = copy.deepcopy(originals[number % len(originals)])
        record["match"]["id"] = f"old-{number}"
        record["match"]["competition"] = "old-league"
        records.append(record)
    return records


@pytest.mark.slow
def test_a_shot_recorded_while_a_large_archive_imports_is_stored_within_two_seconds(event_db):
    match = new_match()
    seq = open_game(match.id)
    records = archive(120)
    importing_errors: list[Exception] = []

    def importer():
        try:
            for record in records:
                record_import(record)
        except Exception as error:  # reported by the test, not lost in the thread
            importing_errors.append(error)
        finally:
            connections.close_all()

    thread = threading.Thread(target=importer)
    thread.start()
    while not Match.objects.filter(competition="old-league").exists():
        time.sleep(0.01)
    waits = []
    while thread.is_alive():
        started = time.monotonic()
        seq = play(match.id, seq)
        waits.append(time.monotonic() - started)
        time.sleep(0.05)
    thread.join()

    assert importing_errors == []
    assert Match.objects.filter(competition="old-league").count() == len(records)
    assert len(waits) >= 3, "the import ended before the referee could record beside it"
    assert max(waits) < LONGEST_WAIT_S, f"a shot waited {max(waits):.2f} s for the import"
    assert Event.objects.filter(match=match).count() == seq
