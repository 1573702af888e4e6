"""The bench's verdict: targets held in two of three runs, reported figures against the last run."""

from __future__ import annotations

import json

import pytest

from bench.verdict import (
    Check,
    LastRunUnreadable,
    Reported,
    Target,
    last_run_read,
    last_run_write,
    outcome,
    reported,
    settle,
    table,
    verdict,
)


def scenario_of(*helds_by_run: dict[str, bool]):
    """Return a scenario whose runs hold each target as given, and the list of runs made."""
    made = []

    def run():
        helds = helds_by_run[len(made)]
        made.append(helds)
        checks = {name: Check(figure=1.0, bound=2.0, held=held) for name, held in helds.items()}
        return {"run": len(made)}, checks

    return run, made


@pytest.mark.parametrize(
    ("helds", "expected"),
    [
        ([], None),
        ([True], None),
        ([False], None),
        ([True, False], None),
        ([True, True], True),
        ([False, False], False),
        ([True, False, True], True),
        ([False, True, False], False),
    ],
)
def test_a_target_holds_once_two_runs_held_it_and_fails_once_two_did_not(helds, expected):
    assert outcome(helds) is expected


def test_a_target_whose_scenario_runs_once_holds_or_fails_in_that_run():
    held = Target("soak", [Check(2.0, 5.0, True)], needed=1)
    missed = Target("soak", [Check(9.0, 5.0, False)], needed=1)

    assert (held.held, missed.held) == (True, False)
    assert verdict([held], skipped=[]) == "PASS"
    assert verdict([held, missed], skipped=[]) == "FAIL"


def test_a_scenario_stops_after_two_runs_that_agree():
    run, made = scenario_of({"p99": True}, {"p99": True}, {"p99": False})

    results, targets = settle(run)

    assert len(made) == 2
    assert results == [{"run": 1}, {"run": 2}]
    assert targets["p99"].held is True


def test_a_scenario_whose_first_two_runs_disagree_runs_a_third_that_decides():
    run, made = scenario_of({"p99": True}, {"p99": False}, {"p99": False})

    _, targets = settle(run)

    assert len(made) == 3
    assert [check.held for check in targets["p99"].checks] == [True, False, False]
    assert targets["p99"].held is False


def test_a_scenario_runs_again_while_any_of_its_targets_is_undecided():
    run, made = scenario_of(
        {"p99": True, "lag": True},
        {"p99": True, "lag": False},
        {"p99": True, "lag": True},
    )

    _, targets = settle(run)

    assert len(made) == 3
    assert (targets["p99"].held, targets["lag"].held) == (True, True)


def test_the_verdict_fails_on_a_target_not_held_and_is_incomplete_with_one_not_measured():
    held = Target("held", [Check(1, 2, True), Check(1, 2, True)])
    missed = Target("missed", [Check(3, 2, False), Check(3, 2, False)])

    assert verdict([held], skipped=[]) == "PASS"
    assert verdict([held, missed], skipped=[]) == "FAIL"
    assert verdict([held], skipped=["the venue on PostgreSQL"]) == "INCOMPLETE"
    assert verdict([missed], skipped=["the venue on PostgreSQL"]) == "FAIL"


def test_a_median_inside_the_last_runs_range_widened_by_a_tenth_is_not_flagged():
    last = {"median": 2.0, "min": 1.5, "max": 2.5}

    assert not Reported("x", (2.7, 2.7, 2.7, 2.7, 2.7), last).flagged  # under 2.5 x 1.1
    assert not Reported("x", (1.4, 1.4, 1.4, 1.4, 1.4), last).flagged  # over 1.5 x 0.9


def test_a_median_outside_the_last_runs_range_widened_by_a_tenth_is_flagged_either_way():
    last = {"median": 2.0, "min": 1.5, "max": 2.5}

    assert Reported("x", (1.0, 2.8, 2.8, 2.8, 9.0), last).flagged  # slower
    assert Reported("x", (1.3, 1.3, 1.3, 1.3, 1.3), last).flagged  # faster


def test_a_figure_measured_fewer_than_five_times_is_neither_flagged_nor_kept(tmp_path):
    few = Reported("x", (9.0, 9.0, 9.0, 9.0), {"median": 1.0, "min": 1.0, "max": 1.0})
    path = tmp_path / "last.json"

    last_run_write([few], before={}, when="now", path=path)

    assert not few.flagged
    assert last_run_read(path) == {}


def test_a_first_run_without_a_last_run_flags_nothing_and_keeps_its_figures(tmp_path):
    path = tmp_path / ".bench" / "last.json"

    figures = reported({"state on demand": [1.0, 2.0, 3.0, 4.0, 5.0]}, last_run_read(path))
    last_run_write(figures, before={}, when="now", path=path)

    assert [figure.flagged for figure in figures] == [False]
    assert "no last run" in table([], [], figures)
    assert last_run_read(path) == {
        "state on demand": {"median": 3.0, "min": 1.0, "max": 5.0, "samples": 5}
    }


def test_a_run_keeps_the_last_figures_of_what_it_did_not_measure(tmp_path):
    path = tmp_path / "last.json"
    hall = {"median": 20.0, "min": 18.0, "max": 22.0, "samples": 8}

    last_run_write(
        reported({"ratings": [1.0] * 5}, {}), before={"hall": hall}, when="now", path=path
    )

    assert set(last_run_read(path)) == {"hall", "ratings"}


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("{not json", "not JSON"),
        ("[]", "no 'figures' object"),
        ('{"figures": {"hall": {"median": 1, "min": "a", "max": 2}}}', "figures.hall.min"),
        ('{"figures": {"hall": {"median": 1, "min": 3, "max": 2}}}', "min is above max"),
    ],
)
def test_a_corrupt_last_run_gets_a_clear_message_naming_the_file_and_field(tmp_path, text, said):
    path = tmp_path / "last.json"
    path.write_text(text)

    with pytest.raises(LastRunUnreadable) as raised:
        last_run_read(path)

    assert str(raised.value).startswith(f"{path}: ")
    assert said in str(raised.value)


def test_the_table_gives_each_runs_figure_and_flags_a_moved_median():
    target = Target("venue answer p99 (ms)", [Check(40.0, 100, True), Check(120.0, 100, False)])
    moved = Reported("hall p50 (ms)", (50.0,) * 5, {"median": 20.0, "min": 18.0, "max": 22.0})

    shown = table([target], ["fan-out p99 / bare"], [moved])

    assert "venue answer p99 (ms)" in shown and "40, 120 (over): undecided" in shown
    assert "fan-out p99 / bare" in shown and "not measured" in shown
    assert "FLAGGED" in shown
    assert shown.endswith("verdict: INCOMPLETE")


def test_the_last_run_file_is_what_the_bench_writes(tmp_path):
    path = tmp_path / "last.json"
    last_run_write(reported({"x": [1.0] * 5}, {}), before={}, when="2026-01-01", path=path)

    assert json.loads(path.read_text())["when"] == "2026-01-01"
