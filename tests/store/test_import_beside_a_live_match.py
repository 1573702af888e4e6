"""An archive import never stops a live match: each record commits alone, briefly."""

import copy
import threading
import time

import pytest
from django.db import connections

from matches.domain.simulator import simulate_match
from matches.models import Event, Match
from matches.records import record_import
from tests.support.builders import new_match, open_game, play

BEGIN_S = 60.0


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
@pytest.mark.journey  # a large archive imported
def test_a_shot_recorded_while_a_large_archive_imports_commits_between_its_records(event_db):
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
    deadline = time.monotonic() + BEGIN_S  # a liveness limit: the first record comes at once
    while True:
        importing = thread.is_alive()  # asked first: ended and stored nothing is then certain
        if Match.objects.filter(competition="old-league").exists():
            break
        assert importing, f"the import ended before its first record: {importing_errors}"
        assert time.monotonic() < deadline, f"the import stored nothing in {BEGIN_S} s"
        time.sleep(0.01)
    shots = 0
    while thread.is_alive():
        seq = play(match.id, seq)
        shots += 1
        time.sleep(0.05)
    thread.join()

    assert importing_errors == []
    assert Match.objects.filter(competition="old-league").count() == len(records)
    assert shots >= 3, "the import ended before the referee could record beside it"
    assert Event.objects.filter(match=match).count() == seq
    # The log's one order is the commit order: a shot that waited for the whole import
    # would come after all of it. Each was stored between two records instead.
    imported = Event.objects.filter(match__competition="old-league")
    first, last = (
        imported.order_by(order).values_list("id", flat=True)[0] for order in ("id", "-id")
    )
    during = Event.objects.filter(match=match, id__gt=first, id__lt=last).count()
    assert during >= shots - 1, f"{during} of {shots} shots were stored during the import"
