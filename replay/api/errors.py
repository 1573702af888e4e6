"""Every error of the API is JSON `{"error", "field"}` (and `seq` where an event is to blame).

A refusal with a code adds `code` and `params`; its `error` is said in the request's
language (its Accept-Language, or the language the site's pages were switched to).

`exception_handler` turns what DRF and the services raise into that; the site's
handlers (`carambole.errors`) answer with `json_error` what never reaches a view under
/api/ (a bad Host header, a server error), so no client of the API meets an HTML page.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import Resolver404, resolve
from django.utils.translation import gettext
from django.views.decorators.csrf import csrf_exempt
from rest_framework import exceptions, views
from rest_framework.response import Response
from rest_framework.settings import api_settings

from matches.domain.errors import EXCERPT, Refused, excerpt, join_field
from replay.presentation.refusals import refusal_dict

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
        return Response(refusal_dict(exc), status=exc.status)
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
    # A sentence the catalogue holds is said in the request's language; any other as it is.
    response.data = {"error": gettext(message) if message else message, "field": field}
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
