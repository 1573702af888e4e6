"""Reads of the write side that the services, the views and the commands share."""

from __future__ import annotations

from typing import Any

from matches.errors import NotFound, excerpt
from matches.models import Assignment, Match


def match_get(match_id: Any) -> Match:
    """Return a match with its competition, or refuse naming the id."""
    match = Match.objects.select_related("competition").filter(pk=match_id).first()
    if match is None:
        raise NotFound(f"no match {excerpt(match_id)}", "id")
    return match


def assigned_referee(match: Match) -> Any:
    """Return the login assigned to record a match (the latest assignment), or None."""
    latest = Assignment.objects.filter(match=match).select_related("user").last()
    return latest.user if latest is not None else None
