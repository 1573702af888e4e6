"""The machine's steadiness beside a bench run: one loop of Python timed by a process of its own."""

from __future__ import annotations

import time

import pytest

from bench.steadiness import STEADY, _read, steadiness_of, table, timed_beside
from bench.suite import _row


@pytest.mark.parametrize(
    ("loops_ms", "apart", "steady"),
    [
        ([10.0] * 20, 1.0, True),
        ([10.0] * 19 + [30.0], 1.0, True),  # one loop slowed of twenty: not a tenth of them
        ([10.0] * 10 + [12.0] * 10, 1.2, True),
        ([10.0] * 10 + [15.0] * 10, 1.5, False),
        ([10.0] * 10 + [12.004] * 10, 1.2, True),  # judged as printed
    ],
)
def test_a_run_is_steady_when_its_slow_tenth_of_loops_is_at_most_a_fifth_slower_than_its_fast(
    loops_ms, apart, steady
):
    summary = steadiness_of(loops_ms)

    assert (summary["apart"], summary["steady"]) == (apart, steady)
    assert summary["target"] == STEADY
    assert ("UNSTEADY" in "\n".join(table(summary, _row))) is not steady


def test_a_run_of_fewer_than_twenty_loops_says_it_cannot_tell_for_one_slow_loop_is_a_tenth():
    summary = steadiness_of([10.0] * 18 + [30.0])

    assert summary == {"loops": 19, "steady": None}
    assert table(summary, _row) == [
        "(s) the machine's steadiness: 19 loops timed, too few to say (a verdict takes 20)"
    ]


def test_a_line_cut_short_when_the_probe_was_stopped_is_left_out():
    loops_ms: list[float] = []

    _read(["12.5\n", "13.25\n", "13.2."], loops_ms)

    assert loops_ms == [12.5, 13.25]


def test_the_probe_times_its_loop_beside_the_block_and_stops_with_it():
    with timed_beside() as steadiness:
        deadline = time.monotonic() + 60  # a liveness limit: the first loop comes at once
        while not steadiness.loops_ms and time.monotonic() < deadline:
            time.sleep(0.05)
        timed = list(steadiness.loops_ms)

    assert timed and all(loop > 0 for loop in timed)
    assert steadiness.loops_ms[: len(timed)] == timed
