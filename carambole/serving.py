"""Serving refuses what is only safe in development: the default SECRET_KEY with debug off.

The command-line tools and the tests never serve, so a fresh clone needs no environment
for them; `uvicorn`, `runserver` and any WSGI server import the ASGI or WSGI module,
which asks here first. `manage.py check --deploy` reports the same (carambole.E001).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import Error, Tags, register
from django.core.exceptions import ImproperlyConfigured

INSECURE_KEY = (
    "SECRET_KEY is the development default, and DJANGO_DEBUG is off: set SECRET_KEY to a "
    "long random value (python -c 'import secrets; print(secrets.token_urlsafe(50))'), "
    "or DJANGO_DEBUG=1 on a development machine"
)


def insecure() -> bool:
    """Return whether serving now would sign sessions with the published development key."""
    return not settings.DEBUG and settings.SECRET_KEY == settings.DEV_SECRET_KEY


def refuse_insecure_serving() -> None:
    """Refuse to serve with the development key and debug off."""
    if insecure():
        raise ImproperlyConfigured(INSECURE_KEY)


@register(Tags.security, deploy=True)
def secret_key_check(app_configs: Any = None, **kwargs: Any) -> list[Error]:
    """Fail `check --deploy` with the development key."""
    return [Error(INSECURE_KEY, id="carambole.E001")] if insecure() else []
