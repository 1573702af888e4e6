"""A referee's matches: those assigned to their login, in the order their day takes them."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from matches import services
from matches.models import Competition
from replay.queries.referee_matches import has_assigned_matches, referee_day
from tests.support.builders import PLAYERS, cup
from tests.support.league import RULESET, win
from tests.support.logins import REFEREE

pytestmark = pytest.mark.usefixtures("db")
DAY = datetime.timedelta(days=1)


def assigned(match_id: str, date: datetime.date | None = None, username: str = REFEREE) -> str:
    if not Competition.objects.filter(pk="cup").exists():
        cup()
    services.match_create(
        id=match_id, competition="cup", players=PLAYERS, ruleset=RULESET, date=date
    )
    services.referee_assign(match_id=match_id, username=username, by="federation")
    return match_id


def ids(lines: list[dict]) -> list[str]:
    return [line["match"].id for line in lines]


@pytest.fixture
def petrenko(referee):
    return referee.user


def test_todays_matches_come_first_then_upcoming_by_date_then_undated_then_finished(petrenko):
    now = timezone.now()
    today = now.date()
    assigned("cup-later", today + 3 * DAY)
    assigned("cup-undated")
    assigned("cup-tomorrow", today + DAY)
    assigned("cup-today", today)
    win(assigned("cup-done"), "A")

    day = referee_day(petrenko, now)

    assert [key for key, lines in day.items() if lines] == [
        "today",
        "upcoming",
        "undated",
        "finished",
    ]
    assert ids(day["today"]) == ["cup-today"]
    assert ids(day["upcoming"]) == ["cup-tomorrow", "cup-later"]
    assert ids(day["undated"]) == ["cup-undated"]
    assert ids(day["finished"]) == ["cup-done"]


def test_a_match_finished_more_than_a_week_ago_is_left_off(petrenko):
    win(assigned("cup-done"), "A")

    assert ids(referee_day(petrenko, timezone.now() + 6 * DAY)["finished"]) == ["cup-done"]
    assert ids(referee_day(petrenko, timezone.now() + 8 * DAY)["finished"]) == []


def test_todays_match_stays_under_today_once_finished(petrenko):
    win(assigned("cup-today", timezone.now().date()), "A")

    day = referee_day(petrenko, timezone.now())

    assert ids(day["today"]) == ["cup-today"] and day["finished"] == []
    assert day["today"][0]["status"] == "finished"


def test_an_unfinished_match_of_an_earlier_day_is_still_to_come(petrenko):
    today = timezone.now().date()
    assigned("cup-tomorrow", today + DAY)
    assigned("cup-yesterday", today - DAY)

    assert ids(referee_day(petrenko, timezone.now())["upcoming"]) == [
        "cup-yesterday",
        "cup-tomorrow",
    ]


def test_a_match_given_to_another_login_leaves_the_first_ones_list(petrenko, stranger):
    assigned("cup-a-1")
    services.referee_assign(match_id="cup-a-1", username=stranger.username, by="federation")

    assert ids(referee_day(petrenko, timezone.now())["undated"]) == []
    assert ids(referee_day(stranger.user, timezone.now())["undated"]) == ["cup-a-1"]
    assert not has_assigned_matches(petrenko)
    assert has_assigned_matches(stranger.user)


def test_a_match_taken_from_every_login_is_on_no_list(petrenko):
    assigned("cup-a-1")
    services.referee_assign(match_id="cup-a-1", username=None, by="federation")

    assert not has_assigned_matches(petrenko)


def test_a_line_names_the_players_the_table_and_says_scheduled_before_any_event(petrenko):
    assigned("cup-a-1")
    services.tables_set(competition_id="cup", names=["3"], by="federation")
    services.match_assign_table(match_id="cup-a-1", table="3", by="federation")

    (line,) = referee_day(petrenko, timezone.now())["undated"]

    assert line["names"] == {"A": "Olena Kovalenko", "B": "Marco Marchetti"}
    assert line["table"] == "3"
    assert line["status"] == "scheduled"
