"""The read cache: answers costly to make, kept by everything they depend on.

Django's cache "reads" (`CACHES` in the settings: Redis given `REDIS_URL`, else a few
hundred answers in this process's memory) keeps each answer under a key made of all it
depends on (a match's head hash, a competition's newest events), so no answer is ever
stale: a correction makes another key, and the old one expires unread. A cache that does
not answer (Redis away) keeps nothing: the answer is made as if none were kept, and the
outage logged.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable
from typing import Any, TypeVar, cast

import orjson
from django.core.cache import caches
from redis.exceptions import RedisError

READS = "reads"  # the cache's alias in CACHES
log = logging.getLogger(__name__)
Answer = TypeVar("Answer")
_ABSENT = object()  # nothing kept under a key
_AWAY = object()  # the cache did not answer


def read_key(kind: str, *depends_on: Any) -> str:
    """Return the cache key of an answer of a kind: the digest of everything it depends on."""
    digest = hashlib.sha256(orjson.dumps(depends_on, option=orjson.OPT_SORT_KEYS)).hexdigest()
    return f"{kind}:{digest}"


def cached(key: str, make: Callable[[], Answer], seconds: int) -> Answer:
    """Return the answer kept under `key`, else make it, keep it `seconds` and return it."""
    found = _kept(key)
    if found is _ABSENT:
        return _keep(key, make(), seconds)
    if found is _AWAY:
        return make()
    return cast(Answer, found)


def _kept(key: str) -> object:
    """Return the answer kept under `key`: _ABSENT when none is, _AWAY when the cache is."""
    try:
        return caches[READS].get(key, _ABSENT)
    except RedisError as error:
        log.warning("read cache: Redis did not answer (%s); %s is made again", error, key)
        return _AWAY


def _keep(key: str, answer: Answer, seconds: int) -> Answer:
    try:
        caches[READS].set(key, answer, seconds)
    except RedisError as error:
        log.warning("read cache: Redis did not answer (%s); %s is not kept", error, key)
    return answer
