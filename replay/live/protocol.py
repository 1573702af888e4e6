"""What a client says: the `after` or `version` of the URL, its messages (`resume`), or why not."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import parse_qs

import orjson

from matches.domain.errors import Refused

SEQ = re.compile(r"[0-9]{1,9}")  # a match has at most 5,000 events; ASCII digits only
VERSION = re.compile(r"[0-9]{1,19}")  # a global id: below 2^63
LONGEST_MESSAGE = 1_000  # characters: a resume needs a few dozen


def parse_after(query_string: bytes) -> int:
    """Return the `after` of a socket's URL (0 when absent), or refuse it."""
    query = parse_qs(query_string.decode("latin-1"), keep_blank_values=True)
    values = query.get("after", ["0"])
    if len(values) != 1 or not SEQ.fullmatch(values[0]):
        raise Refused("must be a whole number from 0", "after")
    return int(values[0])


def parse_version(query_string: bytes) -> int | None:
    """Return the `version` of a snapshot socket's URL (None when absent), or refuse it."""
    query = parse_qs(query_string.decode("latin-1"), keep_blank_values=True)
    values = query.get("version")
    if values is None:
        return None
    if len(values) != 1 or not VERSION.fullmatch(values[0]) or int(values[0]) >= 2**63:
        raise Refused("must be a whole number from 0", "version")
    return int(values[0])


def parse_resume(text: str | None) -> int:
    """Return the `after` of a client's `{"type": "resume", "after": SEQ}`, or refuse it."""
    if text is None:
        raise Refused("must be a JSON text message, not binary")
    if len(text) > LONGEST_MESSAGE:
        raise Refused(f"is longer than {LONGEST_MESSAGE} characters")
    try:
        message: Any = orjson.loads(text)
    except orjson.JSONDecodeError:
        raise Refused("is not JSON") from None
    if type(message) is not dict:
        raise Refused("must be a JSON object")
    if message.get("type") != "resume":
        raise Refused('must be "resume"', "type")
    for key in message:
        if key not in ("type", "after"):
            raise Refused("is not a field of a resume", key[:40])
    after = message.get("after")
    if type(after) is not int or after < 0:
        raise Refused("must be a whole number from 0", "after")
    return after
