"""The messages of `/ws/matches/{id}/`: each one encoded once, however many viewers get it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import orjson

from matches.domain.errors import Refused
from matches.domain.render import scoreboard
from matches.domain.state import MatchState


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
