"""Process-local caches: named, bounded, counting, and emptied together."""

from __future__ import annotations

import logging

import pytest

from carambole.caches import Cache, clear_every_cache, log_reports


@pytest.fixture
def small():
    cache: Cache[str, int] = Cache("test small", maxsize=2)
    yield cache
    from carambole import caches

    del caches._every_cache[cache.name]


def test_a_cache_answers_what_was_set_and_counts_hits_and_misses(small):
    assert small.get("a") is None
    small.set("a", 1)
    assert small.get("a") == 1
    report = small.report()
    assert (report.size, report.hits, report.misses) == (1, 1, 1)


def test_a_full_cache_leaves_out_the_least_recently_used_entry(small):
    small.set("a", 1)
    small.set("b", 2)
    small.get("a")
    small.set("c", 3)
    assert (small.get("a"), small.get("b"), small.get("c")) == (1, None, 3)
    assert small.report().size == 2


def test_pop_removes_what_it_returns(small):
    small.set("a", 1)
    assert small.pop("a") == 1
    assert small.pop("a") is None


def test_one_call_empties_every_cache_and_starts_its_counts_again(small):
    small.set("a", 1)
    small.get("a")
    clear_every_cache()
    assert small.report() == small.report().__class__("test small", 0, 2, 0, 0)


def test_two_caches_of_one_name_are_refused(small):
    with pytest.raises(ValueError, match="test small"):
        Cache("test small", maxsize=1)


def test_the_log_reports_each_cache_asked_by_name_and_leaves_out_one_never_asked(small, caplog):
    small.set("a", 1)
    small.get("a")
    with caplog.at_level(logging.INFO, logger="carambole.caches"):
        log_reports()
    assert "cache test small: 1 of 2 entries, 1 hits, 0 misses" in caplog.text
    assert len(caplog.records) == 1  # every other cache was cleared before the test
