"""Anonymous reads as of a version (`?at=`) limited per address: 429 past the rate, 503
while Redis is away, both with Retry-After; a read without `at`, or a login's, uncounted."""

from __future__ import annotations

import pytest
from django.test import Client, override_settings

from tests.support.logins import api

STAGES = "/api/competitions/no-such-cup/stages"
RANKING = "/api/competitions/no-such-cup/ranking"

pytestmark = pytest.mark.usefixtures("db")


@override_settings(COSTLY_READS_PER_MINUTE=2)
def test_anonymous_reads_as_of_a_version_past_the_rate_are_a_429_with_retry_after():
    answers = [api().get(f"{STAGES}?at=1") for _ in range(3)]
    elsewhere = api(REMOTE_ADDR="10.0.0.9").get(f"{STAGES}?at=1")

    assert [a.status_code for a in answers] == [404, 404, 429]
    assert 1 <= int(answers[2]["Retry-After"]) <= 60
    assert answers[2].json() == {
        "error": f"too many costly reads from this address: try again in "
        f"{answers[2]['Retry-After']} s",
        "field": None,
    }
    assert elsewhere.status_code == 404


@override_settings(COSTLY_READS_PER_MINUTE=2)
def test_the_stages_the_ranking_and_the_sheets_count_together():
    api().get(f"{STAGES}?at=1")
    Client().get("/matches/no-such-match/sheet.pdf")

    assert api().get(f"{RANKING}?at=1").status_code == 429


@override_settings(COSTLY_READS_PER_MINUTE=1)
def test_a_read_of_now_and_a_login_s_read_are_never_counted(staff):
    now = [api().get(STAGES).status_code for _ in range(3)]
    by_login = [api(staff.key).get(f"{STAGES}?at=1").status_code for _ in range(3)]

    assert now == by_login == [404, 404, 404]
    assert api().get(f"{STAGES}?at=1").status_code == 404  # the address's first


def test_while_redis_is_stopped_an_anonymous_read_as_of_a_version_is_a_503(
    counting_redis_stops,
):
    counting_redis_stops()

    refused = api().get(f"{STAGES}?at=1")

    assert refused.status_code == 503 and int(refused["Retry-After"]) > 0
    assert "try again" in refused.json()["error"]
    assert api().get(STAGES).status_code == 404  # a read of now needs no count
