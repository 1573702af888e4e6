"""The projector's process manager: the matches a competition's settled slots make playable.

Once a batch's read models are written, each competition in stages the stages writer
has just folded is settled: every match both of whose slots are now known and that is
not stored yet (a knockout's next round, the replacement of a voided match) is created
(`services.settle`), and the stages writer puts it in the bracket. Each id is fixed by its
place in the stage, so a match is made exactly once, however often a batch runs again. A
competition whose settling raises is rolled back to its savepoint (no match made) and the
error kept as its fault (`faults`): the others go on, and its next batch reads it again.

This is the one place the projector does more than write read models.
"""

from __future__ import annotations

import functools

from matches.services import settle
from replay.models import ReadModelFault
from replay.projections.faults import contained
from replay.projections.log import Batch, Folded
from replay.projections.stages_writer import folds, stages_matches_add


def matches_make(batch: Batch) -> None:
    """Create the matches each competition the stages writer folded in `batch` now needs."""
    for competition_id, folded in sorted(batch.championships.items()):
        work = functools.partial(_make, folded, batch.position)
        if not contained(ReadModelFault.STAGES, competition_id, folded.newest, work):
            folds.delete(competition_id)  # with a fault: read again, and its fault cleared


def _make(folded: Folded, position: int) -> bool:
    made = settle(folded.competition, folded.championship, stored=folded.stored)
    if made:  # the new matches' ids go on its bracket
        stages_matches_add(folded, [match.pk for match in made], position)
    return True
