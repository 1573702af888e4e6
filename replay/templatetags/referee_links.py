"""The navigation's link to a referee's matches, shown to a login that has some."""

from __future__ import annotations

from typing import Any

from django import template

from replay.queries.referee_matches import has_assigned_matches

register = template.Library()


@register.simple_tag
def assigned_matches(user: Any) -> bool:
    """Return whether a login has matches to record (false for anyone logged out)."""
    return has_assigned_matches(user)
