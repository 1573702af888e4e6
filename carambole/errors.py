"""The site's answers to Django's 400, 403, 404 and 500: JSON under /api/, pages elsewhere."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.views import defaults

from matches.domain.errors import excerpt
from replay.api.errors import is_api, json_error


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """Django's 400 (a bad Host, a suspicious request), as JSON under /api/."""
    if is_api(request):
        return json_error("bad request", 400)
    return defaults.bad_request(request, exception)


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    """Django's 403, as JSON under /api/."""
    if is_api(request):
        return json_error("forbidden", 403)
    return defaults.permission_denied(request, exception)


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """Django's 404 (no such path), as JSON under /api/."""
    if is_api(request):
        return json_error(f"no such path {excerpt(request.path)}", 404)
    return defaults.page_not_found(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    """Django's 500, as JSON under /api/: a bug of ours, never an HTML page either."""
    if is_api(request):
        return json_error("internal error", 500)
    return defaults.server_error(request)
