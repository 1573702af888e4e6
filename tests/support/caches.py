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

from carambole.caches import clear_every_cache
from replay.projections import projector
from replay.queries.read_cache import READS

Answer = TypeVar("Answer")


def clear_all_caches() -> None:
    """Empty every process-local cache, and the read cache: the next answer is made from
    the store alone."""
    caches[READS].clear()  # answers kept by what they depend on
    clear_every_cache()  # every process-local `Cache`
    projector.clear_caches()  # the projector's match folds, standings tables, stages folds


def answered_alike(
    ask: Callable[[], Answer], cold: Callable[[], object] = clear_all_caches
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
