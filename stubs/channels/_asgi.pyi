# The ASGI callables as Django's stubs spell them (django.core.handlers.asgi), so that
# Django's handler and a consumer are the same kind of application.
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, TypeAlias

Scope: TypeAlias = dict[str, Any]
Receive: TypeAlias = Callable[[], Awaitable[Mapping[str, Any]]]
Send: TypeAlias = Callable[[Mapping[str, Any]], Awaitable[None]]
ASGIApp: TypeAlias = Callable[[Scope, Receive, Send], Awaitable[None]]
