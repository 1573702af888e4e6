"""The ASGI handler runs the middleware and the view in one hop to the thread of sync views.

Django's own `ASGIHandler` runs the middleware in async mode, a hop to that thread and back
for every hook of every middleware; carambole's views are all sync, so `OneHopHandler`
builds the chain in sync mode, as under WSGI, and enters it once.
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any

from asgiref.sync import SyncToAsync
from django.core.handlers.asgi import ASGIHandler
from django.test import Client

from carambole.handler import OneHopHandler

HOPS_MOST = 3  # request_started's receivers, the chain, the response's close


def served(handler: ASGIHandler, path: str) -> tuple[int, dict[str, str], bytes]:
    """Serve one GET through an ASGI handler; return its status, headers and body."""
    sent: list[dict[str, Any]] = []
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"testserver")],
        "client": ("127.0.0.1", 50000),
        "server": ("testserver", 80),
    }
    messages = iter([{"type": "http.request", "body": b"", "more_body": False}])

    async def receive() -> dict[str, Any]:
        try:
            return next(messages)
        except StopIteration:
            await asyncio.Event().wait()  # no disconnect: the request is served to its end
            raise

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    asyncio.run(handler(scope, receive, send))
    start = sent[0]
    headers = {name.decode().lower(): value.decode() for name, value in start["headers"]}
    return start["status"], headers, b"".join(m.get("body", b"") for m in sent[1:])


def hops_of(handler: ASGIHandler, path: str, monkeypatch: Any) -> int:
    """Count the hops from the event loop to a sync thread that serving one GET takes."""
    hops = []
    call = SyncToAsync.__call__

    def counted(self: SyncToAsync, *args: Any, **kwargs: Any) -> Any:
        hops.append(threading.current_thread().name)
        return call(self, *args, **kwargs)

    with monkeypatch.context() as patched:
        patched.setattr(SyncToAsync, "__call__", counted)
        served(handler, path)
    return len(hops)


def test_a_request_enters_the_sync_thread_once_where_djangos_handler_hops_at_every_middleware(
    monkeypatch,
):
    ours = hops_of(OneHopHandler(), "/api/me", monkeypatch)
    djangos = hops_of(ASGIHandler(), "/api/me", monkeypatch)

    assert ours <= HOPS_MOST
    assert djangos >= 3 * ours


def test_a_request_is_answered_as_the_whole_middleware_answers_it():
    status, headers, body = served(OneHopHandler(), "/api/me")
    expected = Client().get("/api/me")

    assert status == expected.status_code
    for name in ("content-type", "content-security-policy", "x-frame-options", "vary"):
        assert headers.get(name) == expected.headers.get(name), name
    assert body == expected.content


def test_the_served_application_uses_the_one_hop_handler():
    from carambole.asgi import django_asgi_app

    assert isinstance(django_asgi_app, OneHopHandler)
