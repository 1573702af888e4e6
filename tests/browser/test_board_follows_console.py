"""A viewer's board and a referee's console in two browsers: the board follows every shot.

The match: A (white) broke from (700, 400); yellow on the top spot, red on the red spot.
"""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By

from matches import services
from matches.models import Match
from matches.selectors import events_after
from tests.support.browser import log_in, make_user, wait_until
from tests.support.builders import new_match, open_game
from tests.support.pages import (
    ball_at,
    board_seq,
    connection,
    console_ready,
    pending,
    record_shot,
    score,
    seqs_seen,
    watch_seq,
)

# Journeys: a console and a board on one server, which stops and starts again.
pytestmark = pytest.mark.journey

REFEREE = "petrenko"
OUTAGE_WAIT_S = 40.0  # the console retries after 1, 2, 4, 8 s...: back within this


@pytest.fixture
def assigned_referee(served):
    return make_user(REFEREE, "referee-password")


@pytest.fixture
def opened_for_console(assigned_referee) -> Match:
    """A match with game 1 broken, assigned to the referee's login."""
    created = new_match("cup-browser-1")
    open_game(created.id)
    services.referee_assign(match_id=created.id, username=REFEREE, by="federation")
    return created


@pytest.fixture
def board(served, opened_for_console, browsers):
    """The live board of the match, open in a viewer's browser (no login)."""
    viewer = browsers()
    viewer.get(f"{served.url}/matches/{opened_for_console.id}/")
    wait_until(viewer, lambda d: connection(d) == "live", "the board live")
    return viewer


@pytest.fixture
def referee_console(served, opened_for_console, assigned_referee, browsers):
    """The console of the match, open in the assigned referee's browser."""
    desk = browsers()
    log_in(desk, served, assigned_referee)
    desk.get(f"{served.url}/referee/matches/{opened_for_console.id}/")
    console_ready(desk, 3)
    return desk


def shots_stored(match: Match) -> list[dict]:
    return [event for event in events_after(match) if event["type"] == "shot"]


def test_a_shot_confirmed_on_the_console_moves_the_score_and_the_ball_on_the_board(
    board, referee_console
):
    assert (score(board, "A"), score(board, "B")) == ("0", "0")
    assert ball_at(board, "white") == pytest.approx((700, 400))

    # White on yellow, yellow on red: a ricochet, 3 to A; white stops by the right cushion.
    record_shot(referee_console, ["yellow", "red"], rest={"white": (1200, 900)})

    wait_until(board, lambda d: score(d, "A") == "3", "A's score of 3 on the board")
    white = ball_at(board, "white")
    assert white is not None and white == pytest.approx((1200, 900), abs=15)
    assert board_seq(board) == 4
    assert board.execute_script("return performance.getEntriesByType('navigation').length") == 1
    assert "3" in board.find_element(By.ID, "last-ruling").text


def test_two_shots_recorded_while_the_server_is_down_reach_the_board_once_in_order(
    served, opened_for_console, board, referee_console
):
    watch_seq(board)
    served.stop()
    wait_until(board, lambda d: connection(d) == "reconnecting", "the board reconnecting")

    record_shot(referee_console, ["yellow", "red"])  # A: ricochet, 3
    wait_until(referee_console, lambda d: pending(d) == 1, "the first shot waiting")
    record_shot(referee_console, ["white", "pin:left"])  # B: yellow on white, white knocks a pin
    wait_until(referee_console, lambda d: pending(d) == 2, "both shots waiting")
    assert shots_stored(opened_for_console) == []

    served.start()

    wait_until(referee_console, lambda d: pending(d) == 0, "the queue sent", timeout=OUTAGE_WAIT_S)
    wait_until(board, lambda d: board_seq(d) == 5, "the board at seq 5", timeout=OUTAGE_WAIT_S)
    wait_until(board, lambda d: connection(d) == "live", "the board live again")
    stored = shots_stored(opened_for_console)
    assert [(shot["seq"], shot["player"]) for shot in stored] == [(4, "A"), (5, "B")]
    assert sorted(set(seqs_seen(board))) == seqs_seen(board)  # never back, never twice
    assert (score(board, "A"), score(board, "B")) == ("3", "2")
    listed = board.find_elements(By.CSS_SELECTOR, "#shots li[data-seq]")
    assert sorted(item.get_attribute("data-seq") for item in listed) == ["4", "5"]
