"""ASGI entry point: HTTP through Django, websockets through Channels."""

import os
import sys

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "carambole.settings")

# Django must be set up before the routing imports consumers and models.
django.setup(set_prefix=False)

from carambole.handler import OneHopHandler  # noqa: E402

django_asgi_app = OneHopHandler()

from carambole.serving import refuse_insecure_serving  # noqa: E402

refuse_insecure_serving()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from carambole import descriptors  # noqa: E402
from carambole.admission import Admission  # noqa: E402
from carambole.bodies import BoundedBodies  # noqa: E402
from carambole.collector import CollectAfterSockets, tune  # noqa: E402
from replay.live.origin import ProgramsAndAllowedOrigins  # noqa: E402
from replay.routing import websocket_urlpatterns  # noqa: E402

# A body past its limit is refused while it arrives, never read whole (carambole/bodies.py).
application = ProtocolTypeRouter(
    {
        "http": BoundedBodies(django_asgi_app),
        # Programs without an Origin may connect; browsers only from ALLOWED_HOSTS. No
        # session or login: anyone may watch, and each message goes out without a
        # middleware's look at it. A socket gone leaves garbage that only the collector's
        # full pass frees: one runs as they close. Sockets opened in a loop are refused
        # past a rate per address and a cap per process (carambole/admission.py).
        "websocket": Admission(
            CollectAfterSockets(ProgramsAndAllowedOrigins(URLRouter(websocket_urlpatterns)))
        ),
    }
)

# As many descriptors as the system allows: a socket or a request each (carambole/descriptors.py).
descriptors.raise_limit()

# What is loaded by now lives as long as the process: out of the collector's full passes,
# which stall every socket at once (carambole/collector.py).
tune()

# A server process runs its event loop beside threads that read the store and record
# (Django's sync views). A thread whose read has finished waits for the interpreter lock
# up to the switch interval while another thread computes: 5 ms by default, a wait per
# read that the fan-out bench saw in its p99 (ten matches at once: 59 ms, 19 ms with
# 0.5 ms, beside the bare server's 46 ms).
sys.setswitchinterval(0.0005)
