"""The fan-out bench: its bookkeeping of receipts, and a small run of `python -m bench`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bench.fanout import Watched, percentile, shot_figures

ROOT = Path(__file__).resolve().parents[2]


def report(path: str, seqs: list[int], start: float = 10.0) -> dict:
    return {
        "path": path,
        "seqs": seqs,
        "times": [start + seq / 1000 for seq in seqs],
        "sizes": [700] * len(seqs),
        "closed": None,
    }


def test_figures_time_each_shot_to_its_last_viewer_and_count_what_went_wrong():
    watched = Watched({"m": 3}, {"m": 3})
    path = "/ws/matches/m/?after=3"
    reports = [
        report(path, [4, 5, 6]),
        report(path, [4, 6, 6]),  # lost 5, had 6 twice, and 6 after 6
        report(path, [5, 4, 6], start=10.002),  # 4 after 5
    ]
    began = {("m", seq): 10.0 for seq in (4, 5, 6)}

    figures = shot_figures(watched, reports, {"m": [4, 5, 6]}, began)

    assert figures["samples"] == 3
    assert figures["last_p99_ms"] == 8.0  # seq 6, received last at 10.008
    assert (figures["lost"], figures["doubled"], figures["out_of_order"]) == (1, 1, 2)
    assert figures["message_bytes"] == 700


@pytest.mark.parametrize(("percent", "expected"), [(50, 50), (99, 99), (100, 100), (1, 1), (0, 1)])
def test_percentiles_are_the_nearest_rank(percent, expected):
    assert percentile([float(n) for n in range(100, 0, -1)], percent) == expected


@pytest.mark.slow
@pytest.mark.journey  # a whole bench run
def test_make_bench_measures_a_small_fan_out_with_nothing_lost_doubled_or_disordered(tmp_path):
    results_file = tmp_path / "results.json"
    environ = {**os.environ, "DJANGO_SETTINGS_MODULE": "carambole.settings"}
    command = [sys.executable, "-m", "bench", "--matches", "4", "--repeat", "1"]
    command += ["--viewers", "40", "--shots", "4", "--no-standings", "--quick", "--no-progress"]
    command += ["--json", str(results_file)]
    # Every fan-out scenario, the socket churn, the hall and the audience in CI only: each
    # has served tests of its own (tests/replay/live/, tests/browser/test_hall_page.py,
    # tests/bench/test_audience.py); `make test` runs one scenario, beside its bare
    # yardstick, and keeps its minutes.
    everything = os.getenv("CI") == "true"
    if not everything:
        command += ["--no-churn", "--no-hall", "--no-audience", "--fanout-scenario", "one_match"]

    done = subprocess.run(
        command, cwd=ROOT, env=environ, capture_output=True, text=True, timeout=600
    )

    assert done.returncode == 0, done.stderr[-3000:]
    fanout = json.loads(results_file.read_text())["fanout"]
    bare = {"one_match", "ten_matches", "one_match_thin_clients"} if everything else {"one_match"}
    assert set(fanout["bare"]) == bare
    layers = ["in_memory"] + (["redis"] if os.getenv("REDIS_URL") else [])
    for layer in layers:
        for scenario, figures in fanout[layer].items():
            if scenario == "servers":
                continue
            assert figures["samples"] > 0, (layer, scenario)
            faults = [figures[k] for k in ("lost", "doubled", "out_of_order", "errors")]
            assert faults == [0, 0, 0, 0], (layer, scenario, figures)
    assert "(f) fan-out of a recorded shot to 40 viewers" in done.stdout
    if everything:
        hall = json.loads(results_file.read_text())["hall"]
        assert (hall["options"]["tables"], hall["options"]["viewers"]) == (4, 20)
        for layer in layers:
            for name in ("hall", "one_match"):
                figures = hall[layer][name]
                assert figures["viewers"] == 20 and figures["samples"] == 8, (layer, name)
                kinds = ("lost", "doubled", "out_of_order", "closed", "errors")
                assert [figures[k] for k in kinds] == [0, 0, 0, 0, 0], (layer, name, figures)
        assert "(t) the hall: an event on each of 4 tables in turn, 20 viewers" in done.stdout
    assert "FAULTS" not in done.stdout
    steadiness = json.loads(results_file.read_text())["steadiness"]
    assert steadiness["loops"] > 0  # timed beside the run: whether it was steady, it says
    assert "(s) the machine's steadiness: " in done.stdout
    recording = json.loads(results_file.read_text())["recording"]
    assert (recording["shots"], recording["long_events"]) == (20, 200)
    assert "the same into a 200-event match" in done.stdout
    if os.getenv("DATABASE_URL"):  # the same recording on the production database
        on_postgres = json.loads(results_file.read_text())["recording_postgresql"]
        assert (on_postgres["shots"], on_postgres["database"]) == (20, "postgresql")
        assert "(d) recording a shot through the API on postgresql" in done.stdout
    on_postgresql = bool(os.getenv("DATABASE_URL"))
    venue = json.loads(results_file.read_text())["venue" if on_postgresql else "venue_embedded"]
    assert venue["database"] == ("postgresql" if on_postgresql else "sqlite")
    assert venue["load"]["answers"] > 0 and venue["load"]["errors"] == 0
    assert venue["stored"]["faults"] == 0
    assert [venue["live"][k] for k in ("lost", "doubled", "out_of_order")] == [0, 0, 0]
    assert "(v) the venue: 2 tablets" in done.stdout
    championship = json.loads(results_file.read_text())["championship"]
    assert (championship["group_matches"], championship["knockout_matches"]) == (56, 3)
    assert championship["champion"] is not None
    assert championship["group_incremental_ms"] > 0 and championship["group_full_ms"] > 0
    assert "(h) championship in stages: 16 players, 2 groups" in done.stdout
    ratings = json.loads(results_file.read_text())["ratings"]
    assert ratings["matches"] == 1_000 and ratings["rows_written"] > 0
    assert ratings["full_ms"] > 0 and ratings["incremental_ms"] > 0
    assert "(r) ratings: 1,000 matches of 200 players" in done.stdout
    if not everything:
        return
    churn = json.loads(results_file.read_text())["churn"]
    assert churn["cycles"] == 1000 and churn["first_mb"] > 0
