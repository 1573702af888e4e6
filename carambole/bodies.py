"""Request bodies are bounded before they are read: past the limit, a 413 and no more reading.

Django's ASGI handler reads a whole body into a temporary file before any view can
look at its size, and reads a chunked body (no Content-Length) as empty. `BoundedBodies`
wraps it: a declared Content-Length past the limit is refused at once, unread; a
chunked body is read only up to the limit, then refused, or handed on whole with the
Content-Length it turned out to have, so a valid event sent chunked is recorded.

uvicorn hands a body on as it arrives, and stops reading the socket while the
application has not taken what came: a body nobody reads is never read whole.

The limits: `API_MAX_BODY_BYTES` under /api/ (64 KiB: an event takes a few hundred
bytes), `DATA_UPLOAD_MAX_MEMORY_SIZE` for everything else, the pages' forms (Django's
own limit for a form's fields, 2.5 MB unless set; a login takes a few hundred bytes).
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Mapping
from html import escape
from typing import Any

from django.conf import settings
from django.http import HttpRequest
from django.utils import translation
from django.utils.translation import gettext

# As Django's stubs type its ASGI handler (and carambole's channels stubs, the consumers).
Scope = dict[str, Any]
Message = Mapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

API_PREFIX = "/api/"
DEFAULT_PAGE_MAX_BODY_BYTES = 2_621_440  # Django's DATA_UPLOAD_MAX_MEMORY_SIZE


def body_limit(path: str) -> int:
    """Return the most bytes a request body to `path` may have."""
    if path.startswith(API_PREFIX):
        return int(settings.API_MAX_BODY_BYTES)
    # None is Django's "no limit" for form fields; a body still needs one here.
    return int(settings.DATA_UPLOAD_MAX_MEMORY_SIZE or DEFAULT_PAGE_MAX_BODY_BYTES)


def declared_length(headers: list[tuple[bytes, bytes]]) -> int | None:
    """Return the Content-Length a request declares, None without one (or chunked)."""
    for name, value in headers:
        if name.lower() == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None  # the server refuses it before the application sees it
    return None


def refusal(path: str, limit: int, headers: list[tuple[bytes, bytes]]) -> tuple[bytes, bytes]:
    """Return the content type and body of the 413: the API's JSON error, else a plain page."""
    if path.startswith(API_PREFIX):
        error = {"error": f"the body is larger than {limit} bytes", "field": None}
        return b"application/json", json.dumps(error, separators=(",", ":")).encode()
    with translation.override(page_language(headers)):
        title = gettext("Too much sent (413)")
        text = gettext("The form sent is larger than %(limit)s bytes: nothing was read.") % {
            "limit": limit
        }
        language = translation.get_language()
    page = (
        f'<!doctype html><html lang="{escape(language)}"><meta charset="utf-8">'
        f"<title>{escape(title)}</title><h1>{escape(title)}</h1><p>{escape(text)}</p></html>"
    )
    return b"text/html; charset=utf-8", page.encode()


def page_language(headers: list[tuple[bytes, bytes]]) -> str:
    """Return the language the pages would answer in: the switcher's cookie, or the browser's."""
    request = HttpRequest()
    for name, value in headers:
        text = value.decode("latin-1")
        if name.lower() == b"cookie":
            for pair in text.split(";"):
                key, _, cookie = pair.strip().partition("=")
                request.COOKIES.setdefault(key, cookie)
        elif name.lower() == b"accept-language":
            request.META["HTTP_ACCEPT_LANGUAGE"] = text
    return translation.get_language_from_request(request)


class BoundedBodies:
    """Refuse a request body past its path's limit (413) before the application reads it."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = body_limit(scope["path"])
        length = declared_length(scope["headers"])
        if length is not None:
            # The server frames the body by its Content-Length: no more than declared arrives.
            if length > limit:
                await self.refuse(scope, send, limit)
            else:
                await self.app(scope, receive, send)
            return
        body = bytearray()
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client left before the end of its body: nobody to answer
            body += message.get("body", b"")
            if len(body) > limit:
                await self.refuse(scope, send, limit)
                return
            if not message.get("more_body", False):
                break
        if body:
            # Django reads as much of a body as its Content-Length says (none: nothing).
            scope = dict(scope)
            scope["headers"] = [
                *(h for h in scope["headers"] if h[0].lower() != b"transfer-encoding"),
                (b"content-length", str(len(body)).encode()),
            ]
        await self.app(scope, replay(bytes(body), receive), send)

    @staticmethod
    async def refuse(scope: Scope, send: Send, limit: int) -> None:
        content_type, body = refusal(scope["path"], limit, scope["headers"])
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", content_type),
                    (b"content-length", str(len(body)).encode()),
                    # What the client is still sending is never read: the connection ends.
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


def replay(body: bytes, receive: Receive) -> Receive:
    """Return a `receive` that gives the body read already, then what the server says next."""
    given = False

    async def receive_again() -> Message:
        nonlocal given
        if not given:
            given = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return receive_again
