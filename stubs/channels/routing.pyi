from collections.abc import Mapping, Sequence

from channels._asgi import ASGIApp, Receive, Scope, Send
from django.urls import URLPattern, URLResolver

class ProtocolTypeRouter:
    application_mapping: Mapping[str, ASGIApp]
    def __init__(self, application_mapping: Mapping[str, ASGIApp]) -> None: ...
    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None: ...

class URLRouter:
    routes: Sequence[URLPattern | URLResolver]
    def __init__(self, routes: Sequence[URLPattern | URLResolver]) -> None: ...
    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None: ...
