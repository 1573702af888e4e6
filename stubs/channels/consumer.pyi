from typing import Any

from channels._asgi import ASGIApp, Receive, Scope, Send
from channels.layers import BaseChannelLayer

class AsyncConsumer:
    channel_layer_alias: str
    # Set when the consumer is called: the layer (None when its alias is not configured),
    # the consumer's channel on it (only with a layer), and the server's `send`.
    scope: Scope
    channel_layer: BaseChannelLayer | None
    channel_name: str
    base_send: Send
    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None: ...
    async def dispatch(self, message: dict[str, Any]) -> None: ...
    @classmethod
    def as_asgi(cls, **initkwargs: Any) -> ASGIApp: ...
