"""A competition whose read model cannot be written: kept as its fault, and the projector
goes on.

The projector does each competition's work of a batch (its stages and ranking, its
standings) in a savepoint of its transaction (`contained`). When that work raises, the
savepoint is rolled back (no half-written row, no match made), the error is kept as the
competition's `ReadModelFault` and logged, and the batch goes on with every other
competition and moves the cursor: one competition's log never stops the projector. The
read model keeps its last good state, which the pages and the API show with the fault
(`replay.queries.championships`); `verify_archive` names it. The next run that writes the
competition's read model deletes the row.

What the database itself refuses (a lost connection, a lock, a serialization failure)
is not the log's doing: it stops the batch, which runs again, as before.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TypeVar

from django.db import InterfaceError, OperationalError, transaction

from matches import store
from replay.models import ReadModelFault

logger = logging.getLogger(__name__)

MESSAGE_LENGTH = 1000
# The database's own trouble: the whole batch is rolled back and runs again.
PASSED_ON = (OperationalError, InterfaceError)

Value = TypeVar("Value")


def contained(
    part: str, competition_id: str, event_id: int, work: Callable[[], Value | None]
) -> Value | None:
    """Run one competition's work in a savepoint; return what it returns, or None when it
    raised, the error kept as the competition's fault at `event_id` (the newest event of
    the competition the work takes in)."""
    try:
        with transaction.atomic():
            return work()
    except PASSED_ON:
        raise
    except Exception as error:
        fault_keep(part, competition_id, event_id, error)
        return None


def described(error: BaseException) -> tuple[str, str]:
    """Return an exception's class (its module named unless a builtin) and message."""
    kind = type(error)
    name = kind.__qualname__
    if kind.__module__ != "builtins":
        name = f"{kind.__module__}.{name}"
    message = str(error)
    if len(message) > MESSAGE_LENGTH:
        message = f"{message[: MESSAGE_LENGTH - 1]}…"
    return name, message


def fault_keep(part: str, competition_id: str, event_id: int, error: Exception) -> None:
    """Keep (or move on) a competition's fault, and log it: with its traceback when it is
    new or says something else than the one kept."""
    name, message = described(error)
    kept = ReadModelFault.objects.filter(competition_id=competition_id, part=part).first()
    if kept is None or (kept.error, kept.message) != (name, message):
        logger.error(
            "the %s of competition %s cannot be written at event %s: %s: %s",
            part,
            competition_id,
            event_id,
            name,
            message,
            exc_info=error,
        )
    else:
        logger.warning(
            "the %s of competition %s still cannot be written at event %s: %s",
            part,
            competition_id,
            event_id,
            name,
        )
    at = store.recorded_at(event_id)
    assert at is not None  # an event of the batch
    fields = {"event": event_id, "at": at, "error": name, "message": message}
    if kept is None:
        ReadModelFault.objects.create(competition_id=competition_id, part=part, **fields)
    else:
        ReadModelFault.objects.filter(pk=kept.pk).update(**fields)


def fault_clear(part: str, competition_id: str) -> None:
    """Delete a competition's fault: its read model is written again."""
    ReadModelFault.objects.filter(competition_id=competition_id, part=part).delete()


def fault_of(competition_id: str, part: str) -> ReadModelFault | None:
    """Return a competition's fault (None when its read model is written)."""
    return ReadModelFault.objects.filter(competition_id=competition_id, part=part).first()


def faults_in_words(**_: object) -> list[str]:
    """Return a line for each fault, as `verify_archive` names it (its `archive_verifying`)."""
    return [
        f"competition {fault.competition_id}: its {fault.part} stopped at event {fault.event}: "
        f"{fault.error}: {fault.message}"
        for fault in ReadModelFault.objects.order_by("competition", "part")
    ]


def faults_delete() -> None:
    """Delete every fault (a rebuild: it writes them again from the log)."""
    ReadModelFault.objects.all().delete()
