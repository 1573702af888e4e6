"""Celery tasks: thin, idempotent, ids in; the projector does the work.

`committed` hears each committed append and has the recompute of the match's
competition enqueued. Not on the request's path: publishing to the broker cost a
recorded shot a third of its time, so a thread of the process's own enqueues, each
competition once however many of its commits came while it was busy or in the
`STANDINGS_ENQUEUE_GATHER_MS` after the first (one recompute catches up all of them).
Embedded (tasks eager), the recompute runs at once, as before.
A lost enqueue loses nothing: when Redis is down it fails at once, and
`projector_sweep` (Celery beat, or a worker's `-B`) finds the cursor behind the log and
catches up when Redis is back, as it does for an enqueue lost with its process.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Sequence
from typing import Any

from celery import shared_task
from django.conf import settings
from django.db import DatabaseError

from carambole.celery import app
from matches.models import Match
from replay.projections import projector
from replay.projections.ratings_writer import ratings_catch_up

logger = logging.getLogger(__name__)

# How `committed` is connected to `events_appended` (replay.apps), and disconnected by a
# test or a benchmark that records without the projector hearing of it.
COMMITTED_UID = "replay.tasks.committed"


def committed(
    sender: Any,
    *,
    match_id: str,
    seqs: Sequence[int],
    competition_id: str | None = None,
    **kwargs: Any,
) -> None:
    """Have the recompute of the competition of a match whose log grew enqueued."""
    try:
        if competition_id is None:  # a sender that did not say
            competition_id = Match.objects.values_list("competition_id", flat=True).get(pk=match_id)
    except Exception as error:  # the signal is sent robustly: say why here
        logger.warning("standings: no recompute after %s (%s); the sweep will", match_id, error)
        return
    if app.conf.task_always_eager:
        _enqueue(competition_id)  # embedded: recomputed now, in this request
    else:
        enqueuer.want(competition_id)


def _enqueue(competition_id: str) -> None:
    try:
        standings_recompute.apply_async((competition_id,), retry=False)
    except Exception as error:
        logger.warning(
            "standings: recompute of %s not enqueued (%s); the sweep will", competition_id, error
        )


class Enqueuer:
    """Enqueues recomputes from a thread of its own, each competition once per turn."""

    def __init__(self) -> None:
        self._wanted: set[str] = set()
        self._busy = False
        self._changed = threading.Condition()
        self._thread: threading.Thread | None = None

    def want(self, competition_id: str) -> None:
        """Have a competition's recompute enqueued soon (from any thread; never waits)."""
        with self._changed:
            self._wanted.add(competition_id)
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(
                    target=self._run, name="standings-enqueue", daemon=True
                )
                self._thread.start()
            self._changed.notify_all()

    def flush(self, timeout: float) -> bool:
        """Wait until everything wanted is enqueued; return whether it was within `timeout`."""
        with self._changed:
            return self._changed.wait_for(lambda: not self._wanted and not self._busy, timeout)

    def _run(self) -> None:
        while True:
            with self._changed:
                self._changed.wait_for(lambda: bool(self._wanted))
            # The commits of the next moments want the same recomputes: one task for all.
            time.sleep(settings.STANDINGS_ENQUEUE_GATHER_MS / 1000)
            with self._changed:
                # Wanted from here on is wanted again: a commit after this turn began
                # gets a recompute of its own.
                turn, self._wanted, self._busy = self._wanted, set(), True
            try:
                for competition_id in sorted(turn):
                    _enqueue(competition_id)
            finally:
                with self._changed:
                    self._busy = False
                    self._changed.notify_all()


enqueuer = Enqueuer()


# Late acknowledgement and reject_on_worker_lost: a pool process that dies mid-task puts the
# message back on the queue. A whole worker killed leaves it unacknowledged until the
# broker's visibility timeout; the sweep catches up long before. Either way the rerun is
# harmless: the projector's cursor says what is done.
TASK_OPTIONS: dict[str, Any] = {
    "ignore_result": True,  # nobody waits for one; the read models are the result
    "acks_late": True,
    "reject_on_worker_lost": True,
    "autoretry_for": (DatabaseError,),
    "retry_backoff": True,
    "retry_backoff_max": 60,
    "max_retries": 10,
}


@shared_task(**TASK_OPTIONS)
def standings_recompute(competition_id: str) -> int:
    """Recompute a competition's standings: catch the read models up with the log.

    One cursor keeps the log's order across competitions, so the recompute of one is the
    catch-up of all (usually only its own events are new). Return its version.
    """
    caught = projector.catch_up()
    ratings_catch_up()  # after the projector's commit: its viewers are told first
    return caught.versions.get(competition_id, 0)


@shared_task(**TASK_OPTIONS)
def projector_sweep() -> int:
    """Catch the read models up when the cursor is behind the log; return the events read.

    Scheduled matches get their summaries here too: no event announces them.
    """
    caught = projector.catch_up(scheduled=True)
    ratings_catch_up()
    if caught.events:
        logger.info("standings: the sweep caught up %s events", caught.events)
    return caught.events
