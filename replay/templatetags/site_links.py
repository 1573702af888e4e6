"""The navigation's links that lead somewhere only for some logins: Django's admin, and a
referee's matches."""

from __future__ import annotations

from typing import Any

from django import template
from django.contrib import admin
from django.urls import NoReverseMatch, reverse

from replay.queries.referee_matches import has_assigned_matches

register = template.Library()


@register.simple_tag(takes_context=True)
def admin_url(context: dict[str, Any]) -> str:
    """Return the admin's address for a login that can use it there, else "".

    Staff without a right to any model the admin shows would find only "You don't have
    permission to view or edit anything", and a site without the admin mounted, a 404.
    """
    request = context.get("request")
    if request is None or not admin.site.has_permission(request):
        return ""
    try:
        url = reverse("admin:index")
    except NoReverseMatch:
        return ""
    return url if admin.site.get_app_list(request) else ""


@register.simple_tag
def assigned_matches(user: Any) -> bool:
    """Return whether a login has matches to record (false for anyone logged out)."""
    return has_assigned_matches(user)
