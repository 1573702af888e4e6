"""The Celery application; configured from Django settings prefixed CELERY_."""

import os

from celery import Celery, signals

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "carambole.settings")

app = Celery("carambole")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


def _own_connection_pools(**kwargs: object) -> None:
    """A pool process starts with none of its parent's database pools.

    A pool's connections and threads belong to the process that opened it: closing the
    inherited ones here would end the parent's sessions, so they are only let go of.
    """
    from django.db.backends.postgresql.base import DatabaseWrapper

    getattr(DatabaseWrapper, "_connection_pools").clear()  # noqa: B009  (Django's own, untyped)


signals.worker_process_init.connect(_own_connection_pools, weak=False)
