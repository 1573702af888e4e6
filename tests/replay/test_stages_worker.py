"""A knockout's next matches made by a real Celery worker on Redis, through an outage and a
lost worker: the semi-final that ends while Redis is down, or while the worker projecting
it dies, still has its final and third-place match created, each once.

Slow (seconds each). CI runs them with its Redis; a missing Redis fails there.
"""

from __future__ import annotations

import time

import pytest

from matches import services
from matches.models import Event, Match
from replay.api.tokens import token_issue
from replay.models import StagesView
from replay.projections import projector
from tests.support.celery_workers import CURSOR_HELD, server, worker
from tests.support.championships import championship, play_groups
from tests.support.corrections import FLIPPED, drawn_with_a_flip_to_come, first_match_begun
from tests.support.league import CAROM_A, open_game, win
from tests.support.servers import free_port, own_redis, post_event

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("projector_forgotten", "event_db")]

CATCH_UP_S = 60.0
NOT_ENQUEUED = "recompute of euro not enqueued"  # what the server logs with Redis down
HELD_S = 60.0  # how long a test waits for a worker's recompute to hold the cursor
FED = ("euro-ko-2-1", "euro-ko-3rd")  # the final and the match for third place


@pytest.fixture
def last_semi_final():
    """The euro's groups played, its knockout drawn, one semi-final won, caught up; the
    other opened so that A's next shot wins it. Also a staff token to record it with."""
    championship()
    services.stage_draw(competition_id="euro", stage_id="groups", by="director")
    play_groups()
    services.stage_draw(competition_id="euro", stage_id="ko", by="director")
    win("euro-ko-1-1", "A")
    seq = open_game("euro-ko-1-2")
    projector.catch_up()
    assert not Match.objects.filter(pk__in=FED).exists()
    return "euro-ko-1-2", seq, token_issue("federation", staff=True).key


def end_through_api(port: int, key: str, match_id: str, seq: int) -> int:
    body = {"expected_seq": seq, "event": {"type": "shot", **CAROM_A}}
    url = f"http://127.0.0.1:{port}/api/matches/{match_id}/events"
    return post_event(url, key, body).status


def wait_for_the_final(timeout: float) -> dict:
    """Wait until the projector has created the fed matches and written them in the bracket."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        view = StagesView.objects.filter(pk="euro").first()
        if view and Match.objects.filter(pk__in=FED).count() == len(FED):
            slots = {m["slot"]: m for games in view.stages[1]["rounds"] for m in games}
            if slots["2-1"]["match"] == FED[0]:
                return slots
        time.sleep(0.2)
    raise AssertionError(f"no final after {timeout} s")


def assert_made_once_with_the_winners(slots: dict) -> None:
    final = Match.objects.get(pk=FED[0])
    assert Match.objects.filter(pk__startswith="euro-ko-2-1").count() == 1
    assert final.stage_id == "ko" and final.slot == "2-1"
    assert slots["2-1"]["players"] == [final.player_a.name, final.player_b.name]
    assert projector.position() == projector.head()


@pytest.mark.journey  # Redis stopped and started again under a worker
def test_with_redis_stopped_a_semi_final_ends_and_its_final_is_made_when_redis_is_back(
    last_semi_final, tmp_path
):
    match_id, seq, key = last_semi_final
    port = free_port()
    url = f"redis://127.0.0.1:{port}/0"
    with own_redis(port) as redis, server(url) as api, worker(url, tmp_path / "beat"):
        redis.terminate()
        redis.wait(timeout=10)

        assert end_through_api(api.port, key, match_id, seq) == 201
        api.wait_for(NOT_ENQUEUED, timeout=CATCH_UP_S)  # its recompute refused by no Redis
        assert projector.head() > projector.position()  # stored, not projected
        assert not Match.objects.filter(pk__in=FED).exists()
        with own_redis(port):
            slots = wait_for_the_final(CATCH_UP_S)
    assert_made_once_with_the_winners(slots)


@pytest.mark.journey  # a worker started, killed and started again
def test_a_worker_killed_while_settling_a_semi_final_leaves_its_final_to_the_next(
    last_semi_final, redis_url, tmp_path
):
    match_id, seq, key = last_semi_final
    with server(redis_url) as api:
        # No sweep from this worker's beat: it would settle the semi-final itself.
        no_sweep = {"PROJECTOR_SWEEP_SECONDS": "3600"}
        with worker(redis_url, tmp_path / "beat-1", holding=True, **no_sweep) as slow:
            assert end_through_api(api.port, key, match_id, seq) == 201
            slow.wait_for(CURSOR_HELD, timeout=HELD_S)
            slow.kill()
        assert not Match.objects.filter(pk__in=FED).exists()
        with worker(redis_url, tmp_path / "beat-2"):
            slots = wait_for_the_final(CATCH_UP_S)
    assert_made_once_with_the_winners(slots)


@pytest.mark.journey  # Redis stopped and started again under a worker
def test_with_redis_stopped_a_correction_disputes_the_started_match_and_the_bracket_shows_it_when_redis_is_back(  # noqa: E501
    tmp_path,
):
    drawn_with_a_flip_to_come()
    first_match_begun()
    projector.catch_up()
    key = token_issue("federation", staff=True).key
    seq = Event.objects.filter(match_id=FLIPPED).count()
    body = {
        "expected_seq": seq,
        "event": {"type": "shot_amended", "shot": 4, "facts": CAROM_A, "reason": "video review"},
    }
    port = free_port()
    url = f"redis://127.0.0.1:{port}/0"
    with own_redis(port) as redis, server(url) as api, worker(url, tmp_path / "beat"):
        redis.terminate()
        redis.wait(timeout=10)

        answer = post_event(f"http://127.0.0.1:{api.port}/api/matches/{FLIPPED}/events", key, body)
        assert answer.status == 201  # recorded, whatever Redis is doing
        api.wait_for(NOT_ENQUEUED, timeout=CATCH_UP_S)  # its recompute refused by no Redis
        assert projector.head() > projector.position()
        # The write itself moved the players of the match not begun, in its transaction.
        assert Event.objects.filter(competition_id="euro", type="players_moved").exists()
        with own_redis(port):
            deadline = time.monotonic() + CATCH_UP_S
            while time.monotonic() < deadline:
                view = StagesView.objects.filter(pk="euro").first()
                first = view.stages[1]["rounds"][0][0] if view else {}
                if first.get("disputed"):
                    break
                time.sleep(0.2)
    assert first["disputed"]["slot"] == "groups:B2"
    assert projector.position() == projector.head()
