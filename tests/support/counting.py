"""Where the throttle's counts live in a test, and a burst of callers released together."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import redis
from django.core.cache import caches

from carambole import counts

Answer = TypeVar("Answer")

MEMORY = {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "counts"}


def redis_cache(url: str) -> dict[str, Any]:
    """Return a default cache in this Redis, with the settings' timeouts."""
    return {
        "BACKEND": counts.REDIS_CACHE,
        "LOCATION": url,
        "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
    }


def counts_clear(config: dict[str, Any]) -> None:
    """Empty the counts of a store: another test's attempts from the same address are gone."""
    if config["BACKEND"] != counts.REDIS_CACHE:
        caches.create_connection("default").clear()  # every LocMemCache of a name shares one
        return
    client = redis.Redis.from_url(config["LOCATION"])
    try:
        for key in client.scan_iter(f"{counts.PREFIX}*"):
            client.delete(key)
    finally:
        client.close()


def at_once(callers: int, call: Callable[[], Answer]) -> list[Answer | Exception]:
    """Run `call` on that many threads released together; return each answer or exception."""
    start = threading.Barrier(callers)

    def one(_: int) -> Answer | Exception:
        start.wait()
        try:
            return call()
        except Exception as error:  # the test counts what each caller met
            return error

    with ThreadPoolExecutor(max_workers=callers) as pool:
        return list(pool.map(one, range(callers)))
