"""A final's audience across processes: its verdict, and a run at its smallest."""

from __future__ import annotations

import pytest

from bench.audience import CPU_LIMIT, TARGET, compared, per_viewer_cpu, per_viewer_memory
from bench.contract import audience_checks
from tests.support.bench_runs import bench_run
from tests.support.servers import redis_server_binary


def side(p99_ms: float, load_share: float = 0.05, **faults: int) -> dict:
    counts = dict.fromkeys(("lost", "doubled", "out_of_order", "closed", "errors"), 0)
    return {
        "last_p99_ms": p99_ms,
        "load_cpu": {"share_of_a_core": load_share},
        **counts,
        **faults,
    }


def test_the_audience_holds_within_its_bound_beside_the_bare_servers():
    said = compared(side(p99_ms=30.0), side(p99_ms=20.0))

    assert (said["vs_bare_p99"], said["faults"], said["valid"]) == (TARGET, 0, True)
    assert said["meets_target"]


@pytest.mark.parametrize(
    ("ours", "theirs"),
    [
        (side(p99_ms=31.0), side(p99_ms=20.0)),  # over the bound
        (side(p99_ms=10.0, lost=1), side(p99_ms=20.0)),  # a viewer missed a shot
        (side(p99_ms=10.0), side(p99_ms=20.0, out_of_order=1)),  # so did the yardstick
        (side(p99_ms=10.0, errors=1), side(p99_ms=20.0)),  # a shot not recorded
        (side(p99_ms=10.0, load_share=CPU_LIMIT + 0.01), side(p99_ms=20.0)),  # busy clients
        (side(p99_ms=10.0), side(p99_ms=20.0, load_share=CPU_LIMIT + 0.01)),
    ],
)
def test_the_audience_fails_over_its_bound_with_a_fault_or_with_busy_load_generators(ours, theirs):
    assert not compared(ours, theirs)["meets_target"]


def test_the_verdict_says_why_an_invalid_or_faulty_run_did_not_hold():
    result = {
        "options": {"viewers": 2000, "servers": 2},
        **compared(side(p99_ms=10.0, lost=2), side(p99_ms=20.0, load_share=0.5)),
    }

    (check,) = audience_checks(result).values()

    assert not check.held
    assert check.shown == "0.5 FAULTS INVALID"
    assert list(audience_checks(result)) == ["audience, 2,000 viewers, 2 servers: p99 / bare's"]


def test_a_viewers_cost_is_what_the_viewers_added_to_the_servers_alone():
    memory = per_viewer_memory([40 * 2**20, 60 * 2**20], [50 * 2**20, 70 * 2**20], viewers=2048)
    cpu = per_viewer_cpu(seconds=3.0, wall=10.0, viewers=2000)

    assert memory == {"process_mb": 50.0, "with_viewers_mb": 120.0, "per_viewer_kb": 10.0}
    assert cpu == {"share_of_a_core": 0.3, "per_1000_viewers": 0.15}


@pytest.mark.journey  # two servers and two bare ones with their viewers, about ten seconds
def test_make_bench_spreads_a_small_audience_over_two_servers_with_nothing_lost(tmp_path):
    redis_server_binary()

    done, audience = bench_run(tmp_path, "audience", timeout=300)

    assert (audience["options"]["viewers"], audience["options"]["servers"]) == (20, 2)
    for name in ("carambole", "bare"):
        figures = audience[name]
        assert (figures["viewers"], figures["servers"], figures["samples"]) == (20, 2, 3), name
        kinds = ("lost", "doubled", "out_of_order", "closed")
        assert [figures[kind] for kind in kinds] == [0, 0, 0, 0], (name, figures)
        assert figures["servers_memory"]["process_mb"] > 0, name
    assert audience["carambole"]["errors"] == 0
    assert audience["faults"] == 0
    assert "(p) a final's audience across processes: 20 viewers of one match" in done.stdout
    assert "FAULTS" not in done.stdout
