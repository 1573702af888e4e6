"""The notice a change sends to the other server processes: which topic, up to where.

A topic is what a socket watches: `("match", id)` (its events), `("hall", id)` and
`("standings", id)` (a competition's). A notice carries no data: each process reads
the topic from the store, so a lost notice only delays it, and a notice heard twice
sends nothing twice. Its position is the `seq` a match's log reaches, the version of
standings committed, or 0 for "read it again" (a hall).
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Mapping
from typing import Any

NOTICE = "live.changed"
KINDS = ("match", "hall", "standings")
# This process: it tells its own hubs directly and skips its own notices on the layer.
ORIGIN = uuid.uuid4().hex

Topic = tuple[str, str]  # (kind, id)


def group_of(topic: Topic) -> str:
    """Return the channel-layer group of the processes that push a topic.

    Hashed: an id may be longer than a group name may be, or hold other characters.
    """
    kind, key = topic
    return f"live.{kind}." + hashlib.blake2s(key.encode(), digest_size=16).hexdigest()


def notice(topic: Topic, position: int) -> dict[str, Any]:
    """Return the notice that a topic changed, up to `position`."""
    kind, key = topic
    return {"type": NOTICE, "kind": kind, "key": key, "position": position, "origin": ORIGIN}


def read_notice(message: Mapping[str, Any]) -> tuple[Topic, int] | None:
    """Return (topic, position) of another process's notice; None for anything else."""
    kind, key, position = message.get("kind"), message.get("key"), message.get("position")
    if (
        message.get("type") != NOTICE
        or message.get("origin") == ORIGIN
        or kind not in KINDS
        or type(key) is not str
        or type(position) is not int
    ):
        return None
    return (kind, key), position
