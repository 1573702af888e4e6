"""The recording bench's figures: each target against the floor and raw insert of its run."""

from bench.recording import figures


def ms(*values):
    return [value / 1000 for value in values]


def test_recording_meets_its_targets_within_the_floor_plus_so_many_raw_inserts():
    timed = {
        "api": ms(1.0, 1.2, 1.1),
        "long": ms(1.2, 1.3, 1.4),
        "raw": ms(0.1, 0.1, 0.1),
        "floor": ms(0.7, 0.7, 0.8),
    }

    shown = figures(timed, ms(20.0), shots=3, long_events=2000)

    assert shown["p50_target_ms"] == 1.1  # floor 0.7 + 4 x 0.1
    assert shown["p50_meets_target"]
    assert shown["p99_target_ms"] == 1.8  # floor 0.8 + 10 x 0.1
    assert shown["p99_meets_target"]
    assert shown["long_vs_short_p50"] == 1.18
    assert shown["long_meets_target"]
    assert shown["cold_long_p50_ms"] == 20.0


def test_recording_over_a_target_says_so():
    timed = {
        "api": ms(2.0, 2.0, 2.0),
        "long": ms(3.0, 3.0, 3.0),
        "raw": ms(0.1, 0.1, 0.1),
        "floor": ms(0.5, 0.5, 0.5),
    }

    shown = figures(timed, ms(5.0), shots=3)

    assert not shown["p50_meets_target"]
    assert not shown["p99_meets_target"]
    assert not shown["long_meets_target"]  # 1.5x the short match's
