"""ASGI entry point: HTTP through Django, websockets through Channels."""

import gc
import os
import sys

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "carambole.settings")

# Django must be set up before the routing imports consumers and models.
django_asgi_app = get_asgi_application()

from carambole.serving import refuse_insecure_serving  # noqa: E402

refuse_insecure_serving()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from carambole.bodies import BoundedBodies, bound_daphne  # noqa: E402
from replay.live.origin import ProgramsAndAllowedOrigins  # noqa: E402
from replay.routing import websocket_urlpatterns  # noqa: E402

# A body past its limit is refused while it arrives, never read whole (carambole/bodies.py).
bound_daphne()
application = ProtocolTypeRouter(
    {
        "http": BoundedBodies(django_asgi_app),
        # Programs without an Origin may connect; browsers only from ALLOWED_HOSTS. No
        # session or login: anyone may watch, and each message goes out without a
        # middleware's look at it.
        "websocket": ProgramsAndAllowedOrigins(URLRouter(websocket_urlpatterns)),
    }
)

# A server holding a thousand sockets holds a few hundred thousand objects, and each of
# the collector's full passes over them stalls every socket at once (100 to 200 ms on a
# small machine). What is loaded by now lives as long as the process: keep it out of
# those passes. And collect the youngest objects less often, so that a fan-out's
# messages in flight are not promoted to the old generation, bringing the next full
# pass closer.
gc.collect()
gc.freeze()
gc.set_threshold(20_000, 20, 10)

# A server process runs its event loop beside threads that read the store and record
# (Django's sync views). A thread whose read has finished waits for the interpreter lock
# up to the switch interval while another thread computes: 5 ms by default, a wait per
# read that the fan-out bench saw in its p99 (ten matches at once: 59 ms, 19 ms with
# 0.5 ms, beside the bare server's 46 ms).
sys.setswitchinterval(0.0005)
