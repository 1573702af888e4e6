"""The Celery tasks, called in-process: idempotent, concurrent-safe, and never losing a change."""

from __future__ import annotations

import threading

import pytest
from django.db import connection
from kombu.exceptions import OperationalError

from bench.amendment import unannounced
from bench.recording import eager
from matches.models import Event
from replay import tasks
from replay.models import StandingsChange
from replay.projections import projector
from replay.queries.standings_reader import standings_get
from tests.support.league import flip, league, win

pytestmark = pytest.mark.usefixtures("projector_forgotten", "event_db")

WAIT_S = 60.0  # the longest a test waits for the enqueuing thread (a loaded machine's too)


def flipped_unprojected() -> tuple[str, int]:
    """Return the competition's first match and the id of an amendment not projected yet."""
    cup = league()
    seq = win(cup[0], "B")
    projector.catch_up()
    with unannounced():
        seq = flip(cup[0], seq)
    return cup[0], Event.objects.get(match_id=cup[0], seq=seq).id


def test_without_redis_recording_an_event_recomputes_the_standings_in_process():
    with eager():
        cup = league()
        win(cup[0], "A")

    standings = standings_get("cup")
    assert standings["version"] == projector.head()
    assert standings["rows"][0]["match_points"] == 2


def test_the_same_recompute_twice_at_once_writes_one_new_version():
    _, amendment = flipped_unprojected()
    changes = StandingsChange.objects.count()
    start = threading.Barrier(2)
    answers: list[int] = []

    def recompute() -> None:
        try:
            start.wait()
            answers.append(tasks.standings_recompute("cup"))
        finally:
            connection.close()

    threads = [threading.Thread(target=recompute) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)

    assert sorted(answers) == [0, amendment]
    assert StandingsChange.objects.count() == changes + 1
    assert standings_get("cup")["version"] == amendment


def test_a_recompute_run_again_changes_nothing():
    _, amendment = flipped_unprojected()
    tasks.standings_recompute("cup")
    changes = StandingsChange.objects.count()

    assert tasks.standings_recompute("cup") == 0
    assert StandingsChange.objects.count() == changes
    assert standings_get("cup")["version"] == amendment


def test_an_enqueue_the_broker_refuses_loses_nothing_the_sweep_catches_up(monkeypatch):
    cup = league()
    seq = win(cup[0], "B")
    projector.catch_up()

    def refused(*args, **kwargs):
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(tasks.standings_recompute, "apply_async", refused)
    seq = flip(cup[0], seq)  # the request succeeds: the event is stored
    amendment = Event.objects.get(match_id=cup[0], seq=seq).id
    assert projector.position() < amendment

    assert tasks.projector_sweep() > 0
    assert standings_get("cup")["version"] == amendment
    assert tasks.projector_sweep() == 0


def test_a_commit_enqueues_the_recompute_of_its_competition_without_asking_the_database(
    monkeypatch, django_assert_num_queries
):
    cup = league()
    enqueued = []
    monkeypatch.setattr(
        tasks.standings_recompute, "apply_async", lambda args, **options: enqueued.append(args)
    )

    with eager(False):
        with django_assert_num_queries(0):
            tasks.committed(None, match_id=cup[0], competition_id="cup", seqs=[1])
        assert tasks.enqueuer.flush(WAIT_S)
        tasks.committed(None, match_id=cup[0], seqs=[1])  # a sender that does not say
        assert tasks.enqueuer.flush(WAIT_S)

    assert enqueued == [("cup",), ("cup",)]


def test_commits_while_the_enqueuer_is_busy_are_enqueued_once_after_it(monkeypatch):
    """One recompute catches up every commit before it: a hall's burst is one task."""
    started, release = threading.Event(), threading.Event()
    enqueued = []

    def slow_broker(args, **options):
        enqueued.append(args)
        started.set()
        release.wait(WAIT_S)

    monkeypatch.setattr(tasks.standings_recompute, "apply_async", slow_broker)
    with eager(False):
        tasks.committed(None, match_id="m", competition_id="cup", seqs=[1])
        assert started.wait(WAIT_S)
        for seq in range(2, 12):  # ten commits while the broker is slow
            tasks.committed(None, match_id="m", competition_id="cup", seqs=[seq])
        tasks.committed(None, match_id="m", competition_id="league", seqs=[1])
        release.set()
        assert tasks.enqueuer.flush(WAIT_S)

    assert enqueued == [("cup",), ("cup",), ("league",)]


def test_commits_in_the_moments_after_the_first_are_enqueued_once_with_it(monkeypatch, settings):
    """Tables recording together want the same recompute: one task for the moment's commits."""
    settings.STANDINGS_ENQUEUE_GATHER_MS = 1000
    enqueued = []
    monkeypatch.setattr(
        tasks.standings_recompute, "apply_async", lambda args, **options: enqueued.append(args)
    )
    with eager(False):
        for seq in range(1, 11):  # ten tables' shots within the moment
            tasks.committed(None, match_id=f"m{seq}", competition_id="cup", seqs=[seq])
        assert tasks.enqueuer.flush(WAIT_S)

    assert enqueued == [("cup",)]


def test_with_tasks_eager_a_commit_recomputes_before_the_request_answers(monkeypatch):
    enqueued = []
    monkeypatch.setattr(
        tasks.standings_recompute, "apply_async", lambda args, **options: enqueued.append(args)
    )
    with eager(True):
        tasks.committed(None, match_id="m", competition_id="cup", seqs=[1])

        assert enqueued == [("cup",)]  # at once, in this thread
