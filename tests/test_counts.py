"""Counts in windows, atomic: a burst from many threads is counted exactly, in memory and
in Redis; an attempt against two counts goes to both or neither; a Redis away is said."""

from __future__ import annotations

import time
import uuid

import pytest
from django.test import override_settings

from carambole import counts
from carambole.counts import Counted, Tally
from tests.support.counting import MEMORY, at_once, redis_cache


def fresh(name: str = "burst") -> str:
    return f"test-{name}-{uuid.uuid4().hex}"  # a key no other test (nor a Redis kept) has


@pytest.mark.parametrize("callers, most", [(20, 5), (100, 60), (300, 60)])
def test_a_burst_of_simultaneous_attempts_is_counted_exactly_to_the_most(
    counting_store, callers, most
):
    tally = Tally(fresh(), most, 60)

    answers = at_once(callers, lambda: counts.add([tally], time.time()))

    allowed = [a for a in answers if isinstance(a, list)]
    refused = [a for a in answers if isinstance(a, counts.Full)]
    assert (len(allowed), len(refused)) == (most, callers - most)
    assert all(1 <= a.retry_after <= 60 for a in refused)


def test_an_attempt_against_two_counts_is_counted_in_both_or_in_neither(counting_store):
    account, address = Tally(fresh("account"), 2, 60), Tally(fresh("address"), 5, 60)
    now = time.time()
    counts.add([account], now)
    counts.add([account], now)

    with pytest.raises(counts.Full):
        counts.add([address, account], now)

    for _ in range(5):  # the refusal took nothing from the address's five
        counts.add([address], now)
    with pytest.raises(counts.Full):
        counts.add([address], now)


def test_an_attempt_taken_back_frees_its_place_and_a_full_count_says_when_it_ends(counting_store):
    tally = Tally(fresh(), 1, 30)
    counted = counts.add([tally], time.time())
    counts.take_back(counted)
    counts.add([tally], time.time())

    with pytest.raises(counts.Full) as full:
        counts.add([tally], time.time())

    assert 29 <= full.value.retry_after <= 30


def test_taking_back_an_attempt_of_a_window_that_ended_leaves_the_next_window_alone():
    with override_settings(CACHES={"default": MEMORY}):
        tally = Tally(fresh(), 1, 10)
        old = counts.add([tally], 1_000.0)
        counts.add([tally], 1_010.0)  # the first window ended: this one opens the next

        counts.take_back(old)

        with pytest.raises(counts.Full):
            counts.add([tally], 1_011.0)


def test_taking_back_in_redis_is_by_window_too(redis_url):
    with override_settings(CACHES={"default": redis_cache(redis_url)}):
        tally = Tally(fresh(), 1, 60)
        counts.add([tally], time.time())

        counts.take_back([Counted(tally.key, "an earlier window")])

        with pytest.raises(counts.Full):
            counts.add([tally], time.time())


def test_a_redis_that_does_not_answer_is_away_and_counts_nothing():
    with override_settings(CACHES={"default": redis_cache("redis://127.0.0.1:9/0")}):
        with pytest.raises(counts.Away):
            counts.add([Tally(fresh(), 5, 60)], time.time())
        with pytest.raises(counts.Away):
            counts.take_back([Counted(fresh(), "1")])
