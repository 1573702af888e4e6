"""Django's HTTP handler for ASGI, with the middleware and the view run in one thread hop.

Django's own `ASGIHandler` runs its middleware in async mode: every hook of a sync-and-async
middleware (`MiddlewareMixin`) outside the first sync-only one is its own `sync_to_async`
hop to the thread that serves sync views and back, and the view below the chain another,
reached through an `async_to_sync` hop the other way: nine hops for `GET /api/me`, each a
wake-up of two threads and a turn of the event loop, where this handler takes three. Every view of
carambole is sync, so here the whole chain is built in sync mode (as under WSGI) and run
in a single hop to that same thread (`thread_sensitive`, as Django runs sync views):
the same middleware, views and responses, a fraction of the CPU per request.
"""

from __future__ import annotations

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIHandler
from django.http import HttpRequest, HttpResponseBase


class OneHopHandler(ASGIHandler):
    """`ASGIHandler` with its middleware chain in sync mode, entered in one hop."""

    def load_middleware(self, is_async: bool = False) -> None:
        super().load_middleware(is_async=False)

    async def get_response_async(self, request: HttpRequest) -> HttpResponseBase:
        return await sync_to_async(self.get_response, thread_sensitive=True)(request)
