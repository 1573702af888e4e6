"""carambole's settings evaluated afresh under a chosen environment, and a production key."""

import runpy
import secrets

import carambole.settings

VARIABLES = (
    "DATABASE_URL",
    "REDIS_URL",
    "DJANGO_DEBUG",
    "SECRET_KEY",
    "ALLOWED_HOSTS",
    "SECURE_SSL_REDIRECT",
    "SECURE_COOKIES",
    "SECURE_HSTS_SECONDS",
    "DJANGO_SETTINGS_MODULE",
)


def settings_in(monkeypatch, **environ: str) -> dict:
    """Evaluate the settings module afresh with only these of its variables set."""
    for name in VARIABLES:
        monkeypatch.delenv(name, raising=False)
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    return runpy.run_path(carambole.settings.__file__)


def production_key() -> str:
    return secrets.token_urlsafe(50)
