"""The word that a version of standings committed never holds the projector back."""

from __future__ import annotations

import threading
from types import SimpleNamespace

from django.db import connections

from matches.signals import events_appended
from replay import tasks
from replay.live import announce
from replay.projections import projector
from tests.support.hanging_layer import HangingLayer, wait_for
from tests.support.league import dated_league, win


def test_the_projector_commits_at_once_when_the_channel_layer_hangs(event_db, monkeypatch):
    monkeypatch.setattr(announce, "shared_layer", lambda: True)
    monkeypatch.setattr(announce, "get_channel_layer", HangingLayer)  # the publisher's
    monkeypatch.setattr(HangingLayer, "callers", [])
    monkeypatch.setattr(announce, "publisher", announce.Publisher())
    first, *_ = dated_league()
    events_appended.disconnect(dispatch_uid=tasks.COMMITTED_UID)  # the projector run below
    try:
        win(first, "A")
    finally:
        events_appended.connect(tasks.committed, dispatch_uid=tasks.COMMITTED_UID)
    caught: list[projector.Caught] = []

    def worker() -> None:
        try:
            caught.append(projector.catch_up())
        finally:
            connections.close_all()

    catching_up = threading.Thread(target=worker, name="worker")
    catching_up.start()
    catching_up.join(timeout=60)  # a projector that waited on the layer would wait forever

    assert not catching_up.is_alive() and caught and caught[0].versions
    assert projector.position() == projector.head()
    wait_for(lambda: HangingLayer.callers, "the version handed to the layer")
    assert set(HangingLayer.callers) == {"live-publisher"}


def test_a_newer_version_replaces_one_not_sent_yet(monkeypatch):
    publisher = announce.Publisher()
    monkeypatch.setattr(publisher, "_start", lambda: None)  # nothing sends: what waits is seen
    monkeypatch.setattr(publisher, "_loop", _Loop())
    monkeypatch.setattr(publisher, "_wake", SimpleNamespace(set=None))

    publisher.publish(("standings", "cup"), 7)
    publisher.publish(("standings", "cup"), 9)
    publisher.publish(("standings", "cup"), 8)
    publisher.publish(("standings", "league"), 3)
    publisher.publish(("hall", "cup"), 0)

    assert publisher._pending == {
        ("standings", "cup"): 9,
        ("standings", "league"): 3,
        ("hall", "cup"): 0,
    }


class _Loop:
    def call_soon_threadsafe(self, *args: object) -> None:
        pass
