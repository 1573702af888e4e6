"""The soak's verdict: what a viewer must end with, and the stall outside the restarts."""

from __future__ import annotations

import pytest

from bench.soak_figures import (
    caught_up,
    exceptions_logged,
    faults,
    lateness_figures,
    longest_quiet,
    passed,
    restart_spans,
    stall_figures,
    viewer_figures,
)

HALL = {
    "competition": "soak",
    "name": "Soak",
    "now": "2026-12-07T20:00:00Z",
    "quiet_seconds": 120,
    "tables": [{"table": "1", "version": "a1", "match": {"id": "m", "seq": 9}}],
    "waiting": [],
}


def board(last, **counts):
    return {
        "kind": "board",
        "server": 0,
        "match": "m",
        "last": last,
        "connections": 1,
        "closes": [],
        "receipts": {"m": []},
        "doubled": 0,
        "skipped": 0,
        "resumes": 0,
    } | counts


def hall(shown, **counts):
    return {
        "kind": "hall",
        "server": 1,
        "hall": shown,
        "version": None,
        "connections": 2,
        "closes": [1012],
        "receipts": {},
        "backwards": 0,
    } | counts


def test_a_viewer_that_heard_every_pace_has_no_stall_longer_than_a_pace():
    assert longest_quiet([1.0, 3.0, 5.0, 7.0], start=0.0, end=8.0, away=[]) == 2.0


def test_a_quiet_stretch_cut_by_a_restart_counts_as_its_pieces_outside_it():
    # Heard at 10 and 40; the restart's time runs from 12 to 35: 2 s before, 5 s after.
    assert longest_quiet([10.0, 40.0], start=9.0, end=41.0, away=[(12.0, 35.0)]) == 5.0


def test_a_viewer_that_hears_nothing_once_a_restarts_recovery_ends_stalls_from_its_end():
    assert longest_quiet([1.0, 2.0], start=0.0, end=60.0, away=[(3.0, 20.0)]) == 40.0


def test_the_stall_names_the_viewer_and_match_that_went_longest_without_news():
    reports = [
        board(9, receipts={"m": [(7, 1.0), (8, 2.0), (9, 3.0)]}),
        hall(HALL, receipts={"m": [(7, 1.0), (9, 3.0)], "n": [(2, 1.0), (3, 9.0)]}),
    ]

    stall = stall_figures(reports, 0.0, 10.0, away=[], limit_s=5.0)

    assert stall["longest_s"] == 8.0
    assert stall["where"] == "a hall on server 2, match n"


def test_a_stall_within_a_restarts_time_is_left_out():
    reports = [board(9, receipts={"m": [(6, 1.0), (7, 2.0), (8, 30.0), (9, 31.0)]})]
    restarts = [{"what": "redis", "at_s": 2.5, "took_s": 1.0}]

    away = restart_spans(restarts, recovery_s=25.0)
    stall = stall_figures(reports, 0.0, 32.0, away, limit_s=5.0)

    assert away == [(2.5, 28.5)]
    assert stall["longest_s"] == 1.5  # 28.5 to 30


def test_a_shot_is_late_by_the_time_from_its_answer_until_a_viewer_shows_it_or_a_later_one():
    answered = {"m": {7: 10.0, 8: 12.0, 9: 14.0}}
    # The hall never showed 8: it showed 9 at 14.5, so 8 waited from 12 until then.
    reports = [board(9, receipts={"m": [(7, 10.1), (8, 12.2), (9, 14.1)]})]
    reports.append(hall(HALL, receipts={"m": [(7, 10.2), (9, 14.5)]}))

    late = lateness_figures(reports, answered, began=0.0, away=[], limit_s=2.0)

    assert late["longest_s"] == 2.5
    assert late["where"] == "a hall on server 2, m 8"


def test_lateness_leaves_out_the_shots_before_the_run_and_those_waiting_across_a_restart():
    answered = {"m": {7: 1.0, 8: 12.0, 9: 14.0}}
    reports = [board(9, receipts={"m": [(7, 9.0), (8, 31.0), (9, 31.0)]})]

    late = lateness_figures(reports, answered, began=5.0, away=[(20.0, 30.0)], limit_s=2.0)

    assert late["longest_s"] == 0.0


def test_a_hall_equal_to_the_cold_read_but_for_its_clock_has_caught_up():
    cold = {1: {key: value for key, value in HALL.items() if key != "now"}}
    later = HALL | {"now": "2026-12-07T20:20:00Z"}

    assert caught_up([board(9, match="m"), hall(later)], {"m": 9}, cold)
    assert not caught_up([board(8)], {"m": 9}, cold)
    stale = HALL | {"tables": [{"table": "1", "version": "a0", "match": {"id": "m", "seq": 8}}]}
    assert not caught_up([hall(stale)], {"m": 9}, cold)
    assert not caught_up([hall(None)], {"m": 9}, cold)


def test_viewers_figures_count_what_each_board_lacks_and_each_hall_unlike_the_cold_read():
    cold = {1: {key: value for key, value in HALL.items() if key != "now"}}
    reports = [board(7, doubled=1), board(9), hall(HALL | {"name": "Other"}), hall(HALL)]

    figures = viewer_figures(reports, {"m": 9}, cold)

    assert (figures["lost"], figures["doubled"], figures["halls_unlike_cold_read"]) == (2, 1, 1)
    assert figures["reconnects"] == 2 and figures["closes"] == {"1012": 2}


def soak(stall_s=1.0, late_s=0.1, caught_up_s=2.0, **viewers):
    counts = {"lost": 0, "doubled": 0, "skipped": 0, "halls_unlike_cold_read": 0, "backwards": 0}
    figures = {
        "stored": {"lost": 0, "doubled": 0, "out_of_order": 0},
        "recorded": {"refused": 0, "unanswered": 0},
        "viewers": counts | viewers,
        "caught_up_s": caught_up_s,
        "stall": {"longest_s": stall_s, "limit_s": 5.0},
        "late": {"longest_s": late_s, "limit_s": 2.0},
    }
    return figures | {"faults": faults(figures)}


@pytest.mark.parametrize(
    ("figures", "held"),
    [
        (soak(), True),
        (soak(lost=1), False),
        (soak(backwards=1), False),
        (soak(halls_unlike_cold_read=1), False),
        (soak(stall_s=5.1), False),
        (soak(late_s=2.1), False),
        (soak(caught_up_s=None), False),
    ],
)
def test_the_soak_holds_only_with_no_fault_every_viewer_caught_up_and_nothing_late_or_stalled(
    figures, held
):
    assert passed(figures) is held


def test_a_servers_log_is_told_by_the_exception_ending_each_traceback():
    log = "\n".join(
        [
            "live: channel layer unreadable; the clock catches up",
            "Traceback (most recent call last):",
            '  File "hall.py", line 1, in send',
            "    await self.send(text_data=message)",
            "redis.exceptions.ConnectionError: Connection closed by server.",
            "Traceback (most recent call last):",
            '  File "hall.py", line 2, in send',
            "ClientDisconnected",
            "Traceback (most recent call last):",
            "redis.exceptions.ConnectionError: Connection closed by server.",
        ]
    )

    assert exceptions_logged(log) == {
        "redis.exceptions.ConnectionError": 2,
        "ClientDisconnected": 1,
    }
