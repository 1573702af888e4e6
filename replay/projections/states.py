"""State on demand: any match, as of any `seq`, amended or as seen live, from the stored events.

Each answer is the fold of the match's events as stored when it is asked, so it is never
stale, whichever process answers: no page or socket that asks for a state has a speed
target that a cache of folds would serve (`make bench` reports the state on demand beside
a raw read of the same rows).
"""

from __future__ import annotations

from typing import Any

from matches import store
from matches.domain.errors import Refused
from matches.domain.fold import VIEWS, fold
from matches.domain.readback import folding
from matches.models import Match
from matches.selectors import match_get


def match_state(
    match: Match | str, upto: int | None = None, view: str = "amended"
) -> dict[str, Any]:
    """Return the match state after event `upto` (default: all), amended or live.

    A stored event that cannot be read or folded (a corrupt row) is refused naming it.
    """
    if view not in VIEWS:
        raise Refused(f"must be one of {', '.join(VIEWS)}", "view")
    if not isinstance(match, Match):
        match = match_get(match)
    with folding():
        events = store.load_facts(match)
        if upto is not None and not 0 <= upto <= len(events):
            raise Refused(f"must be between 0 and {len(events)}", "upto")
        return fold(match.header(), events, upto=upto, view=view)
