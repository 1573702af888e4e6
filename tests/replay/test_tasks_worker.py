"""Standings recomputed by a real Celery worker on Redis, through outages and a lost worker.

Slow (seconds each). CI runs them with its Redis; a missing Redis fails there.
"""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from websockets.sync.client import connect as websocket

from replay.api.tokens import token_issue
from replay.projections import projector
from replay.queries.standings_reader import standings_get
from tests.support.celery_workers import CURSOR_HELD, server, worker
from tests.support.league import CAROM_A, league, win
from tests.support.servers import free_port, own_redis, post_event

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("projector_forgotten", "event_db")]

NOT_ENQUEUED = "recompute of cup not enqueued"  # what the server logs with Redis down
FLIP_S = 60.0  # how long a test waits for an amendment's new standings to reach a viewer
CATCH_UP_S = 60.0
HELD_S = 60.0  # how long a test waits for a worker's recompute to hold the cursor


@pytest.fixture
def amendable_league():
    """A league whose first match B won, caught up: amending its shot 4 makes A win.

    Also a staff token to amend it with, made before any worker could hold the database.
    """
    cup = league()
    seq = win(cup[0], "B")
    projector.catch_up()
    return cup[0], seq, token_issue("federation", staff=True).key


def amend_through_api(port: int, key: str, match_id: str, seq: int) -> tuple[int, float]:
    """Record the flipping amendment through the API; return the status and the seconds."""
    body = {
        "expected_seq": seq,
        "event": {"type": "shot_amended", "shot": 4, "facts": CAROM_A, "reason": "video"},
    }
    posted = post_event(f"http://127.0.0.1:{port}/api/matches/{match_id}/events", key, body)
    return posted.status, posted.seconds


def wait_for_version(newer_than: int, timeout: float) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        standings = standings_get("cup")
        if standings["version"] > newer_than:
            return standings
        time.sleep(0.2)
    raise AssertionError(f"the standings stayed at version {newer_than} for {timeout} s")


def test_a_worker_recomputes_a_flipped_match_and_a_viewer_is_sent_the_new_version(
    amendable_league, redis_url, tmp_path
):
    match_id, seq, key = amendable_league
    before = standings_get("cup")
    with server(redis_url) as api, worker(redis_url, tmp_path / "beat"):
        with websocket(f"ws://127.0.0.1:{api.port}/ws/competitions/cup/", proxy=None) as viewer:
            first = json.loads(viewer.recv(timeout=10))
            assert first["version"] == before["version"]

            status, _ = amend_through_api(api.port, key, match_id, seq)
            assert status == 201
            pushed = json.loads(viewer.recv(timeout=FLIP_S))

    assert pushed["type"] == "standings" and pushed["version"] > before["version"]
    assert pushed["standings"]["rows"][0]["player"] != before["rows"][0]["player"]
    assert standings_get("cup")["version"] == pushed["version"]


@pytest.mark.journey  # Redis stopped and started again under a worker
def test_with_redis_stopped_an_amendment_is_stored_and_the_standings_catch_up_after(
    amendable_league, tmp_path
):
    match_id, seq, key = amendable_league
    before = standings_get("cup")["version"]
    port = free_port()
    url = f"redis://127.0.0.1:{port}/0"
    with own_redis(port) as redis, server(url) as api, worker(url, tmp_path / "beat"):
        redis.terminate()
        redis.wait(timeout=10)

        # Answered, not left waiting on Redis (the request gives up after its timeout).
        status, _ = amend_through_api(api.port, key, match_id, seq)

        assert status == 201
        api.wait_for(NOT_ENQUEUED, timeout=FLIP_S)  # its recompute refused by no Redis
        assert projector.head() > projector.position()  # stored, not projected
        assert standings_get("cup")["version"] == before
        with own_redis(port):
            after = wait_for_version(before, CATCH_UP_S)
    assert after["rows"][0]["player"] != standings_get("cup")["rows"][-1]["player"]


@pytest.mark.journey  # a worker started, killed and started again
def test_a_worker_killed_in_the_middle_of_a_recompute_leaves_it_to_the_next(
    amendable_league, redis_url, tmp_path
):
    match_id, seq, key = amendable_league
    before = standings_get("cup")["version"]
    with server(redis_url) as api:
        # No sweep from this worker's beat: one run before the recompute would project the
        # amendment itself.
        no_sweep = {"PROJECTOR_SWEEP_SECONDS": "3600"}
        with worker(redis_url, tmp_path / "beat-1", holding=True, **no_sweep) as slow:
            status, _ = amend_through_api(api.port, key, match_id, seq)
            assert status == 201
            slow.wait_for(CURSOR_HELD, timeout=HELD_S)
            slow.kill()
        assert standings_get("cup")["version"] == before
        with worker(redis_url, tmp_path / "beat-2"):
            wait_for_version(before, CATCH_UP_S)
