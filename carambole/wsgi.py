"""WSGI entry point (HTTP only; websockets need the ASGI application)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "carambole.settings")

application = get_wsgi_application()

from carambole.serving import refuse_insecure_serving  # noqa: E402

refuse_insecure_serving()
