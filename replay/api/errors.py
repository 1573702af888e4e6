"""Every error of the API is JSON `{"error", "field"}` (and `seq` where an event is to blame).

`exception_handler` turns what DRF and the services raise into that; the Django
handlers do the same for what never reaches a view under /api/ (an unknown path, a
bad Host header, a server error), so no client of the API ever meets an HTML page.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import Resolver404, resolve
from django.views import defaults
from django.views.decorators.csrf import csrf_exempt
from rest_framework import exceptions, views
from rest_framework.response import Response
from rest_framework.settings import api_settings

from matches.errors import EXCERPT, Refused, excerpt, join_field

API_PREFIX = "/api/"


class Malformed(Refused):
    """A body that is not the JSON carambole reads: 400."""

    status = 400


class BodyTooLarge(Refused):
    """A body over the size limit: 413."""

    status = 413

    def __init__(self, limit: int) -> None:
        super().__init__(f"the body is larger than {limit} bytes")


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """Return the JSON answer to an error raised in a view (None: a bug, left to Django's 500)."""
    if isinstance(exc, Refused):
        views.set_rollback()
        return Response(exc.as_dict(), status=exc.status)
    response = views.exception_handler(exc, context)
    if response is None:
        return None
    field = None
    if isinstance(exc, exceptions.ValidationError):
        field, message = first_error(exc.detail)
    elif isinstance(exc, exceptions.UnsupportedMediaType):
        # A body that is not JSON, whatever it says it is: the API's 400.
        response.status_code = 400
        message = f"the body must be JSON (Content-Type: application/json), not {exc.detail}"
    else:
        message = str(getattr(exc, "detail", exc))
    response.data = {"error": message, "field": field}
    return response


def first_error(detail: Any, path: str | None = None) -> tuple[str | None, str]:
    """Return the field and message of the first error in a DRF validation error."""
    if isinstance(detail, dict):
        for key, value in detail.items():
            if key == api_settings.NON_FIELD_ERRORS_KEY:
                return first_error(value, path)
            name = f"[{key}]" if isinstance(key, int) else str(key)[:EXCERPT]
            return first_error(value, join_field(path, name))
    if isinstance(detail, list):
        for item in detail:
            return first_error(item, path)
    return path, str(detail)


def is_api(request: HttpRequest) -> bool:
    return request.path.startswith(API_PREFIX)


def json_error(message: str, status: int) -> JsonResponse:
    body = {"error": message, "field": None}
    return JsonResponse(body, status=status, json_dumps_params={"separators": (",", ":")})


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


@csrf_exempt
def no_such_path(request: HttpRequest, path: str = "") -> HttpResponse:
    """Answer every path under /api/ that names nothing: a JSON 404, debug or not.

    Routed, it also keeps Django from redirecting a POST to the path with a slash added,
    which would lose its body; the answer names that path instead.
    """
    message = f"no such path {excerpt(request.path)}"
    with_slash = request.path + "/"
    try:
        found = resolve(with_slash).url_name != "no-such-path"
    except Resolver404:
        found = False
    if found:
        message = f"{message}; did you mean {excerpt(with_slash)}?"
    return json_error(message, 404)


def server_error(request: HttpRequest) -> HttpResponse:
    """Django's 500, as JSON under /api/: a bug of ours, never an HTML page either."""
    if is_api(request):
        return json_error("internal error", 500)
    return defaults.server_error(request)
