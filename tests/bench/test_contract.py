"""The speed contract's checks: what each scenario's result makes of its targets."""

from __future__ import annotations

from bench.contract import soak_targets


def soak_result(passed, faults=0, caught_up_s=1.0):
    return {
        "passed": passed,
        "faults": faults,
        "caught_up_s": caught_up_s,
        "stall": {"longest_s": 2.5, "limit_s": 5.0},
        "late": {"longest_s": 0.04, "limit_s": 2.0},
    }


def test_the_soak_is_one_target_settled_by_its_one_run():
    [held] = soak_targets(soak_result(passed=True))
    [failed] = soak_targets(soak_result(passed=False, faults=3))

    assert (held.held, failed.held) == (True, False)
    assert held.checks[0].shown == "2.5 (a shot 0.04 s late)"
    assert failed.checks[0].shown == "2.5 (a shot 0.04 s late) FAULTS"


def test_a_soak_whose_viewers_never_caught_up_shows_faults_though_none_was_counted():
    [target] = soak_targets(soak_result(passed=False, caught_up_s=None))

    assert target.held is False
    assert target.checks[0].shown.endswith("FAULTS")
