"""Who may do what: anyone reads; a referee records the matches assigned to them; staff all."""

from __future__ import annotations

from typing import Any

from rest_framework.permissions import BasePermission

from replay.queries.access import is_staff, may_record


class IsStaff(BasePermission):
    """Staff only: creating competitions and matches, assigning referees, revoking tokens."""

    message = "only staff may do this"

    def has_permission(self, request: Any, view: Any) -> bool:
        return is_staff(request.user)


class MayRecord(BasePermission):
    """Staff, or the login assigned to record the match (checked once the match is found)."""

    message = "only the referee assigned to this match, or staff, may record its events"

    def has_permission(self, request: Any, view: Any) -> bool:
        return bool(request.user and request.user.is_authenticated)

    def has_object_permission(self, request: Any, view: Any, match: Any) -> bool:
        return may_record(request.user, match)
