"""The draw of a championship's stage: who it draws from, and its `stage_drawn` event.

Pure Python.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from matches.domain.competition_log import GROUPS, KNOCKOUT
from matches.domain.draws import (
    check_groups_fit,
    check_knockout_fits,
    group_names,
    groups_from_groups,
    qualifiers,
    snake,
)
from matches.domain.errors import Refused
from matches.domain.stages import Stage

if TYPE_CHECKING:
    from matches.domain.championship import Championship


def groups_draw(stage: Stage, entrants: Sequence[str], where: str) -> dict[str, list[str]]:
    """Return a groups stage's draw: each group's slots, by snake order of `entrants`.

    `where` names the stage (`stages[0]`) in a refusal: too few players for its groups,
    or a group from which all would go on.
    """
    check_groups_fit(stage.groups, stage.advance, len(entrants), where)
    return dict(zip(group_names(stage.groups), snake(list(entrants), stage.groups), strict=True))


def stage_entrants(championship: Championship, stage: Stage) -> list[str]:
    """Return the slots a stage draws from, best seeded first, or refuse while unsettled.

    From the entries: every entrant not withdrawn, but those a later stage takes
    directly. From a groups stage: its `direct` seeds, then the qualifiers who are there, ordered to
    keep one group's players apart (into a knockout, in two halves; into groups, in two
    groups) wherever the count allows.
    """
    competition_log = championship.log
    stages = championship.stages
    if stage.source is None:
        skipping = max((later.direct for later in stages if later.source == stage.id), default=0)
        return [
            f"{stage.id}:S{entrant.seed}"
            for rank_number, entrant in enumerate(competition_log.by_seed(), start=1)
            if not entrant.withdrawn and rank_number > skipping
        ]
    source = championship.stage(stage.source)
    if source.id not in competition_log.draws:
        raise Refused(f"stage {source.id} is not drawn yet", "stage")
    if not championship.settled(source):
        raise Refused(f"stage {source.id} is not settled yet: its groups are still open", "stage")
    direct = [
        f"{stage.id}:S{entrant.seed}" for entrant in competition_log.by_seed()[: stage.direct]
    ]
    groups = len(competition_log.draws[source.id]["groups"])
    advance = source.advance or 1
    if stage.kind == KNOCKOUT:
        # The size is the draw's to check, naming the stage's field.
        order = qualifiers(groups, advance, direct=len(direct))
    else:
        order = groups_from_groups(groups, advance, stage.groups, len(direct))
    # A place no one holds (its group left short by a withdrawal) sends no one on.
    advancing = [f"{source.id}:{group}{place}" for group, place in order]
    return direct + [slot for slot in advancing if championship.holder(slot).settled]


def draw_event(championship: Championship, stage: Stage) -> dict[str, Any]:
    """Return the `stage_drawn` event of a stage, or refuse naming the stage's field."""
    slots = stage_entrants(championship, stage)
    where = stage_field(championship.stages, stage)
    if stage.kind == GROUPS:
        return {
            "type": "stage_drawn",
            "stage": stage.id,
            "groups": groups_draw(stage, slots, where),
        }
    size = check_knockout_fits(len(slots), stage.size, stage.third_place, where)
    return {"type": "stage_drawn", "stage": stage.id, "seeds": slots, "size": size}


def stage_field(stages: Sequence[Stage], stage: Stage) -> str:
    """Return how a refusal names a stage: its place in the competition's `stages`."""
    return f"stages[{[each.id for each in stages].index(stage.id)}]"
