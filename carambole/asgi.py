"""ASGI entry point: HTTP through Django, websockets through Channels."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "carambole.settings")

# Django must be set up before the routing imports consumers and models.
django_asgi_app = get_asgi_application()

from carambole.serving import refuse_insecure_serving  # noqa: E402

refuse_insecure_serving()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from replay.live.origin import ProgramsAndAllowedOrigins  # noqa: E402
from replay.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        # Programs without an Origin may connect; browsers only from ALLOWED_HOSTS.
        "websocket": ProgramsAndAllowedOrigins(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
        ),
    }
)
