"""A Celery pool process lets go of the database pools it inherited, closing none of them."""

from celery import signals
from django.db.backends.postgresql.base import DatabaseWrapper

import carambole.celery  # noqa: F401  (connects the receiver)


class Inherited:
    closed = False

    def close(self):
        self.closed = True


def test_a_pool_process_starts_with_none_of_its_parents_pools(monkeypatch):
    inherited = Inherited()
    monkeypatch.setattr(DatabaseWrapper, "_connection_pools", {"default": inherited})

    signals.worker_process_init.send(sender=None)

    assert DatabaseWrapper._connection_pools == {}
    assert not inherited.closed  # the parent's sessions are the parent's to end
