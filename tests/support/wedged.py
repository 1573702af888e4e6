"""A competition whose draw its fold cannot take, as the projector's safety net meets it.

`wedge` appends to a competition's own log a draw of its knockout without its size (the
write path never would: the fold raises a KeyError on it); `unwedge` undoes that draw,
and the competition folds again.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from matches.models import Competition
from matches.services.competition_log import log_append
from replay.models import ReadModelFault

BROKEN_DRAW = {"type": "stage_drawn", "stage": "ko", "seeds": ["groups:A1", "groups:B1"]}


def _append(competition: str, event: dict[str, Any]) -> int:
    with transaction.atomic():
        return log_append(Competition.objects.get(pk=competition), [event], "director")[0]


def wedge(competition: str = "euro") -> int:
    """Append the draw the fold cannot take; return its global id."""
    return _append(competition, BROKEN_DRAW)


def unwedge(competition: str = "euro") -> int:
    """Undo that draw; return the undoing's global id."""
    return _append(competition, {"type": "draw_undone", "stage": "ko"})


def faults() -> list[tuple[str, str, int, str, str, Any]]:
    """Return every read model's fault as a rebuild must write it again (its row's id aside)."""
    return list(
        ReadModelFault.objects.order_by("competition", "part").values_list(
            "competition", "part", "event", "error", "message", "at"
        )
    )
