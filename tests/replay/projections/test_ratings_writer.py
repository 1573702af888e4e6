"""The ratings' read model: kept by the projector, and a rebuild's very rows whatever
the order of results, amendments and late matches."""

from __future__ import annotations

import itertools

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matches import services
from matches.models import Event, Match
from replay.models import PlayerRating, RatedMatch
from replay.projections import projector
from tests.support.builders import BY, new_match, open_game, play
from tests.support.corrections import FLIPPED, amend, drawn_with_a_flip_to_come
from tests.support.league import dated_league, flip, names, win
from tests.support.projected import projected

NUMBERS = itertools.count(1)


def rows() -> list[tuple]:
    return sorted(
        PlayerRating.objects.values_list(
            "player__name", "day", "rating", "deviation", "volatility", "matches"
        )
    )


def test_a_finished_match_rates_both_players_on_its_day(db):
    first, *_ = dated_league()
    win(first, "A")
    projected()

    rated = {name: (day, rating) for name, day, rating, *_ in rows()}
    a, b = names(first)
    assert rated[a][0] == rated[b][0] == Match.objects.get(pk=first).date
    assert rated[a][1] > 1500 > rated[b][1]


def test_an_amendment_that_flips_a_result_turns_the_ratings_round(db):
    first, *_ = dated_league()
    seq = win(first, "B")
    projected()
    before = {name: rating for name, _, rating, *_ in rows()}

    flip(first, seq)
    projected()

    after = {name: rating for name, _, rating, *_ in rows()}
    assert after == pytest.approx({name: 3000 - rating for name, rating in before.items()})


def test_a_walkover_is_not_rated_but_a_match_played_to_its_end_is(db):
    first, second, *_ = dated_league()
    services.match_forfeit(match_id=first, expected_seq=0, by=BY, player="A", reason="absent")
    win(second, "A")
    projected()

    assert list(RatedMatch.objects.values_list("match_id", flat=True)) == [second]


def test_a_late_result_of_an_earlier_day_works_every_later_day_out_again(db):
    first, *later = dated_league()
    for match_id in later:
        win(match_id, "A")
    projected()
    win(first, "B")  # played on the first day, entered last
    projected()
    incremental = rows()

    projector.rebuild()

    assert rows() == incremental
    assert len({day for _, day, *_ in incremental}) == 3


@settings(
    max_examples=max(3, settings.default.max_examples // 25),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    plays=st.lists(
        st.tuples(st.integers(0, 5), st.sampled_from("AB"), st.booleans(), st.booleans()),
        min_size=1,
        max_size=8,
    )
)
def test_any_order_of_results_and_amendments_rates_exactly_as_a_rebuild(db, plays):
    matches = dated_league(f"rated-{next(NUMBERS)}")
    played: dict[int, int] = {}
    for index, winner, flipped, caught in plays:
        if index not in played:
            played[index] = win(matches[index], winner)
            if flipped and winner == "B":
                played[index] = flip(matches[index], played[index])
        if caught:
            projected()
    projected()
    incremental = rows()
    counted = set(RatedMatch.objects.values_list("match_id", flat=True))

    projector.rebuild()

    assert rows() == incremental
    assert set(RatedMatch.objects.values_list("match_id", flat=True)) == counted
    assert {matches[index] for index in played} <= counted


def test_an_undated_match_counts_on_the_day_of_its_last_event(db):
    undated = new_match(target=4, best_of=1)
    win(undated.pk, "A")
    projected()

    last = Event.objects.filter(match=undated).order_by("-seq").first()
    assert undated.date is None
    assert RatedMatch.objects.get(pk=undated.pk).day == timezone.localdate(last.recorded_at)


def test_a_match_a_decision_voids_is_no_longer_rated(db):
    drawn_with_a_flip_to_come()
    win("euro-ko-1-1", "A")
    projected()
    assert RatedMatch.objects.filter(pk="euro-ko-1-1").exists()
    amend(FLIPPED, staff=True)  # group B's second place changes: the played match disputed

    services.dispute_decide(
        competition_id="euro", slot="groups:B2", keep=False, reason="replay it", by="chief"
    )
    projected()

    assert not RatedMatch.objects.filter(pk="euro-ko-1-1").exists()
    incremental = rows()
    projector.rebuild()
    assert rows() == incremental


def test_shots_of_a_match_in_play_cost_the_ratings_no_read(db):
    first, *_ = dated_league()
    projected()
    seq = open_game(first)
    play(first, seq)

    with CaptureQueriesContext(connection) as queries:
        projector.catch_up()

    rated = RatedMatch._meta.db_table
    assert not [query["sql"] for query in queries if rated in query["sql"]]
    assert projector.position() == Event.objects.order_by("-id").first().id
