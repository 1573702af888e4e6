"""The live board in a real browser: it follows the match without a reload, survives a dropped
socket and speaks Ukrainian.

The match: A (white) broke from (700, 400); yellow on the top spot, red on the red spot.
"""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from matches import services
from matches.models import Match
from replay.api.tokens import token_issue
from tests.support.browser import wait_until
from tests.support.builders import BY, QUIET, new_match, open_game, play
from tests.support.decided_early import (
    AMENDED,
    REASON,
    VOID_IN_GAME,
    decide_early,
    played_2_1,
)
from tests.support.pages import score
from tests.support.servers import post_event

OUTAGE_WAIT_S = 30.0  # the board retries after 1, 2, 4, 8 s...: back within this
# White on yellow, then on red: a kiss carom, 4 to A; white stops by the right cushion.
CAROM_A = {
    "contacts": [{"ball": "white", "hit": "yellow"}, {"ball": "white", "hit": "red"}],
    "rest": {"white": [1200.0, 900.0]},
}
# Yellow on white, then on red: a kiss carom, 4 to B.
CAROM_B = {"contacts": [{"ball": "yellow", "hit": "white"}, {"ball": "yellow", "hit": "red"}]}
# White on yellow, on red; the red knocks two white pins: a kiss carom and 4, 8 to A.
WORDY_A = {
    "contacts": [
        {"ball": "white", "hit": "yellow"},
        {"ball": "white", "hit": "red"},
        {"ball": "red", "hit": "pins", "pins": ["left", "top"]},
    ]
}
# Yellow on white, then on the red pin alone: pins with the cue ball, 8 to A.
CUE_PINS_B = {
    "contacts": [
        {"ball": "yellow", "hit": "white"},
        {"ball": "yellow", "hit": "pins", "pins": ["center"]},
    ]
}
# White on the cushion alone, and a foot off the floor: 4 to B, with ball in hand.
MISS_CALLED_A = {"contacts": [{"ball": "white", "hit": "cushion"}], "called": ["feet"]}
SEQ = "return document.body && document.body.dataset.seq"  # no body while a page loads
NAVIGATIONS = "return performance.getEntriesByType('navigation').length"


@pytest.fixture
def token(served) -> str:
    """An API token of the login the match is assigned to."""
    return token_issue(BY).key


@pytest.fixture
def opened_for_token(token) -> Match:
    """A match with game 1 broken, assigned to the token's login."""
    created = new_match("cup-board-1")
    open_game(created.id)
    services.referee_assign(match_id=created.id, username=BY, by="federation")
    return created


def open_board(browser: WebDriver, url: str) -> WebDriver:
    browser.get(url)
    wait_until(browser, lambda d: connection(d) == "live", "the board live")
    return browser


def connection(board: WebDriver) -> str:
    return board.find_element(By.ID, "connection").get_attribute("data-connection") or ""


def white_cx(board: WebDriver) -> float | None:
    """Return the white ball's x on the drawing (mm), None when it is not drawn."""
    found = board.find_elements(By.CSS_SELECTOR, 'circle.ball[data-ball="white"]')
    return float(found[0].get_attribute("cx")) if found else None


def record_through_the_api(url: str, token: str, expected_seq: int, facts: dict) -> int:
    body = {"expected_seq": expected_seq, "event": {"type": "shot", **facts}}
    posted = post_event(f"{url}/events", token, body, timeout=10)
    assert posted.status == 201
    return posted.body["seq"]


def test_a_shot_recorded_through_the_api_moves_the_score_and_the_ball_without_a_reload(
    served, opened_for_token, token, chromium
):
    board = open_board(chromium, f"{served.url}/matches/{opened_for_token.id}/")
    assert (score(board, "A"), white_cx(board)) == ("0", 700.0)

    record_through_the_api(f"{served.url}/api/matches/{opened_for_token.id}", token, 3, CAROM_A)

    wait_until(board, lambda d: score(d, "A") == "4", "A's score of 4 on the board")
    wait_until(board, lambda d: white_cx(d) == 1200.0, "the white ball where it stopped")
    assert board.execute_script("return document.body.dataset.seq") == "4"
    assert "Kiss carom: 4 to Olena Kovalenko" in board.find_element(By.ID, "last-ruling").text
    assert board.find_element(By.CSS_SELECTOR, "#shots li").get_attribute("data-seq") == "4"
    assert board.execute_script(NAVIGATIONS) == 1


def test_the_overlay_follows_a_shot_recorded_through_the_api(
    served, opened_for_token, token, chromium
):
    overlay = chromium
    overlay.get(f"{served.url}/matches/{opened_for_token.id}/overlay/?style=light")
    wait_until(overlay, lambda d: connection(d) == "live", "the overlay live")

    record_through_the_api(f"{served.url}/api/matches/{opened_for_token.id}", token, 3, CAROM_A)

    wait_until(overlay, lambda d: score(d, "A") == "4", "A's score of 4 on the overlay")
    last = overlay.find_element(By.ID, "last-points").text
    assert last == "Last shot: 4 to Olena Kovalenko"


@pytest.mark.journey  # a dropped network and its return
def test_the_board_shows_reconnecting_after_a_drop_and_then_catches_up(
    served, opened_for_token, chromium
):
    board = open_board(chromium, f"{served.url}/matches/{opened_for_token.id}/")

    served.stop()
    wait_until(board, lambda d: connection(d) == "reconnecting", "the board reconnecting")
    assert "Reconnecting" in board.find_element(By.ID, "connection").text
    seq = play(opened_for_token.id, 3, CAROM_A)  # recorded while the board is away
    play(opened_for_token.id, seq, CAROM_B)
    served.start()

    wait_until(board, lambda d: connection(d) == "live", "the board live again", OUTAGE_WAIT_S)
    wait_until(board, lambda d: score(d, "B") == "4", "the shots recorded while it was away")
    assert score(board, "A") == "4"
    assert board.execute_script("return document.body.dataset.seq") == "5"
    assert [
        item.get_attribute("data-seq") for item in board.find_elements(By.CSS_SELECTOR, "#shots li")
    ] == ["5", "4"]
    assert board.execute_script(NAVIGATIONS) == 1


def test_a_browser_set_to_ukrainian_gets_the_board_in_ukrainian(
    served, opened_for_token, chromium_uk
):
    board = open_board(chromium_uk, f"{served.url}/matches/{opened_for_token.id}/")

    assert board.find_element(By.TAG_NAME, "html").get_attribute("lang") == "uk"
    # Painted by the server, then by the script from the JavaScript catalogue.
    assert (
        board.find_element(By.ID, "moment").text
        == "Партія 1: початковий удар — Olena Kovalenko, з нижньої половини"
    )
    assert board.find_element(By.ID, "connection").text == "Наживо"
    assert "партії" in board.find_element(By.CSS_SELECTOR, ".scoreline").text


# The page as the server painted it, parsed beside the one the script now shows.
PAINTED_AND_SHOWN = """
const done = arguments[arguments.length - 1];
const texts = (root, selector) =>
  [...root.querySelectorAll(selector)].map((node) => node.textContent.trim());
fetch(location.href).then((answer) => answer.text()).then((html) => {
  const painted = new DOMParser().parseFromString(html, "text/html");
  const parts = ["#shots li", "#last-ruling", "#moment", ".table-legend li", "#games td"];
  done(parts.map((part) => [texts(painted, part), texts(document, part)]));
});
"""


@pytest.mark.parametrize("language", ["en", "uk"])
def test_the_script_words_the_match_as_the_server_painted_it(
    served, opened_for_token, browsers, language
):
    seq = play(opened_for_token.id, 3, WORDY_A)
    seq = play(opened_for_token.id, seq, CUE_PINS_B)
    seq = play(opened_for_token.id, seq, MISS_CALLED_A)
    seq = play(opened_for_token.id, seq, CAROM_B)
    seq = services.ruling_amend(
        match_id=opened_for_token.id, expected_seq=seq, by=BY, shot=4, facts=CAROM_A, reason="video"
    ).seq
    seq = play(opened_for_token.id, seq, QUIET)
    services.shot_retract(
        match_id=opened_for_token.id, expected_seq=seq, by=BY, shot=seq, reason="twice"
    )
    board = open_board(browsers(language), f"{served.url}/matches/{opened_for_token.id}/")

    for painted, shown in board.execute_async_script(PAINTED_AND_SHOWN):
        assert painted == shown
    assert len(board.find_elements(By.CSS_SELECTOR, "#shots li")) == 5  # seq 8 amends seq 4


# The board as a fresh load paints it now, beside what the live page shows.
FRESH_AND_LIVE = """
const done = arguments[arguments.length - 1];
const words = (node) => node.textContent.replace(/\\s+/g, " ").trim();
const read = (root) => ["#moment", "#rules", "[data-testid=score-A]", "[data-testid=score-B]",
  "[data-testid=games-A]", "[data-testid=games-B]"]
  .map((selector) => words(root.querySelector(selector)))
  .concat([[...root.querySelectorAll("#games td")].map(words).join(" | ")])
  .concat([root.querySelector("#moment").dataset.moment]);
fetch(location.href).then((answer) => answer.text()).then((html) => {
  done([read(new DOMParser().parseFromString(html, "text/html")), read(document)]);
});
"""


def test_the_board_live_shows_each_moment_as_a_fresh_load_would(served, browsers):
    new_match("cup-board-2", target=4)
    seq = open_game("cup-board-2")
    board = open_board(browsers(), f"{served.url}/matches/cup-board-2/")
    steps = [
        lambda seq: play("cup-board-2", seq, QUIET),
        lambda seq: play("cup-board-2", seq, CAROM_B),  # game 1 to B: between games
        lambda seq: (
            services.game_start(
                match_id="cup-board-2", expected_seq=seq, by=BY, game=2, breaker="B"
            ).seq
        ),
        lambda seq: play("cup-board-2", seq, CAROM_B),  # B breaks and wins game 2: the match
    ]
    moments = []
    for step in steps:
        seq = step(seq)
        wait_until(board, lambda d, seq=seq: d.execute_script(SEQ) == str(seq), f"seq {seq}")
        fresh, live = board.execute_async_script(FRESH_AND_LIVE)
        assert live == fresh
        moments.append(live[-1])
    assert moments == ["playing", "between", "break", "finished"]


def test_the_board_live_shows_an_intermission_and_a_forfeit(served, browsers):
    new_match("cup-board-3", target=4)
    seq = play("cup-board-3", open_game("cup-board-3"), CAROM_A)
    services.game_start(match_id="cup-board-3", expected_seq=seq, by=BY, game=2, breaker="B")
    seq = play("cup-board-3", seq + 1, CAROM_B)  # one game each
    board = open_board(browsers("uk"), f"{served.url}/matches/cup-board-3/")
    steps = [
        lambda seq: (
            services.intermission_record(
                match_id="cup-board-3", expected_seq=seq, by=BY, minutes=5
            ).seq
        ),
        lambda seq: (
            services.match_forfeit(
                match_id="cup-board-3", expected_seq=seq, by=BY, player="A", reason="refused"
            ).seq
        ),
    ]
    moments = []
    for step in steps:
        seq = step(seq)
        wait_until(board, lambda d, seq=seq: d.execute_script(SEQ) == str(seq), f"seq {seq}")
        fresh, live = board.execute_async_script(FRESH_AND_LIVE)
        assert live == fresh
        moments.append(live[-1])
    assert moments == ["intermission", "forfeit"]


def first_shot(board: WebDriver) -> list[str]:
    """Return the newest shot of the list: its words and its class (read at once: redrawn)."""
    return board.execute_script(
        "const item = document.querySelector('#shots li');"
        "return [item.textContent, item.className];"
    )


def test_the_board_live_shows_an_amendment_and_a_retraction_in_its_list(
    served, opened_for_token, chromium
):
    seq = play(opened_for_token.id, 3, QUIET)
    board = open_board(chromium, f"{served.url}/matches/{opened_for_token.id}/")

    services.ruling_amend(
        match_id=opened_for_token.id, expected_seq=seq, by=BY, shot=4, facts=CAROM_A, reason="video"
    )
    wait_until(board, lambda d: score(d, "A") == "4", "the amended shot's 4 points")
    wait_until(board, lambda d: "(amended)" in first_shot(d)[0], "the shot marked amended")
    last = board.find_element(By.ID, "last-ruling").text
    assert last == "Shot 1 amended: video — Kiss carom: 4 to Olena Kovalenko"

    seq = play(opened_for_token.id, seq + 1, CAROM_B)
    services.shot_retract(
        match_id=opened_for_token.id, expected_seq=seq, by=BY, shot=seq, reason="twice"
    )
    wait_until(board, lambda d: first_shot(d)[1] == "retracted", "the shot struck through")
    assert board.execute_script(SEQ) == "7"
    assert score(board, "B") == "0"
    # The correction, then the shot that is the last now (shot 1, amended), as a reload says.
    wait_until(
        board,
        lambda d: (
            d.find_element(By.ID, "last-ruling").text
            == "Shot 2 retracted: twice — Kiss carom: 4 to Olena Kovalenko"
        ),
        "the last shot that stands",
    )


def test_a_ball_that_moved_without_a_rest_stays_drawn_where_last_known(
    served, opened_for_token, token, chromium
):
    board = open_board(chromium, f"{served.url}/matches/{opened_for_token.id}/")

    record_through_the_api(f"{served.url}/api/matches/{opened_for_token.id}", token, 3, QUIET)

    wait_until(board, lambda d: d.execute_script(SEQ) == "4", "the shot on the board")
    white = board.find_element(By.CSS_SELECTOR, 'circle.ball[data-ball="white"]')
    assert (white.get_attribute("cx"), white.get_attribute("data-confirmed")) == ("700", "false")
    legend = board.find_element(By.CSS_SELECTOR, '.table-legend li[data-ball="white"]').text
    assert legend.endswith("last known position, not confirmed")


# What the board shows of a match, from a fresh load or from the live page.
PAINTED = """
const done = arguments[arguments.length - 1];
const words = (node) => node.textContent.replace(/\\s+/g, " ").trim();
const read = (root) => ["#moment", "#rules", "#games td", "#shots li"]
  .map((selector) => [...root.querySelectorAll(selector)].map(words).join(" | "));
fetch(location.href).then((answer) => answer.text()).then((html) => {
  done([read(new DOMParser().parseFromString(html, "text/html")), read(document)]);
});
"""


def correction(board: WebDriver) -> list[str]:
    """Return the board's line for a correction: its link's words and target, the whole line."""
    return board.execute_script(
        "const line = document.getElementById('last-ruling'); const link = line.querySelector('a');"
        "return link ? [link.textContent, link.getAttribute('href'), line.textContent] : [];"
    )


def test_amendments_that_decide_a_match_early_read_right_live(served, browsers):
    seq = played_2_1("cup-board-4")
    board = open_board(browsers(), f"{served.url}/matches/cup-board-4/")
    # Finished (2–1 as played): followed still, but not offered as live.
    wait_until(board, lambda d: d.find_element(By.ID, "connection").text == "Final result")
    overlay = browsers()
    overlay.get(f"{served.url}/matches/cup-board-4/overlay/")
    wait_until(overlay, lambda d: connection(d) == "live", "the overlay live")

    # A shot of an earlier game: named with its game, linked to its line on the replay.
    seq = services.ruling_amend(
        match_id="cup-board-4", expected_seq=seq, by=BY, shot=4, facts=QUIET, reason="same"
    ).seq
    wait_until(board, lambda d: d.execute_script(SEQ) == str(seq), "the first amendment")
    assert correction(board)[:2] == [
        "Shot 1 (game 1) amended: same",
        "/matches/cup-board-4/replay/?seq=4",
    ]

    seq = decide_early("cup-board-4", seq)

    wait_until(
        board,
        lambda d: d.find_element(By.ID, "moment").text == "Marco Marchetti wins the match 2–0",
        "the winner's games first",
    )
    wait_until(
        board,
        lambda d: d.find_elements(By.CSS_SELECTOR, f"#shots li[data-seq='{AMENDED}']"),
        "game 2's shots listed again",
    )
    link = board.find_element(By.CSS_SELECTOR, "#last-ruling a")
    assert link.text == f"Shot 3 amended: {REASON}"  # event 8 is the third shot
    assert link.get_attribute("href").endswith(f"#shot-{AMENDED}")  # a line of the list
    assert board.find_element(By.ID, "last-ruling").text.endswith(
        "Kiss carom: 4 to Marco Marchetti"
    )
    void = board.find_element(By.CSS_SELECTOR, f"#shots li[data-seq='{VOID_IN_GAME}']").text
    assert void == "shot 4 Olena Kovalenko Kiss carom (void: the game was already won)"
    painted, shown = board.execute_async_script(PAINTED)
    assert shown == painted
    assert shown[1].startswith("Game 2 ·")  # not the void game 3, 0 0
    assert shown[2].endswith("3 | — | — | void: the match was already decided")
    wait_until(overlay, lambda d: d.find_element(By.ID, "rules").text == "Game 2 · to 4", "game 2")
    assert overlay.find_element(By.ID, "moment").text == "Marco Marchetti wins the match 2–0"


# The last shot as a fresh load of the same page paints it now, beside what the page shows.
LAST_FRESH_AND_LIVE = """
const done = arguments[arguments.length - 1];
const selector = arguments[0];
const words = (node) => node.textContent.replace(/\\s+/g, " ").trim();
fetch(location.href).then((answer) => answer.text()).then((html) => {
  const fresh = new DOMParser().parseFromString(html, "text/html");
  done([words(fresh.querySelector(selector)), words(document.querySelector(selector))]);
});
"""


def test_after_a_retraction_the_board_the_overlay_and_a_reload_agree_on_the_last_shot(
    served, opened_for_token, browsers
):
    match_id = opened_for_token.id
    board = open_board(browsers(), f"{served.url}/matches/{match_id}/")
    overlay = open_board(browsers(), f"{served.url}/matches/{match_id}/overlay/")
    seq = play(match_id, 3, CAROM_A)  # 4 to A; A plays on
    seq = play(match_id, seq, WORDY_A)  # 8 to A, the shot to be retracted

    seq = services.shot_retract(
        match_id=match_id, expected_seq=seq, by=BY, shot=seq, reason="twice"
    ).seq

    for page in (board, overlay):
        wait_until(page, lambda d: d.execute_script(SEQ) == str(seq), "the retraction")
    wait_until(board, lambda d: first_shot(d)[1] == "retracted", "the shot struck through")
    wait_until(board, lambda d: "Olena" in d.find_element(By.ID, "last-ruling").text, "A's shot")
    fresh, live = board.execute_async_script(LAST_FRESH_AND_LIVE, "#last-ruling")
    assert fresh == "Kiss carom: 4 to Olena Kovalenko"
    assert live == f"Shot 2 retracted: twice — {fresh}"  # the correction, then the shot
    wait_until(overlay, lambda d: d.find_element(By.ID, "last-points").text, "the strip's shot")
    fresh, live = overlay.execute_async_script(LAST_FRESH_AND_LIVE, "#last-points")
    assert live == fresh == "Last shot: 4 to Olena Kovalenko"
