"""Who may record a match: the API's permissions and the console's page ask here."""

from __future__ import annotations

from typing import Any

from matches.selectors import assigned_referee_id


def is_staff(user: Any) -> bool:
    return bool(user and user.is_authenticated and user.is_staff)


def may_record(user: Any, match: Any) -> bool:
    """Return whether a login may record a match (or a match's id): staff, or its referee."""
    if is_staff(user):
        return True
    if not user.is_authenticated:
        return False
    assigned = assigned_referee_id(match)
    return assigned is not None and assigned == user.pk
