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
from channels.testing import HttpCommunicator
from django.core.handlers.asgi import ASGIHandler
from django.test import Client

from carambole.handler import OneHopHandler

HOPS_MOST = 3  # request_started's receivers, the chain, the response's close
WAIT_S = 30.0  # the longest a test waits for an answer that must come (a loaded machine)


def served(handler: ASGIHandler, path: str) -> tuple[int, dict[str, str], bytes]:
    """Serve one GET through an ASGI handler; return its status, headers and body."""

    async def get() -> dict[str, Any]:
        request = HttpCommunicator(handler, "GET", path, headers=[(b"host", b"testserver")])
        response = await request.get_response(timeout=WAIT_S)
        await request.wait(WAIT_S)  # the handler's own end: the response closed
        return response

    response = asyncio.run(get())
    headers = {name.decode().lower(): value.decode() for name, value in response["headers"]}
    return response["status"], headers, response["body"]


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
