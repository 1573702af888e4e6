"""The Glicko-2 rating against Glickman's own worked example, and its period's rules."""

from datetime import date

import pytest

from matches.domain.rating import Outcome, Rating, as_of, idle, rate, rate_period, ratings_by_day


def test_the_worked_example_of_glickmans_paper_gives_its_numbers():
    # "Example of the Glicko-2 system": a player of 1500 (RD 200, σ 0.06), τ 0.5, beats a
    # 1400 (RD 30), loses to a 1550 (RD 100) and to a 1700 (RD 300) in one period.
    player = Rating(1500, 200, 0.06)
    games = [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)]

    after = rate(player, games, tau=0.5)

    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)
    assert after.matches == 3


def test_a_player_who_plays_nobody_keeps_the_rating_and_grows_less_certain():
    player = Rating(1620, 80, 0.06, matches=12)

    after = rate(player, [])

    assert (after.rating, after.volatility, after.matches) == (1620, 0.06, 12)
    assert after.deviation == pytest.approx((80**2 + (0.06 * 173.7178) ** 2) ** 0.5)
    assert idle(player, 1) == after


def test_idle_days_widen_the_deviation_as_many_periods_would_but_never_past_350():
    player = Rating(1620, 80, 0.06)

    one_by_one = player
    for _ in range(30):
        one_by_one = rate(one_by_one, [])

    assert idle(player, 30).deviation == pytest.approx(one_by_one.deviation)
    assert idle(player, 100_000).deviation == 350


def test_a_period_rates_each_game_against_the_opponent_as_rated_before_it():
    before = {"rossi": Rating(1500, 200), "kovalenko": Rating(1500, 200)}

    after = rate_period(before, [Outcome("rossi", "kovalenko", a_won=True)])

    assert after["rossi"].rating > 1500 > after["kovalenko"].rating
    assert after["rossi"].rating - 1500 == pytest.approx(1500 - after["kovalenko"].rating)
    assert after["rossi"].matches == after["kovalenko"].matches == 1


def test_a_newcomer_in_a_period_starts_at_1500_with_a_deviation_of_350():
    after = rate_period({}, [Outcome("new", "other", a_won=False)])

    assert after["new"].rating < 1500 < after["other"].rating
    assert after["new"].deviation < 350


def test_days_are_periods_and_the_days_between_widen_the_deviation_before_the_next_game():
    may_1, may_10 = date(2026, 5, 1).toordinal(), date(2026, 5, 10).toordinal()
    days = [
        (may_1, [Outcome("rossi", "kovalenko", a_won=True)]),
        (may_10, [Outcome("rossi", "fernandez", a_won=False)]),
    ]

    (_, first), (_, second) = list(ratings_by_day(days))

    assert set(second) == {"rossi", "fernandez"}
    assert second["rossi"].rating.matches == 2
    # Rossi met Fernández as eight idle days left him (not as rated on 1 May).
    rossi_before = idle(first["rossi"].rating, 8)
    assert second["rossi"].rating == rate(rossi_before, [(Rating(), 0.0)])
    assert as_of(first["kovalenko"], may_10) == idle(first["kovalenko"].rating, 9)
