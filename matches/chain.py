"""The hash chain of a match: canonical JSON, the seal of the header, each event's hash.

Pure Python. Each hash is the SHA-256 of the previous hash followed by the event's
canonical JSON; event 1 chains to the seal of the header (the notation).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

from matches.header import Header
from matches.notation import canonical_json


def header_hash(header: Header) -> str:
    """Return the "previous hash" of event 1: the seal of balls, players and ruleset."""
    return hashlib.sha256(canonical_json(header.sealed())).hexdigest()


def event_hash(previous: str, event: Mapping[str, Any]) -> str:
    """Return an event's hash, chained to the previous one."""
    body = {k: v for k, v in event.items() if k != "hash"} if "hash" in event else event
    return hashlib.sha256(previous.encode() + canonical_json(body)).hexdigest()
