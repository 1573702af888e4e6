"""The notice a commit sends to the other server processes: which match, up to which `seq`.

A notice carries no event: each process reads the events from the store, so a lost
notice only delays them, and a notice heard twice pushes nothing twice.
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Mapping
from typing import Any

NOTICE = "live.appended"
# This process: it tells its own hubs directly and skips its own notices on the layer.
ORIGIN = uuid.uuid4().hex


def group_of(match_id: str) -> str:
    """Return the channel-layer group of the processes that push a match.

    Hashed: a match id may be longer than a group name may be, or hold other characters.
    """
    return "live.match." + hashlib.blake2s(match_id.encode(), digest_size=16).hexdigest()


def notice(match_id: str, seq: int) -> dict[str, Any]:
    """Return the notice that a match's log now reaches `seq`."""
    return {"type": NOTICE, "match": match_id, "seq": seq, "origin": ORIGIN}


def read_notice(message: Mapping[str, Any]) -> tuple[str, int] | None:
    """Return (match id, seq) of another process's notice; None for anything else."""
    match_id, seq = message.get("match"), message.get("seq")
    if (
        message.get("type") != NOTICE
        or message.get("origin") == ORIGIN
        or type(match_id) is not str
        or type(seq) is not int
    ):
        return None
    return match_id, seq
