"""Each standings recompute holds the projector's cursor and says so: for a worker lost mid-task.

Only a test's Celery worker imports this module (`celery_workers.worker(..., holding=True)`
passes it to `--include`); nothing in the project reads it. Once that worker starts, each
`standings_recompute` locks the cursor in a transaction around the task, logs
`CURSOR_HELD` and waits, as a long batch would, before it runs. The test waits for that
line, then kills the worker. Imported anywhere else, the module changes nothing.
"""

from __future__ import annotations

import logging
import time

from celery import signals
from django.db import transaction

from replay import tasks
from replay.projections import projector
from tests.support.celery_workers import CURSOR_HELD

HOLD_S = 120.0  # longer than any test waits: the test kills the worker first

logger = logging.getLogger(__name__)
recompute = tasks.standings_recompute.run


def held_recompute(competition_id: str) -> int:
    """Lock the cursor, say so and wait; then recompute in the same transaction."""
    with transaction.atomic():
        projector.hold()
        logger.warning("%s for %s", CURSOR_HELD, competition_id)
        time.sleep(HOLD_S)
        return recompute(competition_id)


def hold_in_each_recompute(**_: object) -> None:
    """Make this worker's recomputes hold the cursor first (imported elsewhere, it does not)."""
    tasks.standings_recompute.run = held_recompute


signals.worker_init.connect(hold_in_each_recompute, weak=False)
