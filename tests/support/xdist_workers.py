"""Loaded first (`-p tests.support.xdist_workers`): each test worker gets a Redis of its own.

`make test` runs the suite in several processes (pytest-xdist). Given one `REDIS_URL`
(CI's), each worker takes another database number on that server before Django reads
its settings, for itself and every server it starts: one worker's Celery workers never
take another's tasks, nor its servers hear another's notices. Without `REDIS_URL` the
tests that need Redis start one of their own (`tests/conftest.py`).
"""

from __future__ import annotations

import os
from urllib.parse import urlsplit, urlunsplit


def redis_url_of_worker(url: str, worker: str) -> str:
    """Return `url` with the database number of worker `gwN`: 1 to 15 (0 stays the user's)."""
    number = int(worker.removeprefix("gw")) % 15 + 1
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{number}"))


_worker = os.getenv("PYTEST_XDIST_WORKER")
if _worker and os.getenv("REDIS_URL"):
    os.environ["REDIS_URL"] = redis_url_of_worker(os.environ["REDIS_URL"], _worker)
