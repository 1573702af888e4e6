"""The referee's console in a real browser: taps, the preview, and a network that drops."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.select import Select

from matches import services
from matches.models import Event
from matches.records import record_import
from tests.support.browser import go_offline, go_online, log_in, make_user, wait_until
from tests.support.builders import CAROM_A, LOWER_HALF, PLAYERS, QUIET, new_match
from tests.support.console_taps import confirm, tap
from tests.support.decided_early import decided_early
from tests.support.pages import open_console

MATCH = "cup-console-1"
QUEUE_WAIT_S = 40.0  # the server back, the queue's backoff waits at most 15 s between tries


# What the shot panel shows in the same turn as a tap: nothing can have answered it yet.
LOOK = """
return {confirm: !document.getElementById("confirm-shot").disabled,
        preview: document.getElementById("preview").dataset.state};
"""
# Taps the table drawing at a point of the playing surface, in millimetres; returns LOOK.
TAP_TABLE = (
    """
const [x, y] = [arguments[0], arguments[1]];
const svg = document.getElementById("table");
const point = svg.createSVGPoint();
point.x = x;
point.y = y;
const screen = point.matrixTransform(svg.querySelector("g.surface").getScreenCTM());
svg.dispatchEvent(new MouseEvent("click", { clientX: screen.x, clientY: screen.y, bubbles: true }));
"""
    + LOOK
)
# Taps a button of the page; returns LOOK.
TAP_AND_LOOK = "document.querySelector(arguments[0]).click();" + LOOK
STALE = {"confirm": False, "preview": "loading"}  # a tap's look: no ruling, no Confirm


@pytest.fixture
def console_page(served, chromium) -> WebDriver:
    """The console of a match whose game 1 A is about to break, open for its referee."""
    return open_console(served, chromium, MATCH)


def attribute(driver: WebDriver, name: str) -> str | None:
    return driver.find_element(By.ID, "console").get_attribute(name)


def stored(match_id: str = MATCH) -> list[dict[str, Any]]:
    events = Event.objects.filter(match_id=match_id).order_by("seq")
    return [event.as_record() for event in events]


def shots(match_id: str = MATCH) -> list[tuple[str, list[dict[str, Any]]]]:
    return [(e["player"], e["contacts"]) for e in stored(match_id) if e["type"] == "shot"]


WHITE_ON_YELLOW = [{"ball": "white", "hit": "yellow"}]
YELLOW_ON_WHITE = [{"ball": "yellow", "hit": "white"}]


def test_a_scoring_shot_is_four_taps_its_ruling_shown_before_the_confirm_stores_it(console_page):
    preview = console_page.find_element(By.ID, "preview")
    for selector in (
        '[data-hit="yellow"]',  # the opponent's ball
        '[data-hit="red"]',  # which the yellow sends onto the red: a ricochet
        'button[data-pin="left"]',  # the red knocks two pins
        'button[data-pin="center"]',
    ):
        # Each tap takes the ruling of the taps before it away, and Confirm with it.
        assert console_page.execute_script(TAP_AND_LOOK, selector) == STALE
        if selector == '[data-hit="red"]':  # a ruling shown: the next tap takes it away
            wait_until(console_page, lambda d: preview.get_attribute("data-state") == "ok")

    # The only ruling the page shows now is that of the four taps.
    wait_until(console_page, lambda d: preview.get_attribute("data-state") == "ok", "the preview")
    assert preview.text == "Ricochet and the red pin and 1 white pin: 9 to Olena Kovalenko"
    assert preview.get_attribute("data-verdict") == "points"
    assert len(stored()) == 3  # nothing recorded by the preview
    # Optional: where the cue ball stopped; a fact too, judged before Confirm again.
    assert console_page.execute_script(TAP_TABLE, 300, 500) == STALE

    confirm(console_page)

    wait_until(console_page, lambda d: attribute(d, "data-seq") == "4", "the shot recorded")
    assert shots() == [
        (
            "A",
            [
                {"ball": "white", "hit": "yellow"},
                {"ball": "yellow", "hit": "red"},
                {"ball": "red", "hit": "pins", "pins": ["left", "center"]},
            ],
        )
    ]
    (x, y) = stored()[-1]["rest"]["white"]
    assert abs(x - 300) < 15 and abs(y - 500) < 15
    scores = console_page.find_elements(By.CSS_SELECTOR, ".scoreline .score")
    assert [s.text for s in scores] == ["9", "0"]


# Where the console's table draws a ball (mm), or None.
DRAWN_AT = """
const ball = document.querySelector(`#table circle.ball[data-ball="${arguments[0]}"]`);
return ball && ball.getAttribute("cx") ? [Number(ball.getAttribute("cx")),
  Number(ball.getAttribute("cy"))] : null;
"""


def near(point: list[float] | None, x: float, y: float) -> bool:
    """Return whether a tapped point is where it was aimed, to the screen's resolution."""
    return point is not None and abs(point[0] - x) < 15 and abs(point[1] - y) < 15


def armed(driver: WebDriver) -> list[str]:
    """Return the balls whose "Came to rest" button is pressed."""
    chips = driver.find_elements(By.CSS_SELECTOR, '[data-rest][aria-pressed="true"]')
    return [chip.get_attribute("data-rest") for chip in chips]


def test_a_tap_on_the_ball_the_console_armed_keeps_it_armed_and_every_rest_is_kept(console_page):
    hint = console_page.find_element(By.ID, "table-hint")
    tap(console_page, '[data-hit="yellow"]')
    assert armed(console_page) == ["white"]  # the cue ball first, with no tap
    console_page.execute_script(TAP_TABLE, 300, 500)
    # The console arms the next ball; the referee taps its button all the same.
    assert armed(console_page) == ["yellow"]
    tap(console_page, '[data-rest="yellow"]')

    assert armed(console_page) == ["yellow"]
    assert hint.text == "Tap the table where the yellow ball stopped."
    console_page.execute_script(TAP_TABLE, 1000, 1800)
    assert armed(console_page) == ["red"]
    # The red did not move: where the referee says it lies is kept all the same.
    console_page.execute_script(TAP_TABLE, 900, 2300)
    assert armed(console_page) == []
    console_page.execute_script(TAP_TABLE, 200, 2500)  # no ball armed: said, not dropped
    assert console_page.find_element(By.ID, "form-error").text == (
        "Pick a ball under “Came to rest”, then tap the table where it stopped."
    )
    confirm(console_page)

    wait_until(console_page, lambda d: attribute(d, "data-seq") == "4", "the shot recorded")
    rest = stored()[-1]["rest"]
    assert near(rest["white"], 300, 500) and near(rest["yellow"], 1000, 1800)
    assert near(rest["red"], 900, 2300)
    wait_until(
        console_page,
        lambda d: near(d.execute_script(DRAWN_AT, "red"), 900, 2300),
        "the red drawn where it lies",
    )


# The "at the same time" toggle as the referee sees it, and the taps' line.
SAME_TIME = """
const toggle = document.getElementById("same-time");
return {pressed: toggle.getAttribute("aria-pressed"),
        look: getComputedStyle(toggle).backgroundColor + getComputedStyle(toggle).boxShadow,
        taps: document.getElementById("contacts").innerText.replace(/\\s+/g, " ").trim()};
"""


def taps(driver: WebDriver) -> str:
    """Return the taps' line as the referee reads it."""
    return driver.execute_script(SAME_TIME)["taps"]


def test_at_the_same_time_shows_it_is_on_and_undo_takes_it_back_tap_by_tap(console_page):
    tap(console_page, '[data-hit="yellow"]')
    off = console_page.execute_script(SAME_TIME)
    assert off["pressed"] == "false"

    tap(console_page, "#same-time")

    on = console_page.execute_script(SAME_TIME)
    assert on["pressed"] == "true" and on["look"] != off["look"]
    assert on["taps"] == "white → yellow the next contact at the same time as the last"
    tap(console_page, "#undo-tap")
    assert console_page.execute_script(SAME_TIME) == off

    tap(console_page, "#same-time")
    tap(console_page, '[data-hit="red"]')  # the yellow and the white hit the red together
    assert console_page.execute_script(SAME_TIME) == {
        **off,
        "taps": "white → yellow yellow → red (=)",
    }
    tap(console_page, "#undo-tap")
    assert console_page.execute_script(SAME_TIME) == on
    tap(console_page, "#undo-tap")
    assert console_page.execute_script(SAME_TIME) == off


def record(*events: dict[str, Any]) -> None:
    """Record events after those of the match, as another console would."""
    for event in events:
        seq = len(stored())
        services.event_record(match_id=MATCH, expected_seq=seq, event=event, by="petrenko")


def hinted_at(driver: WebDriver, seq: int) -> bool:
    """Return whether the hint on unknown positions shows once the console is at `seq`."""
    wait_until(driver, lambda d: attribute(d, "data-seq") == str(seq), f"seq {seq}")
    return driver.find_element(By.ID, "unknown-balls").is_displayed()


def test_the_hint_on_unknown_positions_shows_once_a_game_not_after_every_shot(console_page):
    quiet = {"type": "shot", **QUIET}  # no rest given: where the balls stopped is unknown
    record(quiet)
    assert hinted_at(console_page, 4)
    record({**quiet, "contacts": YELLOW_ON_WHITE})

    assert not hinted_at(console_page, 5)
    legend = console_page.find_element(By.ID, "table-legend").text
    assert "position unknown" in legend  # the table still says it, as it always does
    console_page.refresh()
    assert not hinted_at(console_page, 5)

    record(
        {"type": "game_forfeited", "player": "A", "reason": "left"},
        {"type": "game_started", "game": 2, "breaker": "B"},
        {"type": "ball_placed", "ball": "yellow", "pos": LOWER_HALF, "reason": "break"},
        {**quiet, "contacts": YELLOW_ON_WHITE},
    )
    assert hinted_at(console_page, 9)  # once in game 2 too
    record(quiet)
    assert not hinted_at(console_page, 10)


def test_no_tap_leaves_nothing_to_confirm_and_a_foul_is_not_shown_as_a_success(console_page):
    preview = console_page.find_element(By.ID, "preview")
    tap(console_page, '[data-hit="yellow"]')
    tap(console_page, '[data-hit="red"]')
    wait_until(console_page, lambda d: preview.get_attribute("data-state") == "ok", "the ricochet")
    success = preview.value_of_css_property("background-color")

    # Cleared, the shot has no tap at all: no ruling, no Confirm, not even for the Enter key.
    assert console_page.execute_script(TAP_AND_LOOK, "#clear-shot") == {
        "confirm": False,
        "preview": "empty",
    }
    console_page.find_element(By.TAG_NAME, "body").send_keys("\n")
    tap(console_page, '[data-hit="cushion"]')  # a miss: the cue ball hit a cushion and nothing else

    wait_until(console_page, lambda d: preview.get_attribute("data-state") == "ok", "the miss")
    assert preview.text == "Foul (miss): 2 to Marco Marchetti, with ball in hand"
    assert preview.get_attribute("data-verdict") == "foul"
    assert preview.value_of_css_property("background-color") != success
    confirm(console_page)
    # Recorded, and its answer in: the live feed may bring the shot before the answer does.
    wait_until(console_page, lambda d: attribute(d, "data-pending") == "0", "the miss recorded")
    assert attribute(console_page, "data-seq") == "4"
    assert shots() == [("A", [{"ball": "white", "hit": "cushion"}])]  # the stray Enter: nothing


# Holds the console's POSTs of events until the test lets each go, as a slow network does.
HOLD_SUBMISSIONS = """
window.heldSubmissions = [];
const send = window.fetch.bind(window);
window.fetch = (url, options) => options && options.method === "POST" && /\\/events$/.test(url)
  ? new Promise((resolve) => window.heldSubmissions.push(() => resolve(send(url, options))))
  : send(url, options);
"""


def test_a_shot_tapped_while_the_one_before_is_still_going_out_waits_for_its_own_ruling(
    console_page,
):
    console_page.execute_script(HOLD_SUBMISSIONS)
    tap(console_page, '[data-hit="yellow"]')
    confirm(console_page)  # A's shot, held on its way to the server
    wait_until(
        console_page, lambda d: d.execute_script("return window.heldSubmissions.length") == 1
    )

    # B's shot, tapped meanwhile: no ruling can be asked for before A's is recorded.
    assert console_page.execute_script(TAP_AND_LOOK, '[data-hit="white"]') == {
        "confirm": False,
        "preview": "sending",
    }
    console_page.execute_script("window.heldSubmissions.shift()()")

    preview = console_page.find_element(By.ID, "preview")
    wait_until(console_page, lambda d: preview.get_attribute("data-state") == "ok", "B's ruling")
    assert preview.text == "Valid shot, no points"
    assert console_page.find_element(By.ID, "confirm-shot").is_enabled()
    assert shots() == [("A", WHITE_ON_YELLOW)]


# Lets the console's POSTs of events reach the server but holds their answers, as a
# network whose answers come back late: the live feed may show the event first.
HOLD_ANSWERS = """
window.heldAnswers = [];
const send = window.fetch.bind(window);
window.fetch = (url, options) => options && options.method === "POST" && /\\/events$/.test(url)
  ? send(url, options).then((answer) => new Promise((resolve) => {
      window.heldAnswers.push(() => resolve(answer));
    }))
  : send(url, options);
"""


def test_a_shot_the_live_feed_shows_before_its_answer_passes_the_turn_once(console_page):
    console_page.execute_script(HOLD_ANSWERS)
    tap(console_page, '[data-hit="yellow"]')
    confirm(console_page)  # A's shot: recorded, its answer held
    wait_until(console_page, lambda d: attribute(d, "data-seq") == "4", "A's shot shown live")

    who = console_page.find_element(By.ID, "shot-who")
    wait_until(
        console_page, lambda d: who.text == "Marco Marchetti plays the yellow ball", who.text
    )
    tap(console_page, '[data-hit="white"]')  # B's shot, tapped before A's answer is back
    # The answer may come later than the live feed (a loaded server): wait until it is held.
    wait_until(
        console_page, lambda d: d.execute_script("return window.heldAnswers.length"), "answer"
    )
    console_page.execute_script("window.heldAnswers.shift()()")
    confirm(console_page)

    wait_until(console_page, lambda d: attribute(d, "data-seq") == "5", "B's shot recorded")
    assert shots() == [("A", WHITE_ON_YELLOW), ("B", YELLOW_ON_WHITE)]


def test_two_shots_recorded_offline_wait_and_arrive_once_each_in_order(console_page):
    go_offline(console_page)
    tap(console_page, '[data-hit="yellow"]')
    confirm(console_page)
    wait_until(console_page, lambda d: attribute(d, "data-pending") == "1", "one pending")
    # B's turn now, as the console reckons offline: the yellow is the cue ball.
    tap(console_page, '[data-hit="white"]')
    confirm(console_page)

    wait_until(console_page, lambda d: attribute(d, "data-pending") == "2", "two pending")
    preview = console_page.find_element(By.ID, "preview")
    wait_until(console_page, lambda d: "No preview while offline" in preview.text, "no preview")
    assert console_page.find_element(By.ID, "connection").get_attribute("data-state") == "offline"
    assert len(stored()) == 3
    # Each waiting shot is named by the number it gets once recorded where it waits.
    waiting = console_page.find_element(By.ID, "queue-items").text
    assert "Shot 1 by Olena Kovalenko: white → yellow — after event 3" in waiting
    assert "Shot 2 by Marco Marchetti: yellow → white — after event 4" in waiting

    go_online(console_page)

    wait_until(console_page, lambda d: attribute(d, "data-pending") == "0", "sent", QUEUE_WAIT_S)
    assert shots() == [("A", WHITE_ON_YELLOW), ("B", YELLOW_ON_WHITE)]
    assert [e["seq"] for e in stored()] == [1, 2, 3, 4, 5]
    done = console_page.find_element(By.ID, "form-done")
    assert done.text == "Recorded: Shot 2 by Marco Marchetti: yellow → white"


@pytest.mark.journey  # the server stopped and started again
def test_two_shots_survive_a_reload_with_the_server_down_and_arrive_once_when_it_is_back(
    console_page, served
):
    wait_until(console_page, lambda d: attribute(d, "data-offline-ready") == "true", "page kept")
    served.stop()
    tap(console_page, '[data-hit="yellow"]')
    confirm(console_page)
    wait_until(console_page, lambda d: attribute(d, "data-pending") == "1", "one pending")
    tap(console_page, '[data-hit="white"]')
    confirm(console_page)
    wait_until(console_page, lambda d: attribute(d, "data-pending") == "2", "two pending")

    console_page.refresh()  # the service worker answers with the page it kept

    wait_until(console_page, lambda d: attribute(d, "data-pending") == "2", "still pending")
    assert "2 submissions waiting" in console_page.find_element(By.ID, "queue-panel").text
    served.start()
    wait_until(console_page, lambda d: attribute(d, "data-pending") == "0", "sent", QUEUE_WAIT_S)
    assert shots() == [("A", WHITE_ON_YELLOW), ("B", YELLOW_ON_WHITE)]
    assert [e["seq"] for e in stored()] == [1, 2, 3, 4, 5]


def test_a_conflict_pauses_the_queue_and_the_referee_resends_after_the_new_event(console_page):
    go_offline(console_page)
    tap(console_page, '[data-hit="yellow"]')
    confirm(console_page)
    wait_until(console_page, lambda d: attribute(d, "data-pending") == "1", "one pending")
    # Meanwhile a second console records through the API: the balls re-spotted.
    other = APIClient()
    other.force_authenticate(make_user("federation", staff=True))
    answer = other.post(
        f"/api/matches/{MATCH}/events",
        {"expected_seq": 3, "event": {"type": "balls_respotted", "reason": "contact"}},
        format="json",
    )
    assert answer.status_code == 201

    go_online(console_page)

    panel = console_page.find_element(By.ID, "queue-panel")
    wait_until(console_page, lambda d: panel.get_attribute("data-paused") == "conflict", "paused")
    assert "Another console recorded first" in panel.text
    assert attribute(console_page, "data-pending") == "1"
    assert [e["type"] for e in stored()][3:] == ["balls_respotted"]

    tap(console_page, "#queue-items button.resend")

    wait_until(console_page, lambda d: attribute(d, "data-pending") == "0", "resent")
    assert [e["type"] for e in stored()][3:] == ["balls_respotted", "shot"]
    assert shots() == [("A", WHITE_ON_YELLOW)]


def test_a_dropped_submission_is_never_sent(console_page):
    go_offline(console_page)
    tap(console_page, '[data-hit="yellow"]')
    confirm(console_page)
    wait_until(console_page, lambda d: attribute(d, "data-pending") == "1", "one pending")
    services.shot_record(
        match_id=MATCH, expected_seq=3, by="petrenko", facts={"contacts": WHITE_ON_YELLOW}
    )
    go_online(console_page)
    panel = console_page.find_element(By.ID, "queue-panel")
    wait_until(console_page, lambda d: panel.get_attribute("data-paused") == "conflict", "paused")

    tap(console_page, "#queue-items button.drop")
    console_page.switch_to.alert.accept()

    wait_until(console_page, lambda d: attribute(d, "data-pending") == "0", "dropped")
    assert shots() == [("A", WHITE_ON_YELLOW)]  # the API's shot alone


def a_miss_in_the_lower_half(console_page: WebDriver) -> None:
    """A misses, the white ball at rest in the lower half (B's ball in hand goes in the upper
    half); the console shown it live, on its Place tab."""
    services.shot_record(
        match_id=MATCH,
        expected_seq=3,
        by="petrenko",
        facts={"contacts": [{"ball": "white", "hit": "cushion"}], "rest": {"white": [700, 400]}},
    )
    wait_until(console_page, lambda d: attribute(d, "data-seq") == "4", "the miss shown live")
    tap(console_page, '[data-tab="place"]')


def test_a_placement_outside_its_half_is_refused_on_the_table_and_nothing_is_queued(console_page):
    a_miss_in_the_lower_half(console_page)
    # On the centre line: its centre is in the upper half, but the ball lies across the line.
    console_page.execute_script(TAP_TABLE, 700, 1440)

    error = console_page.find_element(By.ID, "form-error")
    assert error.text == (
        "Not there: the ball in hand goes wholly in the upper half, clear of the centre line."
    )
    assert console_page.find_element(By.ID, "place-pos").text == "tap the table"
    assert not console_page.find_elements(By.CSS_SELECTOR, "#table [data-mark]")
    tap(console_page, "#place-form button[type=submit]")
    assert error.text == "Tap the table where the ball is placed."
    assert attribute(console_page, "data-pending") == "0"
    assert console_page.find_element(By.ID, "queue-panel").get_attribute("hidden") is not None

    # In the half but on the red ball: the engine's to refuse, and the queue pauses.
    console_page.execute_script(TAP_TABLE, 710, 2130)
    tap(console_page, "#place-form button[type=submit]")
    panel = console_page.find_element(By.ID, "queue-panel")
    wait_until(console_page, lambda d: panel.get_attribute("data-paused") == "refused", "refused")
    assert "The server refused a submission" in panel.text
    assert "overlaps the red ball" in panel.text
    assert len(stored()) == 4

    tap(console_page, "#queue-items button.drop")
    console_page.switch_to.alert.accept()
    wait_until(console_page, lambda d: attribute(d, "data-pending") == "0", "dropped")
    console_page.execute_script(TAP_TABLE, 700, 2000)
    tap(console_page, "#place-form button[type=submit]")
    wait_until(console_page, lambda d: attribute(d, "data-seq") == "5", "placed")
    x, y = stored()[-1]["pos"]
    # Where the tap fell, to the screen's resolution: about 5 mm a pixel at this size.
    assert abs(x - 700) < 15 and abs(y - 2000) < 15


def test_a_ball_in_hand_placed_brings_the_shot_tab_back_for_the_shot(console_page):
    a_miss_in_the_lower_half(console_page)
    console_page.execute_script(TAP_TABLE, 700, 2000)

    tap(console_page, "#place-form button[type=submit]")

    wait_until(console_page, lambda d: attribute(d, "data-seq") == "5", "placed")
    assert stored()[-1]["reason"] == "in_hand"
    shot_tab = console_page.find_element(By.CSS_SELECTOR, '[data-tab="shot"]')
    wait_until(console_page, lambda d: shot_tab.get_attribute("aria-selected") == "true", "shot")
    tap(console_page, '[data-hit="white"]')  # B's shot, with no tap on the tab
    confirm(console_page)
    wait_until(console_page, lambda d: attribute(d, "data-seq") == "6", "B's shot recorded")


def test_the_keyboard_records_a_shot_as_the_taps_do(console_page):
    body = console_page.find_element(By.TAG_NAME, "body")
    for key in "yr45":  # the yellow, the red, the left pin, the centre pin
        body.send_keys(key)
    preview = console_page.find_element(By.ID, "preview")
    wait_until(console_page, lambda d: preview.get_attribute("data-state") == "ok", "the preview")

    body.send_keys("\n")

    wait_until(console_page, lambda d: attribute(d, "data-seq") == "4", "the shot recorded")
    assert shots()[0][1][-1] == {"ball": "red", "hit": "pins", "pins": ["left", "center"]}


def test_what_another_console_records_shows_on_this_one_without_a_reload(console_page):
    services.shot_record(
        match_id=MATCH,
        expected_seq=3,
        by="federation",
        facts={"contacts": [{"ball": "white", "hit": "yellow"}, {"ball": "white", "hit": "red"}]},
    )

    wait_until(console_page, lambda d: attribute(d, "data-seq") == "4", "the shot shown live")
    scores = console_page.find_elements(By.CSS_SELECTOR, ".scoreline .score")
    wait_until(console_page, lambda d: [s.text for s in scores] == ["4", "0"], "the score")
    assert "Marco Marchetti" in console_page.find_element(By.ID, "shot-who").text


CAROM = [{"ball": "white", "hit": "yellow"}, {"ball": "white", "hit": "red"}]


def amend_a_carom(console_page: WebDriver) -> None:
    """Record a kiss carom for A (seq 4), shown live, and open its amendment on the console."""
    services.shot_record(match_id=MATCH, expected_seq=3, by="petrenko", facts={"contacts": CAROM})
    wait_until(console_page, lambda d: attribute(d, "data-seq") == "4", "the shot shown live")
    tap(console_page, '[data-tab="correct"]')
    # The shots come with the full state, fetched just after the live message.
    wait_until(console_page, lambda d: d.find_elements(By.CSS_SELECTOR, "#shot-list button.amend"))
    tap(console_page, "#shot-list button.amend")


def test_an_amendment_shows_both_rulings_side_by_side_then_records_with_its_reason(console_page):
    amend_a_carom(console_page)
    wait_until(
        console_page, lambda d: console_page.find_element(By.ID, "amend-compare").is_displayed()
    )
    assert console_page.find_element(By.ID, "shot-who").text == (
        "Amending shot 1 (game 1) by Olena Kovalenko"
    )
    amended = console_page.find_element(By.ID, "amend-preview")
    # The facts as they stand amend nothing: ruled, but not to be confirmed.
    wait_until(console_page, lambda d: amended.text == "Kiss carom: 4 to Olena Kovalenko", "ruled")
    assert console_page.find_element(By.ID, "amend-unchanged").is_displayed()
    assert not console_page.find_element(By.ID, "confirm-shot").is_enabled()
    assert console_page.execute_script(TAP_AND_LOOK, 'button[data-pin="top"]') == STALE  # a top pin

    wait_until(console_page, lambda d: "6 to Olena Kovalenko" in amended.text, "amended preview")
    assert (
        console_page.find_element(By.ID, "amend-original").text
        == "Kiss carom: 4 to Olena Kovalenko"
    )
    console_page.find_element(By.ID, "amend-reason").send_keys("video review: the top pin fell")
    confirm(console_page)

    wait_until(console_page, lambda d: attribute(d, "data-seq") == "5", "the amendment recorded")
    amendment = stored()[-1]
    assert amendment["type"] == "shot_amended" and amendment["shot"] == 4
    assert amendment["facts"]["contacts"][-1] == {"ball": "red", "hit": "pins", "pins": ["top"]}
    assert amendment["reason"] == "video review: the top pin fell"
    # The list to amend from shows the shot as it now stands, not as it was.
    tap(console_page, '[data-tab="correct"]')
    line = 'const li = document.querySelector(`#shot-list li[data-seq="4"]`);'
    line += " return li && li.innerText;"
    wait_until(
        console_page,
        lambda d: "6 to Olena Kovalenko (amended)" in (d.execute_script(line) or ""),
        "the amended ruling in the list",
    )


def test_an_amendment_takes_the_recorded_taps_back_with_undo_one_at_a_time(console_page):
    amend_a_carom(console_page)
    wait_until(console_page, lambda d: taps(d) == "white → yellow white → red", "the facts")
    undo = console_page.find_element(By.ID, "undo-tap")
    assert undo.is_displayed()  # before any tap: the recorded ones are taps too

    # The red was never hit: the last recorded tap taken back, as in a new shot.
    assert console_page.execute_script(TAP_AND_LOOK, "#undo-tap") == STALE
    assert taps(console_page) == "white → yellow"
    amended = console_page.find_element(By.ID, "amend-preview")
    wait_until(console_page, lambda d: amended.text == "Valid shot, no points", "the amendment")
    tap(console_page, "#undo-tap")
    assert taps(console_page) == "No contact yet: tap what the moving ball hit, in order."
    assert not undo.is_displayed()  # nothing left to take back
    tap(console_page, "#cancel-amend")
    assert len(stored()) == 4  # nothing recorded


def test_the_latest_shot_is_undone_with_a_reason(console_page):
    services.shot_record(match_id=MATCH, expected_seq=3, by="petrenko", facts={"contacts": CAROM})
    wait_until(console_page, lambda d: attribute(d, "data-seq") == "4", "the shot shown live")
    tap(console_page, '[data-tab="correct"]')
    retract = console_page.find_element(By.ID, "retract-what")
    wait_until(
        console_page, lambda d: retract.text.startswith("Shot 1, game 1: Kiss carom"), "shot 1"
    )
    console_page.find_element(By.CSS_SELECTOR, "#retract-form [name=reason]").send_keys(
        "entered twice"
    )
    tap(console_page, "#retract-form button[type=submit]")

    wait_until(console_page, lambda d: attribute(d, "data-seq") == "5", "the retraction recorded")
    retraction = stored()[-1]
    assert (retraction["type"], retraction["shot"], retraction["reason"]) == (
        "shot_retracted",
        4,
        "entered twice",
    )
    scores = console_page.find_elements(By.CSS_SELECTOR, ".scoreline .score")
    wait_until(console_page, lambda d: [s.text for s in scores] == ["0", "0"], "the score back")


LONG = "cup-console-long"
# The fetches of the match's full state the console has made so far.
STATE_FETCHES = """
return performance.getEntriesByType("resource")
  .filter((entry) => /\\/state(\\?|$)/.test(entry.name)).length;
"""


def long_match() -> None:
    """Import a match of 306 events: game 1 is 150 quiet shots and A's kiss carom (seq 154)."""
    break_of = [
        {"type": "ball_placed", "ball": ball, "pos": LOWER_HALF, "reason": "break"}
        for ball in ("white", "yellow")
    ]
    events = [
        {"type": "lag", "A": {"distance": 90}, "B": {"distance": 150}},
        {"type": "game_started", "game": 1, "breaker": "A"},
        break_of[0],
        *[{"type": "shot", **QUIET}] * 150,
        {"type": "shot", **CAROM_A},
        {"type": "game_started", "game": 2, "breaker": "B"},
        break_of[1],
        *[{"type": "shot", **QUIET}] * 150,
    ]
    header = {"id": LONG, "competition": "cup", "players": PLAYERS, "ruleset": {"target": 4}}
    record_import({"format": "carambole.match/1", "match": header, "events": events})
    services.referee_assign(match_id=LONG, username="petrenko", by="federation")


def listed(driver: WebDriver) -> list[str]:
    """Return the seq of each shot the Correct tab lists, in order."""
    items = driver.find_elements(By.CSS_SELECTOR, "#shot-list li")
    return [item.get_attribute("data-seq") for item in items]


def test_any_shot_of_a_long_match_is_found_by_game_number_or_words_and_amended(served, chromium):
    referee = make_user("petrenko")
    long_match()
    log_in(chromium, served, referee)
    chromium.get(f"{served.url}/referee/matches/{LONG}/")
    wait_until(chromium, lambda d: attribute(d, "data-seq") == "306", "the long match")
    tap(chromium, '[data-tab="correct"]')
    count = chromium.find_element(By.ID, "find-count")
    assert count.text == "40 of 301 shots"
    assert listed(chromium)[:2] == ["306", "305"]  # the newest first
    assert chromium.find_element(By.ID, "find-more").text == "Show 40 more"
    fetched = chromium.execute_script(STATE_FETCHES)

    Select(chromium.find_element(By.ID, "find-game")).select_by_visible_text("game 1")
    # Shot 9, the ninth of the match, is event 12 (after the lag, the start and a placement).
    chromium.find_element(By.ID, "find-shot").send_keys("9")
    wait_until(chromium, lambda d: listed(d) == ["12"], "shot 9 found")
    line = chromium.find_element(By.CSS_SELECTOR, '#shot-list li[data-seq="12"]').text
    assert line.startswith("Shot 9, game 1, Olena Kovalenko: ")
    search = chromium.find_element(By.ID, "find-shot")
    search.clear()
    search.send_keys("kiss")
    wait_until(chromium, lambda d: listed(d) == ["154"], "the kiss carom found")
    assert chromium.execute_script(STATE_FETCHES) == fetched  # no fetch for a keystroke

    search.clear()
    search.send_keys("9")
    tap(chromium, '#shot-list li[data-seq="12"] button.amend')
    who = chromium.find_element(By.ID, "shot-who")
    wait_until(chromium, lambda d: who.text == "Amending shot 9 (game 1) by Olena Kovalenko")
    # Amended to no contact at all, a miss: a change, judged before it may be confirmed.
    assert chromium.execute_script(TAP_AND_LOOK, "#clear-shot") == STALE
    amended = chromium.find_element(By.ID, "amend-preview")
    wait_until(chromium, lambda d: amended.text.startswith("Foul (miss)"), "the miss ruled")
    chromium.find_element(By.ID, "amend-reason").send_keys("video: no contact")
    confirm(chromium)

    wait_until(chromium, lambda d: attribute(d, "data-seq") == "307", "the amendment recorded")
    amendment = stored(LONG)[-1]
    assert (amendment["type"], amendment["shot"], amendment["facts"]) == (
        "shot_amended",
        12,
        {"contacts": []},
    )
    done = chromium.find_element(By.ID, "form-done")
    wait_until(chromium, lambda d: done.text == "Recorded: Shot 9 amended: video: no contact")


@pytest.mark.parametrize(
    ("events", "kind"),
    [
        ([], "lag"),
        ([{"type": "lag", "A": {"distance": 90}, "B": {"distance": 150}}], "lag"),
        (
            [
                {"type": "lag", "A": {"distance": 90}, "B": {"distance": 150}},
                {"type": "game_started", "game": 1, "breaker": "A"},
            ],
            "break",
        ),
        (
            [
                {"type": "game_started", "game": 1, "breaker": "A"},
                {"type": "ball_placed", "ball": "white", "pos": [700, 400], "reason": "break"},
                {"type": "shot", "contacts": CAROM},
            ],
            "between",
        ),
        (
            [
                {"type": "game_started", "game": 1, "breaker": "A"},
                {"type": "ball_placed", "ball": "white", "pos": [700, 400], "reason": "break"},
                {"type": "shot", "contacts": CAROM},
                {"type": "intermission", "minutes": 5},
            ],
            "intermission",
        ),
        (
            [
                {"type": "game_started", "game": 1, "breaker": "A"},
                {"type": "match_forfeited", "player": "B", "reason": "refused to continue"},
            ],
            "forfeit",
        ),
    ],
    ids=["no lag yet", "lag won", "break", "between games", "intermission", "forfeit"],
)
def test_every_moment_of_a_match_has_its_kind_shown_on_the_console(served, chromium, events, kind):
    show_moment(served, chromium, events, kind, target=4)  # one kiss carom wins a game


ONE_GAME_WON = [
    {"type": "game_started", "game": 1, "breaker": "A"},
    {"type": "ball_placed", "ball": "white", "pos": [700, 400], "reason": "break"},
    {"type": "shot", "contacts": CAROM},
]


def test_a_match_won_shows_so_on_the_console(served, chromium):
    show_moment(served, chromium, ONE_GAME_WON, "finished", target=4, best_of=1)


def test_a_match_under_review_shows_so_on_the_console(served, chromium):
    amendment = {
        "type": "shot_amended",
        "shot": 3,
        "facts": {"contacts": CAROM[:1]},
        "reason": "video",
    }
    show_moment(served, chromium, [*ONE_GAME_WON, amendment], "review", target=4, best_of=1)


def show_moment(served, chromium, events, kind, **ruleset):
    """Open the console of a match after `events` and see that moment said, of its kind."""
    new_match("cup-moments", **ruleset)
    referee = make_user("petrenko")
    services.referee_assign(match_id="cup-moments", username="petrenko", by="federation")
    for seq, event in enumerate(events):
        services.event_record(match_id="cup-moments", expected_seq=seq, event=event, by="petrenko")
    log_in(chromium, served, referee)

    chromium.get(f"{served.url}/referee/matches/cup-moments/")

    wait_until(chromium, lambda d: attribute(d, "data-moment") == kind, f"the {kind} moment")
    assert chromium.find_element(By.ID, "moment-title").text
    assert chromium.find_element(By.ID, "moment").text


def test_the_pins_of_a_games_last_shot_are_not_drawn_fallen_at_the_next_games_break(
    served, chromium
):
    ricochet_and_the_red_pin = [
        {"ball": "white", "hit": "yellow"},
        {"ball": "yellow", "hit": "red"},
        {"ball": "red", "hit": "pins", "pins": ["center"]},
    ]
    events = [
        {"type": "game_started", "game": 1, "breaker": "A"},
        {"type": "ball_placed", "ball": "white", "pos": [700, 400], "reason": "break"},
        {"type": "shot", "contacts": ricochet_and_the_red_pin},  # wins game 1 (target 4)
        {"type": "game_started", "game": 2, "breaker": "B"},
    ]
    show_moment(served, chromium, events, "break", target=4)

    assert chromium.find_elements(By.CSS_SELECTOR, "#table [data-pin]")
    assert chromium.find_elements(By.CSS_SELECTOR, '#table [data-fallen="true"]') == []


def test_a_match_an_amendment_decided_early_reads_right_on_the_console(served, chromium):
    decided_early("cup-early")
    referee = make_user("petrenko")
    services.referee_assign(match_id="cup-early", username="petrenko", by="federation")
    log_in(chromium, served, referee)

    chromium.get(f"{served.url}/referee/matches/cup-early/")

    wait_until(chromium, lambda d: attribute(d, "data-moment") == "finished", "the finished moment")
    detail = chromium.find_element(By.ID, "moment").text
    assert detail == "Marco Marchetti wins the match, 2–0 in games."
    # The score of game 2, the last played, not of the void game 3 (0 0).
    scores = [box.text for box in chromium.find_elements(By.CSS_SELECTOR, ".player .score")]
    assert scores == ["0", "4"]
