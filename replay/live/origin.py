"""Who may open a socket: programs (no `Origin`) and pages of this site, not other sites.

Browsers always send `Origin` on a websocket handshake, so letting programs in without
one opens nothing to another site's page; an `Origin` must name an allowed host.
"""

from __future__ import annotations

from typing import Any

from channels.security.websocket import OriginValidator
from django.conf import settings


class ProgramsAndAllowedOrigins:
    """Pass a socket without `Origin`; check one with it against `ALLOWED_HOSTS`."""

    def __init__(self, application: Any) -> None:
        self.application = application
        allowed = list(settings.ALLOWED_HOSTS)
        if settings.DEBUG and not allowed:  # as Django itself allows when debugging
            allowed = ["localhost", "127.0.0.1", "[::1]"]
        self.browsers = OriginValidator(application, allowed)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if any(name == b"origin" for name, _ in scope.get("headers", ())):
            return await self.browsers(scope, receive, send)
        return await self.application(scope, receive, send)
