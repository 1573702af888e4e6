"""The soak at its smallest: a few seconds through a Redis restart and a server's, nothing lost."""

from __future__ import annotations

import pytest

from tests.support.bench_runs import bench_run
from tests.support.servers import redis_server_binary


@pytest.mark.journey  # two servers, a worker, Redis and the viewers: about twenty seconds
def test_viewers_of_the_hall_and_boards_end_with_everything_through_both_restarts(tmp_path):
    redis_server_binary()

    done, soak = bench_run(tmp_path, "soak", "--soak-minutes", "0.05", timeout=600)

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
