"""The venue in a championship, at its smallest: nothing lost, the knockout made on the way."""

from __future__ import annotations

import pytest

from tests.support.bench_runs import bench_run


@pytest.mark.slow
@pytest.mark.journey  # a bench scenario of its own, about half a minute
def test_tablets_record_a_championship_with_nothing_lost_and_the_knockout_made(tmp_path):
    done, venue = bench_run(tmp_path, "championship_venue", timeout=600)

    assert venue["options"]["tablets"] == 4
    assert venue["load"]["answers"] > 0 and venue["load"]["errors"] == 0
    assert venue["stored"] == {"lost": 0, "doubled": 0, "out_of_order": 0, "faults": 0}
    assert venue["unended"] == 0 and venue["caught_up"]
    # Two groups of eight: a knockout of four, its first round drawn once the groups ended,
    # its final made by the projector as the semi-finals ended.
    assert venue["knockout_first_round"] == 2
    assert venue["knockout_made_by_projector"] == 1
    assert "(k) the venue in a championship: 4 tablets" in done.stdout
