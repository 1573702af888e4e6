"""The navigation's links that lead somewhere only for some logins: Django's admin."""

from __future__ import annotations

from typing import Any

from django import template
from django.contrib import admin
from django.urls import NoReverseMatch, reverse

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
