"""The check every process-local cache of the read side passes: asked twice, a question
gets the same answer, and that answer is the one a process with nothing cached gives.

A cache that answers from what it kept when it should have read again (the preview's
kept fold once answered "nothing would change" the second time it was asked) fails here
whichever test asks.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from django.core.cache import caches

from matches import draws
from matches.services import running
from replay.live import hall
from replay.projections import projector, states
from replay.queries import search
from replay.queries.read_cache import READS

Answer = TypeVar("Answer")


def forget_every_cache() -> None:
    """Empty every process-local cache, and the read cache: the next answer is made from
    the store alone."""
    caches[READS].clear()  # answers kept by what they depend on
    projector.clear_caches()  # the projector's match folds, standings tables, stages folds
    states.forget()  # match states and snapshots
    running.forget()  # the write path's states of the matches in play
    draws._group_plan.cache_clear()
    search._PAGE_SQL.clear()  # the archive's compiled pages
    hall._reads.clear()  # the hall's read shared by the viewers poked together


def answered_alike(
    ask: Callable[[], Answer], cold: Callable[[], object] = forget_every_cache
) -> Answer:
    """Return `ask()`'s answer once it is the same asked again and asked after `cold`
    (by default, every cache emptied); fail naming which answer differed."""
    first = ask()
    second = ask()
    assert second == first, "asked again, the answer differs from the first"
    cold()
    from_nothing = ask()
    assert from_nothing == first, "with nothing cached, the answer differs from the cached one"
    return first
