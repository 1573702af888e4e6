"""Settings for carambole: one file, configured from environment variables.

With no environment at all the project runs embedded: SQLite, an in-memory
channel layer and eager Celery tasks. Setting ``DATABASE_URL`` and ``REDIS_URL``
switches to PostgreSQL, Redis channels and a Celery broker.
"""

import os
import tempfile
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

BASE_DIR = Path(__file__).resolve().parent.parent


def envbool(name: str, default: str) -> bool:
    """Return the environment variable as a boolean ("1", "true", "yes", "on")."""
    return os.getenv(name, default).strip().lower() in ("1", "true", "yes", "on")


def envint(name: str, default: str) -> int:
    """Return the environment variable as an integer."""
    return int(os.getenv(name, default))


def envlist(name: str, default: str) -> list[str]:
    """Return the environment variable as a list of comma-separated values."""
    return [item.strip() for item in os.getenv(name, default).split(",") if item.strip()]


def database_from_url(url: str | None, base_dir: Path = BASE_DIR) -> dict[str, Any]:
    """Return a DATABASES["default"] entry for a postgres:// URL, or SQLite without one."""
    if not url:
        return {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": base_dir / "db.sqlite3",
            # IMMEDIATE takes the write lock at BEGIN, so concurrent appends wait
            # for it (up to the timeout) instead of failing with "database is locked".
            "OPTIONS": {"transaction_mode": "IMMEDIATE", "timeout": 20},
            # Tests use a file too: Django's in-memory test database shares one cache,
            # whose table locks fail at once ("database table is locked") under
            # concurrent connections instead of waiting out the busy timeout.
            "TEST": {"NAME": Path(tempfile.gettempdir()) / f"carambole-test-{os.getpid()}.sqlite3"},
        }
    parts = urlsplit(url)
    if parts.scheme not in ("postgres", "postgresql"):
        raise ValueError(f"DATABASE_URL: unsupported scheme {parts.scheme!r}, use postgres://")
    return {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": unquote(parts.path.lstrip("/")),
        "USER": unquote(parts.username or ""),
        "PASSWORD": unquote(parts.password or ""),
        "HOST": parts.hostname or "",
        "PORT": str(parts.port or ""),
        "CONN_MAX_AGE": envint("DB_CONN_MAX_AGE", "0"),
        "CONN_HEALTH_CHECKS": True,
    }


def channel_layer_from_url(url: str | None) -> dict[str, Any]:
    """Return a CHANNEL_LAYERS["default"] entry: Redis for a URL, in-memory without one."""
    if not url:
        return {"BACKEND": "channels.layers.InMemoryChannelLayer"}
    return {"BACKEND": "channels_redis.core.RedisChannelLayer", "CONFIG": {"hosts": [url]}}


DATABASE_URL = os.getenv("DATABASE_URL") or None
REDIS_URL = os.getenv("REDIS_URL") or None

SECRET_KEY = os.getenv("SECRET_KEY", "insecure-dev-key-change-me-in-production")
# Debug is on for the embedded default and off once a real database is configured.
DEBUG = envbool("DJANGO_DEBUG", "0" if DATABASE_URL else "1")
ALLOWED_HOSTS = envlist("ALLOWED_HOSTS", "localhost,127.0.0.1,testserver")
CSRF_TRUSTED_ORIGINS = envlist("CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "matches",
    "replay",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "carambole.urls"
WSGI_APPLICATION = "carambole.wsgi.application"
ASGI_APPLICATION = "carambole.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {"default": database_from_url(DATABASE_URL)}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

CHANNEL_LAYERS = {"default": channel_layer_from_url(REDIS_URL)}

# Celery: eager in-process without Redis; a real broker with it. Tasks are
# acknowledged late so a worker crash re-delivers them (they are idempotent).
CELERY_TASK_ALWAYS_EAGER = REDIS_URL is None
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = REDIS_URL
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(os.getenv("STATIC_ROOT", BASE_DIR / "static-collected"))

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.getenv("LOG_LEVEL", "INFO")},
}
