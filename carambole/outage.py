"""A database that cannot be reached now is a 503 with Retry-After, never a 500.

PostgreSQL stopped, restarting or cut off, or SQLite's file locked past the timeout or
unopenable: the request may well succeed a moment later, and a client that sends it again
(the console's queue, with the same idempotency key) loses and doubles nothing. A bug of
ours (a bad query, a missing table) is still a 500.
"""

from __future__ import annotations

import sqlite3

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.template import loader
from django.utils.deprecation import MiddlewareMixin

RETRY_AFTER_S = 2  # the Retry-After of a 503: a restart takes longer, a resend costs little

# SQLite's result codes (their low byte) that mean "not now" rather than "not so".
SQLITE_BUSY, SQLITE_LOCKED, SQLITE_CANTOPEN = 5, 6, 14
SQLITE_UNAVAILABLE = {SQLITE_BUSY, SQLITE_LOCKED, SQLITE_CANTOPEN}
# PostgreSQL's SQLSTATEs of the same: a connection exception (class 08), the server shutting
# down, crashed or starting up (57P01-57P03), too many connections (53300).
POSTGRESQL_UNAVAILABLE = ("08", "57P01", "57P02", "57P03", "53300")


def database_unavailable(error: BaseException) -> bool:
    """Return whether an error says the database cannot be reached now, not that we erred."""
    if not isinstance(error, OperationalError | InterfaceError):
        return False
    cause = error.__cause__  # the driver's own error, which Django's wraps
    if isinstance(cause, sqlite3.Error):
        return getattr(cause, "sqlite_errorcode", 0) & 0xFF in SQLITE_UNAVAILABLE
    # psycopg gives no SQLSTATE to what the client itself found: connecting failed (refused,
    # timed out, turned away) or the connection was lost under the request.
    sqlstate = getattr(cause, "sqlstate", None)
    return sqlstate is None or sqlstate.startswith(POSTGRESQL_UNAVAILABLE)


def unavailable(request: HttpRequest) -> HttpResponse:
    """Return the 503 of an outage: JSON under /api/, a plain page elsewhere; Retry-After."""
    # Imported here: the API's errors import DRF, whose settings import the API's parsers,
    # which import those errors; this middleware is loaded before any of them.
    from replay.api.errors import is_api, json_error

    if is_api(request):
        response: HttpResponse = json_error(
            f"the database cannot be reached; try again in {RETRY_AFTER_S} s", 503
        )
    else:
        # A page of its own, not the site's layout: that reads the login, from the database.
        page = loader.get_template("503.html").render({"retry_after": RETRY_AFTER_S})
        response = HttpResponse(page, status=503)
    response["Retry-After"] = str(RETRY_AFTER_S)
    response["Cache-Control"] = "no-store"
    return response


class DatabaseOutage(MiddlewareMixin):
    """Answer a view's database outage with `unavailable` instead of Django's 500."""

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if database_unavailable(exception):
            return unavailable(request)
        return None
