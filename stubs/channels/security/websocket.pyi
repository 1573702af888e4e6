from collections.abc import Sequence

from channels._asgi import ASGIApp, Receive, Scope, Send

class OriginValidator:
    application: ASGIApp
    allowed_origins: Sequence[str]
    def __init__(self, application: ASGIApp, allowed_origins: Sequence[str]) -> None: ...
    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None: ...

def AllowedHostsOriginValidator(application: ASGIApp) -> OriginValidator: ...
