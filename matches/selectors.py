"""Reads of the write side that the services, the views and the commands share."""

from __future__ import annotations

from typing import Any

from matches.errors import NotFound
from matches.models import Match


def match_get(match_id: Any) -> Match:
    """Return a match with its competition and referee, or refuse naming the id."""
    match = Match.objects.select_related("competition", "referee").filter(pk=match_id).first()
    if match is None:
        raise NotFound(f"no match {match_id!r}", "id")
    return match

