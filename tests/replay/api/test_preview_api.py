"""The preview of an event: what it would change, from its ruling to the final ranking, in
data and in sentences; nothing stored; 409 stale, 422 illegal, 429 past its rate, counted
exactly however many come at once, and 503 while the counts cannot be kept."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.test import override_settings

from matches import services
from matches.models import Event
from replay.projections import projector
from tests.support.builders import BY
from tests.support.caches import answered_alike
from tests.support.corrections import FLIPPED, drawn_with_a_flip_to_come, first_match_begun
from tests.support.counting import at_once
from tests.support.league import CAROM_A, win
from tests.support.logins import api

pytestmark = pytest.mark.usefixtures("projector_forgotten")

FLIP = {"type": "shot_amended", "shot": 4, "facts": CAROM_A, "reason": "video review"}


@pytest.fixture(autouse=True)
def _fresh_throttle():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def quarter_started(db) -> int:
    """The groups played, the knockout drawn, its first match started; the seq to preview."""
    drawn_with_a_flip_to_come()
    first_match_begun()
    projector.catch_up()
    return Event.objects.filter(match_id=FLIPPED).count()


def previewed(seq: int, event: dict = FLIP, language: str = "en"):
    return api(HTTP_ACCEPT_LANGUAGE=language).post(
        f"/api/matches/{FLIPPED}/events/preview",
        {"expected_seq": seq, "event": event},
        format="json",
    )


def test_a_preview_says_what_an_amendment_would_change_and_stores_nothing(quarter_started):
    answer = previewed(quarter_started)

    assert answer.status_code == 200, answer.json()
    found = answer.json()
    assert found["ruling"]["before"] != found["ruling"]["after"]
    assert found["match"]["before"]["winner"] == "B" and found["match"]["after"]["winner"] == "A"
    [group_before], [group_after] = found["groups"]["before"], found["groups"]["after"]
    assert group_before["group"] == "B" and group_before["places"] != group_after["places"]
    [dispute] = [d for d in found["slots"]["disputes"] if d["match"] == "euro-ko-1-1"]
    assert dispute["slot"] == "groups:B2"
    assert "ranking" in found
    assert any("would be disputed" in line for line in found["said"])
    assert any("would rank 1st in group B" in line for line in found["said"])
    assert Event.objects.filter(match_id=FLIPPED).count() == quarter_started


def test_the_preview_is_what_recording_then_gives(quarter_started):
    found = previewed(quarter_started).json()

    services.ruling_amend(
        match_id=FLIPPED,
        expected_seq=quarter_started,
        by="jury",
        shot=4,
        facts=CAROM_A,
        reason="video review",
        staff=True,
    )
    projector.catch_up()

    stages = api().get("/api/competitions/euro/stages").json()["stages"]
    group_b = next(g for g in stages[0]["groups"] if g["name"] == "B")
    assert [row["player"] for row in group_b["standings"]] == found["groups"]["after"][0]["places"]
    disputed = [m["disputed"] for r in stages[1]["rounds"] for m in r if m["disputed"] is not None]
    assert sorted(d["slot"] for d in disputed) == sorted(
        d["slot"] for d in found["slots"]["disputes"]
    )
    ranking = api().get("/api/competitions/euro/ranking").json()["rows"]
    changed = {row["player"]: row for row in found["ranking"]["after"]}
    assert all(changed[row["player"]] == row for row in ranking if row["player"] in changed)


def test_a_preview_speaks_the_request_s_language(quarter_started):
    said = previewed(quarter_started, language="uk").json()["said"]
    assert any("в групі B" in line for line in said)
    assert any("стане спірним" in line for line in said)


def test_a_stale_preview_is_a_409_an_illegal_one_a_422(quarter_started):
    stale = previewed(quarter_started - 1)
    illegal = previewed(
        quarter_started, {"type": "shot_amended", "shot": 999, "facts": CAROM_A, "reason": "x"}
    )

    assert (stale.status_code, stale.json()["seq"]) == (409, quarter_started)
    assert illegal.status_code == 422 and illegal.json()["field"]


@override_settings(PREVIEWS_PER_MINUTE=2)
def test_previews_are_throttled_per_address(quarter_started):
    answers = [previewed(quarter_started) for _ in range(3)]

    assert [a.status_code for a in answers] == [200, 200, 429]
    assert int(answers[2]["Retry-After"]) > 0
    assert answers[2].json()["error"]


def test_a_preview_asked_twice_gives_the_same_answer_as_one_asked_with_nothing_cached(
    db, django_capture_on_commit_callbacks
):
    """The final begun, a group result amended: asked again, the preview still says the
    group's new order and the started semi-finals it disputes, as recording then does
    (this process keeps each match it recorded into folded, as a server does)."""
    with django_capture_on_commit_callbacks(execute=True):
        drawn_with_a_flip_to_come()
    for semi_final in ("euro-ko-1-1", "euro-ko-1-2"):
        win(semi_final, "A")
    projector.catch_up()  # the final and the third-place match drawn
    for placing in ("euro-ko-2-1", "euro-ko-3rd"):
        services.lag_record(
            match_id=placing, expected_seq=0, by=BY, a={"distance": 90}, b={"distance": 150}
        )
    projector.catch_up()
    seq = Event.objects.filter(match_id=FLIPPED).count()

    said = answered_alike(lambda: previewed(seq).json())

    assert any("would rank 1st in group B" in line for line in said["said"])
    disputed = sorted(d["match"] for d in said["slots"]["disputes"])
    assert disputed == ["euro-ko-1-1", "euro-ko-1-2"]
    services.event_record(match_id=FLIPPED, expected_seq=seq, event=FLIP, by="jury", staff=True)
    projector.catch_up()
    rounds = api().get("/api/competitions/euro/stages").json()["stages"][1]["rounds"]
    assert sorted(m["match"] for r in rounds for m in r if m["disputed"]) == disputed


def test_previews_sent_at_once_from_one_address_are_throttled_exactly_at_the_limit(
    counting_store,
):
    """A hundred sent together by threads, each counted before its body is read: as many
    as the limit are read (their body refused here: 400), every other one is a 429.
    (tests/test_counts.py bursts 20, 100 and 300 at the counts themselves.)"""
    url = "/api/matches/any/events/preview"

    with override_settings(PREVIEWS_PER_MINUTE=10):
        answers = at_once(100, lambda: api().post(url, {}, format="json"))

    statuses = [answer.status_code for answer in answers]
    assert (statuses.count(400), statuses.count(429)) == (10, 90)


def test_a_preview_while_redis_is_stopped_is_a_503_with_retry_after(
    quarter_started, counting_redis_stops
):
    assert previewed(quarter_started).status_code == 200
    counting_redis_stops()

    answer = previewed(quarter_started)

    assert answer.status_code == 503 and int(answer["Retry-After"]) > 0
    assert "try again" in answer.json()["error"]
