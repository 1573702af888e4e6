"""The soak at its smallest: a few seconds through a Redis restart and a server's, nothing lost."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.journey  # two servers, a worker, Redis and the viewers: about twenty seconds
def test_viewers_of_the_hall_and_boards_end_with_everything_through_both_restarts(tmp_path):
    if shutil.which("redis-server") is None:
        if os.getenv("CI") == "true":
            pytest.fail("CI=true but redis-server is not installed")
        pytest.skip("needs redis-server")
    results_file = tmp_path / "results.json"
    environ = {**os.environ, "DJANGO_SETTINGS_MODULE": "carambole.settings"}
    command = [sys.executable, "-m", "bench", "--quick", "--no-progress", "--only", "soak"]
    command += ["--soak-minutes", "0.05", "--json", str(results_file)]

    done = subprocess.run(
        command, cwd=ROOT, env=environ, capture_output=True, text=True, timeout=600
    )

    assert done.returncode == 0, done.stderr[-3000:]
    soak = json.loads(results_file.read_text())["soak"]
    assert [restart["what"] for restart in soak["restarts"]] == ["redis", "server"]
    assert soak["recorded"]["events"] > 0
    assert soak["recorded"]["refused"] == soak["recorded"]["unanswered"] == 0
    assert soak["stored"] == {"lost": 0, "doubled": 0, "out_of_order": 0}
    viewers = soak["viewers"]
    # Two tables and a match elsewhere, each board and the hall watched on both servers.
    assert (viewers["boards"], viewers["matches"], viewers["halls"]) == (6, 3, 2)
    assert viewers["reconnects"] > 0  # the restarted server's viewers came back
    assert viewers["lost"] == viewers["doubled"] == viewers["skipped"] == 0
    assert viewers["halls_unlike_cold_read"] == viewers["backwards"] == 0
    assert soak["caught_up_s"] is not None
    assert "(s) the soak: the hall of 2 tables and 3 boards over Redis" in done.stdout
