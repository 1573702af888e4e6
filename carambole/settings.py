"""Settings for carambole: one file, configured from environment variables.

With no environment at all the project runs embedded: SQLite, an in-memory
channel layer and eager Celery tasks. Setting ``DATABASE_URL`` (``postgres://`` or
``sqlite://``) and ``REDIS_URL`` switches to that database, Redis channels and a Celery
broker. A value that cannot be read is an error, never a silent default.
"""

import os
import tempfile
from pathlib import Path
from typing import Any

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent

TRUE_WORDS = ("1", "true", "yes", "on")
FALSE_WORDS = ("0", "false", "no", "off")
SQLITE = "django.db.backends.sqlite3"
POSTGRESQL = "django.db.backends.postgresql"


def envbool(name: str, default: str) -> bool:
    """Return the environment variable as a boolean, refusing a word that is neither."""
    value = os.getenv(name, default)
    word = value.strip().lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    # A typo must not quietly mean "off": DJANGO_DEBUG=ture would hide that debug is off.
    raise ImproperlyConfigured(
        f"{name}={value!r} is not a boolean: use one of {'/'.join(TRUE_WORDS + FALSE_WORDS)}"
    )


def envint(name: str, default: str) -> int:
    """Return the environment variable as an integer, refusing anything else."""
    value = os.getenv(name, default)
    try:
        return int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={value!r} is not an integer") from None


def envcount(name: str, default: str) -> int:
    """Return the environment variable as an integer of at least 1, refusing anything else."""
    value = envint(name, default)
    if value < 1:
        raise ImproperlyConfigured(f"{name}={value} must be at least 1")
    return value


def envbound(name: str, default: str) -> int:
    """Return the environment variable as a bound: an integer of at least 0, 0 for none."""
    value = envint(name, default)
    if value < 0:
        raise ImproperlyConfigured(f"{name}={value} must be at least 0 (0: no bound)")
    return value


def envlist(name: str, default: str) -> list[str]:
    """Return the environment variable as a list of comma-separated values."""
    return [item.strip() for item in os.getenv(name, default).split(",") if item.strip()]


def database_from_url(url: str | None, base_dir: Path = BASE_DIR) -> dict[str, Any]:
    """Return a DATABASES["default"] entry for a sqlite:// or postgres:// URL, or SQLite without."""
    if not url:
        database: dict[str, Any] = {"ENGINE": SQLITE, "NAME": base_dir / "db.sqlite3"}
    else:
        try:
            database = dict(dj_database_url.parse(url))
        except dj_database_url.UnknownSchemeError:
            database = {}  # refused below, with the schemes this project runs on
        except ValueError as error:
            raise ImproperlyConfigured(f"DATABASE_URL: {error}") from None
    engine = database.get("ENGINE")
    if engine == SQLITE:
        database["OPTIONS"] = {
            # IMMEDIATE takes the write lock at BEGIN, so concurrent appends wait
            # for it (up to the timeout) instead of failing with "database is locked".
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            # Write-ahead log: readers never wait for the writer, and a commit costs no
            # sync of the file (a power cut may lose the last commits, never corrupt).
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL",
            # Options written in the URL's query string are asked for explicitly: they win.
            **database.get("OPTIONS", {}),
        }
        # Tests use a file too: Django's in-memory test database shares one cache,
        # whose table locks fail at once ("database table is locked") under
        # concurrent connections instead of waiting out the busy timeout.
        database["TEST"] = {
            "NAME": Path(tempfile.gettempdir()) / f"carambole-test-{os.getpid()}.sqlite3"
        }
    elif engine == POSTGRESQL:
        database["CONN_MAX_AGE"] = envint("DB_CONN_MAX_AGE", "0")
        database["CONN_HEALTH_CHECKS"] = True
        if database["CONN_MAX_AGE"] == 0:
            # Under ASGI each request's sync code runs in a thread of its own, so without a
            # pool each request opened a connection of its own (15 ms on loopback with
            # scram-sha-256, more than the request itself). A connection persistent for
            # DB_CONN_MAX_AGE seconds is the other way, for sync servers.
            database["OPTIONS"] = {
                "pool": {
                    "min_size": 1,
                    "max_size": envcount("DB_POOL_SIZE", "10"),
                    # How long a request waits for a connection: while PostgreSQL cannot
                    # be reached, how long before its 503.
                    "timeout": envcount("DB_POOL_TIMEOUT", "10"),
                },
                **database.get("OPTIONS", {}),
            }
    else:
        # The event store's immutability triggers exist for these two databases only.
        scheme = str(url).partition(":")[0]
        raise ImproperlyConfigured(
            f"DATABASE_URL: unsupported scheme {scheme!r}, use sqlite:// or postgres://"
        )
    return database


def channel_layer_from_url(url: str | None) -> dict[str, Any]:
    """Return a CHANNEL_LAYERS["default"] entry: Redis for a URL, in-memory without one."""
    if not url:
        return {"BACKEND": "channels.layers.InMemoryChannelLayer"}
    # A Redis that is down or stalled fails a call within seconds instead of hanging it;
    # reads wait longer than the layer's own 5-second blocking pop.
    host = {"address": url, "socket_connect_timeout": 2, "socket_timeout": 10}
    return {
        "BACKEND": "channels_redis.core.RedisChannelLayer",
        # Each server process renews its groups every LIVE_HEAD_SECONDS; one that died
        # leaves them within five minutes, not the default day.
        "CONFIG": {"hosts": [host], "group_expiry": 300},
    }


def cache_from_url(url: str | None, name: str, most: int) -> dict[str, Any]:
    """Return a CACHES entry: Redis for a URL (its keys prefixed with `name`), else this
    process's memory, `most` entries at most (the least used go first).

    A Redis that is down costs a call a second at most: the caller then goes without
    (a count skipped or refused, an answer made again).
    """
    if not url:
        return {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": name,
            "OPTIONS": {"MAX_ENTRIES": most},
        }
    return {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": url,
        "KEY_PREFIX": name,
        "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
    }


DATABASE_URL = os.getenv("DATABASE_URL") or None
REDIS_URL = os.getenv("REDIS_URL") or None

# The development key lets the command-line tools and the tests run on a fresh clone;
# serving with debug off refuses it (carambole/serving.py, check --deploy).
DEV_SECRET_KEY = "insecure-dev-key-change-me-in-production"
SECRET_KEY = os.getenv("SECRET_KEY") or DEV_SECRET_KEY
# Off unless asked for (`make run` asks), whatever the database.
DEBUG = envbool("DJANGO_DEBUG", "0")
ALLOWED_HOSTS = envlist("ALLOWED_HOSTS", "localhost,127.0.0.1,testserver")
CSRF_TRUSTED_ORIGINS = envlist("CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    # First: its runserver (uvicorn, refusing the development key) wins over staticfiles'.
    "carambole",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI's files, served by the project: no CDN
    "matches",
    "replay",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Static files from the project itself, debug or not: no CDN, no separate web server.
    "carambole.middleware.StaticFiles",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The language from the cookie set by the switcher, else the browser's Accept-Language.
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # After the language is chosen: a refused login answers a page in the user's language.
    "carambole.logins.Refusals",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "carambole.csp.ContentSecurityPolicy",
    # A database that cannot be reached now: 503 with Retry-After (JSON under /api/).
    "carambole.outage.DatabaseOutage",
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
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {"default": database_from_url(DATABASE_URL)}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

CHANNEL_LAYERS = {"default": channel_layer_from_url(REDIS_URL)}
# What the throttles count (carambole/throttle.py): in Redis, shared by every server
# process, when there is one; in the one process that serves the embedded setup otherwise.
# "reads": the answers kept by what they depend on (replay/queries/read_cache.py).
CACHES = {
    # The throttles' counts: room for thousands of addresses, so that a flood of names
    # never pushes out the counts that matter (at the default 300 it would).
    "default": cache_from_url(REDIS_URL, "carambole", 100_000),
    # The read cache: answers costly to make (a match sheet, stages as of a version), apart
    # so that none pushes out a count; in memory, a few hundred, tens of megabytes at most.
    "reads": cache_from_url(REDIS_URL, "carambole-reads", 200),
}
# Live sockets: every this many seconds each server process reads the store for what a
# lost notice would have pushed, and tells each viewer the head (the live protocol's default: 15).
LIVE_HEAD_SECONDS = envint("LIVE_HEAD_SECONDS", "15")
if LIVE_HEAD_SECONDS < 1:
    raise ImproperlyConfigured(f"LIVE_HEAD_SECONDS={LIVE_HEAD_SECONDS} must be at least 1")

# New live sockets one client address may open (carambole/admission.py): a burst of this
# many at once, then this many more a second (0: no bound per address); and the sockets one
# server process holds open at once (0: only as many as its descriptors leave room for).
# Past either, a socket is accepted and closed at once (4429, 1013); a login that may
# record is never refused.
SOCKETS_PER_ADDRESS_BURST = envcount("SOCKETS_PER_ADDRESS_BURST", "100")
SOCKETS_PER_ADDRESS_PER_SECOND = envbound("SOCKETS_PER_ADDRESS_PER_SECOND", "10")
SOCKETS_PER_PROCESS = envbound("SOCKETS_PER_PROCESS", "5000")

# The hall page marks a table whose console has been quiet this long: no event, and no
# heartbeat (every 15 s) from a login that may record its match.
HALL_QUIET_SECONDS = envint("HALL_QUIET_SECONDS", "120")
if HALL_QUIET_SECONDS < 1:
    raise ImproperlyConfigured(f"HALL_QUIET_SECONDS={HALL_QUIET_SECONDS} must be at least 1")

# Celery: eager in-process without Redis; a real broker with it. Tasks are
# acknowledged late so a worker crash re-delivers them (they are idempotent).
CELERY_TASK_ALWAYS_EAGER = REDIS_URL is None
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_BROKER_URL = REDIS_URL or "memory://localhost/"  # named, or kombu warns it guessed
CELERY_RESULT_BACKEND = REDIS_URL
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A broker that is down refuses an enqueue at once (no retries; a stalled one within two
# seconds): a request never waits on it, and the sweep catches up once it is back.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "socket_connect_timeout": 2,
    "socket_timeout": 5,
    "max_retries": 0,
}
# The projector's sweep (replay.tasks.projector_sweep): Celery beat, or a worker started
# with -B, runs it this often; it catches the read models up when an enqueue was lost.
PROJECTOR_SWEEP_SECONDS = envint("PROJECTOR_SWEEP_SECONDS", "30")
CELERY_BEAT_SCHEDULE = {
    "projector-sweep": {
        "task": "replay.tasks.projector_sweep",
        "schedule": float(PROJECTOR_SWEEP_SECONDS),
    }
}
# A server process enqueues a competition's recompute this long after the first commit that
# wants it, once for every commit of that competition meanwhile (a hall's tables record
# a shot a second between them: one task each was most of a worker's CPU).
STANDINGS_ENQUEUE_GATHER_MS = envint("STANDINGS_ENQUEUE_GATHER_MS", "200")
if STANDINGS_ENQUEUE_GATHER_MS < 0:
    raise ImproperlyConfigured(
        f"STANDINGS_ENQUEUE_GATHER_MS={STANDINGS_ENQUEUE_GATHER_MS} must be at least 0"
    )

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Passwords are checked by a backend that counts failures before it hashes anything, and
# hashes on a low-priority thread of its own (carambole/logins.py). Django's own stays
# second, never reached by a password, so the sessions it logged in go on after an upgrade.
AUTHENTICATION_BACKENDS = [
    "carambole.logins.ThrottledModelBackend",
    "django.contrib.auth.backends.ModelBackend",
]
# The throttles' rule (README, "Production"): within THROTTLE_WINDOW_SECONDS of a first
# failure, at most this many failed logins for one account (a browser that logged in to it
# before has that many of its own instead, whatever its address), from one address, and
# failed API tokens from one address; past a limit an attempt is refused with 429 and
# Retry-After, uncounted, until the window ends.
THROTTLE_WINDOW_SECONDS = envcount("THROTTLE_WINDOW_SECONDS", "600")
LOGIN_FAILURES_PER_ACCOUNT = envcount("LOGIN_FAILURES_PER_ACCOUNT", "10")
LOGIN_FAILURES_PER_ADDRESS = envcount("LOGIN_FAILURES_PER_ADDRESS", "30")
# Previews of an event's consequences (POST …/events/preview) one address may ask a minute:
# each folds a competition's draw twice from its read models.
PREVIEWS_PER_MINUTE = envcount("PREVIEWS_PER_MINUTE", "60")
# Costly reads an anonymous address may ask within a minute of its first, together: a
# competition's stages or ranking as of a version (`?at=`, a fold of its log up to it) and
# a match's sheet (a PDF of every event). Logins are not limited.
COSTLY_READS_PER_MINUTE = envcount("COSTLY_READS_PER_MINUTE", "20")
TOKEN_FAILURES_PER_ADDRESS = envcount("TOKEN_FAILURES_PER_ADDRESS", "30")
# Where export_open_data writes the archive's open-data zips, and /open-data/ finds them.
OPEN_DATA_DIR = Path(os.getenv("OPEN_DATA_DIR") or BASE_DIR / "open-data")
# A player's PIN, signing a result off on a console: wrong PINs for one player (of any
# match), and from one address, within the same window.
PIN_FAILURES_PER_PLAYER = envcount("PIN_FAILURES_PER_PLAYER", "5")
PIN_FAILURES_PER_ADDRESS = envcount("PIN_FAILURES_PER_ADDRESS", "30")
# Password hashes a server process computes at once (each costs most of a second of a
# core), and how long a login waits for its turn before it is answered 503.
PASSWORD_CHECKS_AT_ONCE = envcount("PASSWORD_CHECKS_AT_ONCE", "1")
PASSWORD_CHECK_WAIT_SECONDS = envcount("PASSWORD_CHECK_WAIT_SECONDS", "20")

# Browsers log in through a page (the console's referees and staff); programs use tokens.
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "replay:home"
LOGOUT_REDIRECT_URL = "replay:home"

LANGUAGE_CODE = "en"
# The federation is Ukrainian, its players and viewers international. The compiled
# catalogues (carambole/locale, one for the whole project) are committed, so a fresh
# clone needs no gettext tools.
LANGUAGES = [("uk", "Українська"), ("en", "English")]
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LOCALE_PATHS = [BASE_DIR / "carambole" / "locale"]
# English dates as 9 Mar 2026 (carambole/formats/en), never the ambiguous 03/09/2026.
FORMAT_MODULE_PATH = ["carambole.formats"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(os.getenv("STATIC_ROOT", BASE_DIR / "static-collected"))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # Compressed copies made by collectstatic; no manifest, so a page never fails on a
    # file collectstatic has not seen yet.
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}
# Without collectstatic (a fresh clone, the tests), serve straight from the apps.
WHITENOISE_USE_FINDERS = True

# Behind the documented deployment: a load balancer that ends TLS and says so in
# X-Forwarded-Proto. Each can be turned off for another setup.
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = envbool("SECURE_SSL_REDIRECT", "0" if DEBUG else "1")
SESSION_COOKIE_SECURE = envbool("SECURE_COOKIES", "0" if DEBUG else "1")
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_HSTS_SECONDS = envint("SECURE_HSTS_SECONDS", "0" if DEBUG else "31536000")
SECURE_HSTS_INCLUDE_SUBDOMAINS = envbool("SECURE_HSTS_INCLUDE_SUBDOMAINS", "1")
SECURE_HSTS_PRELOAD = envbool("SECURE_HSTS_PRELOAD", "1")
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# Every page's Content-Security-Policy (carambole/csp.py): scripts, styles, images and
# fonts from this site only; no inline script or style anywhere; the live sockets on this
# host (its ws: and wss: are added per request). data: images are Swagger UI's icons.
CONTENT_SECURITY_POLICY = {
    "default-src": ["'self'"],
    "script-src": ["'self'"],
    "style-src": ["'self'"],
    "img-src": ["'self'", "data:"],
    "font-src": ["'self'"],
    "connect-src": ["'self'"],
    "worker-src": ["'self'"],
    "object-src": ["'none'"],
    "base-uri": ["'none'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
}
# The language switcher's cookie: sent with a link followed from another site, never with
# its forms; over HTTPS only where the session's is (production).
LANGUAGE_COOKIE_SAMESITE = "Lax"
LANGUAGE_COOKIE_SECURE = SESSION_COOKIE_SECURE

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.getenv("LOG_LEVEL", "INFO")},
}
if CELERY_TASK_ALWAYS_EAGER:
    # Tasks run in-process after each commit: a line for each recorded event would drown the log.
    LOGGING["loggers"] = {"celery.app.trace": {"level": "WARNING"}}

# The REST API (replay/api/): JSON only, tokens for programs and sessions (with CSRF) for
# browsers, every error as {"error", "field"}; views refuse by default what they do not allow.
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # First: its challenge makes a missing credential a 401, not a 403.
        "replay.api.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["replay.api.permissions.IsStaff"],
    "DEFAULT_PARSER_CLASSES": ["replay.api.parsers.JSONParser"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "replay.api.negotiation.JSONWhateverAccepted",
    "EXCEPTION_HANDLER": "replay.api.errors.exception_handler",
    "DEFAULT_SCHEMA_CLASS": "replay.api.schema.AutoSchema",
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
}
# The largest request body the API reads; a larger one is answered 413. A recorded event
# takes a few hundred bytes, a new match a few kilobytes.
API_MAX_BODY_BYTES = 64 * 1024

SPECTACULAR_SETTINGS = {
    "TITLE": "carambole",
    "DESCRIPTION": (
        "Five-pins carom billiards, event-sourced: record each shot of a match, read any "
        "state of it, export its record. Anyone reads; the referee assigned to a match "
        "records it; staff create competitions and matches and assign referees. Programs "
        "authenticate with `Authorization: Token <key>` (`manage.py issue_token`), browsers "
        "with a session and its CSRF token. Every error is JSON "
        '`{"error": ..., "field": ...}`, with `seq` where an event is to blame.'
    ),
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SCHEMA_PATH_PREFIX": "/api/",
    "COMPONENT_SPLIT_REQUEST": True,
    "ENUM_NAME_OVERRIDES": {
        "PlayerEnum": "matches.domain.rules.PLAYERS",
        # A match state's status (in the state, the scoreboard, a recorded event's answer)
        # and a listed match's (which may also be "scheduled").
        "MatchStatusEnum": "replay.api.schema.STATUSES",
        "ListedStatusEnum": "replay.queries.listing.STATUSES",
    },
    # Swagger UI from the project's own static files: no CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}
