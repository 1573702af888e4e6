"""A match's sheet limited per address for anonymous visitors: a page saying when to come
back, 429 past the rate and 503 while Redis is away, both with Retry-After."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client, override_settings

SHEET = "/matches/no-such-match/sheet.pdf"  # counted before the match is looked up

pytestmark = pytest.mark.usefixtures("db")


@override_settings(COSTLY_READS_PER_MINUTE=2)
def test_an_anonymous_address_past_its_rate_is_told_when_to_come_back_in_its_language():
    answers = [Client().get(SHEET) for _ in range(3)]
    in_ukrainian = Client(HTTP_ACCEPT_LANGUAGE="uk").get(SHEET)
    elsewhere = Client(REMOTE_ADDR="10.0.0.9").get(SHEET)

    assert [a.status_code for a in answers] == [404, 404, 429]
    wait = int(answers[2]["Retry-After"])
    assert 1 <= wait <= 60 and "no-store" in answers[2]["Cache-Control"]
    assert f"Too many requests from your address: try again in {wait} second" in (
        answers[2].content.decode()
    )
    assert in_ukrainian.status_code == 429
    assert "Забагато запитів з вашої адреси" in in_ukrainian.content.decode()
    assert elsewhere.status_code == 404


@override_settings(COSTLY_READS_PER_MINUTE=1)
def test_a_login_reads_sheets_uncounted():
    client = Client()
    client.force_login(get_user_model().objects.create_user("petrenko"))

    assert [client.get(SHEET).status_code for _ in range(3)] == [404, 404, 404]
    assert Client().get(SHEET).status_code == 404  # the address's first


def test_while_redis_is_stopped_an_anonymous_sheet_is_a_503_with_retry_after(
    counting_redis_stops,
):
    counting_redis_stops()

    answer = Client().get(SHEET)

    assert answer.status_code == 503 and int(answer["Retry-After"]) > 0
    assert "Requests cannot be counted just now" in answer.content.decode()


@override_settings(COSTLY_READS_PER_MINUTE=2)
def test_a_competition_page_or_ranking_as_of_a_version_is_counted_and_as_of_now_is_not():
    as_of = ["/competitions/nope/?at=3", "/competitions/nope/ranking.csv?at=3"]
    now = ["/competitions/nope/", "/competitions/nope/ranking.csv"]

    assert [Client().get(path).status_code for path in now * 2] == [404] * 4
    assert [Client().get(path).status_code for path in as_of] == [404, 404]
    assert [Client().get(path).status_code for path in as_of] == [429, 429]
