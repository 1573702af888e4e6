"""The fold: a match's events, one after another, into its state; and a new event judged.

`fold(header, events, upto, view)` rebuilds the state of the notation from the
events alone, amended (every correction applied) or as seen live. `decide` judges
one new event against a state and `evolve` folds it in; `check_log` does both for
a whole record, judging each event against the match as it stood when it was
recorded. Pure Python: no Django.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from matches.domain.errors import Refused
from matches.domain.events import KINDS
from matches.domain.header import Header
from matches.domain.render import render
from matches.domain.state import Corrections, MatchState
from matches.domain.transitions import REFOLD

VIEWS = ("amended", "live")

_EVOLVE = {name: kind.evolve for name, kind in KINDS.items()}


def evolve(state: MatchState, event: Mapping[str, Any]) -> MatchState:
    """Return the state after one more event, one that was legal when it was recorded.

    The state given is the fold's accumulator and changes too; after a new correction
    the shot it names and all that followed are folded again into a new state.
    """
    state.seq += 1
    state.events.append(event)
    if _EVOLVE[event["type"]](state, event) is REFOLD:
        return state_after(state.header, state.events, state.corrections)
    return state


def state_after(
    header: Header, events: Sequence[Mapping[str, Any]], corrections: Corrections | None = None
) -> MatchState:
    """Return the state after these events, with these corrections (default: their own)."""
    state = MatchState(header, Corrections.of(events) if corrections is None else corrections)
    for event in events:
        # `evolve`, spelt out: a rebuild folds every event of the archive here.
        state.seq += 1
        state.events.append(event)
        if _EVOLVE[event["type"]](state, event) is REFOLD:
            state = state_after(state.header, state.events, state.corrections)
    return state


def decide(state: MatchState, event: Mapping[str, Any]) -> dict[str, Any]:
    """Return a new event as it will be stored (a shot names its player), or raise Refused."""
    try:
        return KINDS[event["type"]].decide(state, dict(event))
    except Refused as error:
        raise error.at(state.seq + 1) from None


def fold(
    header: Header,
    events: Sequence[Mapping[str, Any]],
    upto: int | None = None,
    view: str = "amended",
) -> dict[str, Any]:
    """Return the match state after events 1..upto, amended (every correction) or live."""
    if view not in VIEWS:
        raise Refused(f"must be one of {', '.join(VIEWS)}", "view")
    shown = events if upto is None else events[:upto]
    corrections = Corrections.of(events if view == "amended" else shown)
    return render(state_after(header, shown, corrections), detached=False)


def check_log(header: Header, events: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Return the events as stored (shots name their player), refusing the first illegal one.

    Each event is judged against the match as it stood when it was recorded: the
    events before it, with the corrections recorded before it.
    """
    return checked_log(header, events)[0]


def checked_log(
    header: Header, events: Sequence[Mapping[str, Any]]
) -> tuple[list[dict[str, Any]], MatchState]:
    """Return `check_log`'s events and the state after the last: the match as amended."""
    checked: list[dict[str, Any]] = []
    state = MatchState(header)
    for event in events:
        event = decide(state, event)
        checked.append(event)
        state = evolve(state, event)
    return checked, state
