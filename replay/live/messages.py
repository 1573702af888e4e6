"""The messages of `/ws/matches/{id}/`: each one encoded once, however many viewers get it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import orjson

from matches.errors import Refused
from matches.render import render
from matches.state import MatchState

# The scoreboard part of the match state: a message stays small however long the match.
SCOREBOARD = ("status", "winner", "games_won", "games", "next", "positions")


def scoreboard(state: MatchState, event: Mapping[str, Any]) -> dict[str, Any]:
    """Return the scoreboard of the state just after `event`, with that event's ruling."""
    shown = render(state, detached=False)
    board = {key: shown[key] for key in SCOREBOARD}
    board["ruling"] = ruling_of(state, event)
    return board


def ruling_of(state: MatchState, event: Mapping[str, Any]) -> dict[str, Any] | None:
    """Return the ruling of the shot an event is, or amends (its new ruling); else None."""
    if event["type"] == "shot":
        shot = state.seq
    elif event["type"] == "shot_amended":
        shot = event["shot"]
    else:
        return None
    entry = state.shot_index.get(shot)
    return None if entry is None else entry["ruling"]


def event_message(record: Mapping[str, Any], state: MatchState) -> str:
    """Return the message of one event, as a record writes it, with the scoreboard after it."""
    message = {
        "type": "event",
        "seq": record["seq"],
        "event": record,
        "state": scoreboard(state, record),
    }
    return orjson.dumps(message).decode()


def head_message(seq: int) -> str:
    """Return the clock's message: the last `seq`, for a client to notice a gap."""
    return orjson.dumps({"type": "head", "seq": seq}).decode()


def error_message(error: Refused) -> str:
    """Return the answer to a client message that cannot be followed."""
    return orjson.dumps({"type": "error", **error.as_dict()}).decode()
