"""The suite's settings; it registers the fixtures of tests/support/ and defines none.

Helpers and fixtures live in tests/support/ (its `__init__` maps it); nothing imports
a conftest or a test module.
"""

import os
import shutil

from django.conf import settings as django_settings
from django.db import connection
from hypothesis import settings

pytest_plugins = ["tests.support.fixtures", "tests.support.browser"]

# The suite runs with debug off, as production does, and serves its ASGI application to
# test clients: with a key of its own, not the development key that serving refuses.
django_settings.SECRET_KEY = "test-suite-key-" + "k" * 50
# Test clients speak plain HTTP to the application, as the load balancer does behind TLS.
django_settings.SECURE_SSL_REDIRECT = False
# Every socket a test opens in-process comes from no address, so all of them, in every test
# a worker runs, would share one address's rate (carambole/admission.py): none here, but
# where a test sets one.
django_settings.SOCKETS_PER_ADDRESS_PER_SECOND = 0
# Hashing a password costs most of a second at Django's million iterations: the tests
# hash theirs with a thousand, and still check any hash the real settings made.
django_settings.PASSWORD_HASHERS = ["tests.support.hashers.QuickPBKDF2PasswordHasher"]
# The throttles' counts (carambole/throttle.py) and the read cache's answers in this
# process's memory, emptied before each test (tests/support/fixtures.py): what one test
# failed never refuses another's login, nor what it read answers another. The servers the
# tests start count in Redis when they are given one.
django_settings.CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "tests"},
    "reads": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "reads"},
}

# Property tests take their number of examples from the profile: few while developing, many
# in CI, where the time is set aside for them. HYPOTHESIS_PROFILE picks another profile.
settings.register_profile("dev", max_examples=50)
settings.register_profile("ci", max_examples=500, print_blob=True)
settings.load_profile(
    os.getenv("HYPOTHESIS_PROFILE") or ("ci" if os.getenv("CI") == "true" else "dev")
)


def pytest_report_header():
    vendor = {"postgresql": "PostgreSQL", "sqlite": "SQLite"}.get(
        connection.vendor, connection.vendor
    )
    redis = os.getenv("REDIS_URL") or (
        "none for the app (in-memory layer, eager Celery); the Redis tests start their own"
        if shutil.which("redis-server")
        else "none (the Redis tests skip: no REDIS_URL, no redis-server)"
    )
    return [
        f"carambole: database {vendor}, Redis {redis}, CI={os.getenv('CI', '')}, "
        f"hypothesis profile {settings.get_current_profile_name()}"
    ]
