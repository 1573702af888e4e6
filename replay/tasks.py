"""Celery tasks: thin, idempotent, ids in; the projector does the work.

`committed` hears each committed append and enqueues the recompute of the match's
competition. It never waits on the broker: when Redis is down the enqueue fails at
once, the request has already answered, and `projector_sweep` (Celery beat, or a
worker's `-B`) finds the cursor behind the log and catches up when Redis is back.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from typing import Any

from celery import shared_task
from django.conf import settings
from django.db import DatabaseError, transaction

from matches.models import Match
from replay.projections import projector

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
    """Enqueue the recompute of the competition of a match whose log grew (after the commit)."""
    try:
        if competition_id is None:  # a sender that did not say
            competition_id = Match.objects.values_list("competition_id", flat=True).get(pk=match_id)
        standings_recompute.apply_async((competition_id,), retry=False)
    except Exception as error:  # the signal is sent robustly: say why here
        logger.warning(
            "standings: recompute after %s not enqueued (%s); the sweep will", match_id, error
        )


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
    pause = settings.PROJECTOR_TASK_PAUSE_SECONDS
    with transaction.atomic():
        if pause:  # tests of a worker lost mid-task: hold the cursor as a long batch would
            projector.hold()
            time.sleep(pause)
        caught = projector.catch_up()
    return caught.versions.get(competition_id, 0)


@shared_task(**TASK_OPTIONS)
def projector_sweep() -> int:
    """Catch the read models up when the cursor is behind the log; return the events read.

    Scheduled matches get their summaries here too: no event announces them.
    """
    caught = projector.catch_up(scheduled=True)
    if caught.events:
        logger.info("standings: the sweep caught up %s events", caught.events)
    return caught.events
