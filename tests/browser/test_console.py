"""The referee's console in a real browser: taps, the preview, and a network that drops."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from matches import services
from matches.models import Event
from tests.browser.conftest import go_offline, go_online, log_in, make_user, wait_until
from tests.store.plays import new_match, open_game

MATCH = "cup-console-1"
QUEUE_WAIT_S = 40.0  # the server back, the queue's backoff waits at most 15 s between tries


# Taps the table drawing at a point of the playing surface, in millimetres.
TAP_TABLE = """
const [x, y] = [arguments[0], arguments[1]];
const svg = document.getElementById("table");
const point = svg.createSVGPoint();
point.x = x;
point.y = y;
const screen = point.matrixTransform(svg.querySelector("g.surface").getScreenCTM());
svg.dispatchEvent(new MouseEvent("click", { clientX: screen.x, clientY: screen.y, bubbles: true }));
"""


@pytest.fixture
def console(served, chromium) -> WebDriver:
    """The console of a match whose game 1 A is about to break, open for its referee."""
    new_match(MATCH)
    referee = make_user("petrenko")
    services.referee_assign(match_id=MATCH, username="petrenko", by="federation")
    open_game(MATCH)
    log_in(chromium, served, referee)
    chromium.get(f"{served.url}/referee/matches/{MATCH}/")
    wait_until(
        chromium, lambda d: d.find_element(By.ID, "console").get_attribute("data-seq") == "3"
    )
    return chromium


def tap(driver: WebDriver, selector: str) -> None:
    """Tap a button, scrolled to the middle of the screen as a referee's thumb finds it.

    Found afresh if the page redrew it meanwhile (the queue's list follows the match).
    """
    for attempt in range(3):
        try:
            button = driver.find_element(By.CSS_SELECTOR, selector)
            driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
            button.click()
            return
        except StaleElementReferenceException:
            if attempt == 2:
                raise


def attribute(driver: WebDriver, name: str) -> str | None:
    return driver.find_element(By.ID, "console").get_attribute(name)


def confirm(driver: WebDriver) -> None:
    """Press Confirm once it may be pressed (after the preview, or with none offline)."""
    button = driver.find_element(By.ID, "confirm-shot")
    wait_until(driver, lambda d: button.is_enabled(), "Confirm enabled")
    tap(driver, "#confirm-shot")


def stored(match_id: str = MATCH) -> list[dict[str, Any]]:
    events = Event.objects.filter(match_id=match_id).order_by("seq")
    return [event.as_record() for event in events]


def shots(match_id: str = MATCH) -> list[tuple[str, list[dict[str, Any]]]]:
    return [(e["player"], e["contacts"]) for e in stored(match_id) if e["type"] == "shot"]


WHITE_ON_YELLOW = [{"ball": "white", "hit": "yellow"}]
YELLOW_ON_WHITE = [{"ball": "yellow", "hit": "white"}]


def test_a_scoring_shot_is_four_taps_its_ruling_shown_before_the_confirm_stores_it(console):
    for selector in (
        '[data-hit="yellow"]',  # the opponent's ball
        '[data-hit="red"]',  # which the yellow sends onto the red: a ricochet
        'button[data-pin="left"]',  # the red knocks two pins
        'button[data-pin="center"]',
    ):
        tap(console, selector)

    preview = console.find_element(By.ID, "preview")
    wait_until(console, lambda d: preview.get_attribute("data-state") == "ok", "the preview")
    assert preview.text == "Ricochet and the red pin and 1 white pin: 9 to Olena Kovalenko"
    assert len(stored()) == 3  # nothing recorded by the preview
    console.execute_script(TAP_TABLE, 300, 500)  # optional: where the cue ball stopped

    confirm(console)

    wait_until(console, lambda d: attribute(d, "data-seq") == "4", "the shot recorded")
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
    scores = console.find_elements(By.CSS_SELECTOR, ".scoreline .score")
    assert [s.text for s in scores] == ["9", "0"]


def test_two_shots_recorded_offline_wait_and_arrive_once_each_in_order(console):
    go_offline(console)
    tap(console, '[data-hit="yellow"]')
    confirm(console)
    wait_until(console, lambda d: attribute(d, "data-pending") == "1", "one pending")
    # B's turn now, as the console reckons offline: the yellow is the cue ball.
    tap(console, '[data-hit="white"]')
    confirm(console)

    wait_until(console, lambda d: attribute(d, "data-pending") == "2", "two pending")
    preview = console.find_element(By.ID, "preview")
    wait_until(console, lambda d: "No preview while offline" in preview.text, "no preview")
    assert console.find_element(By.ID, "connection").get_attribute("data-state") == "offline"
    assert len(stored()) == 3

    go_online(console)

    wait_until(console, lambda d: attribute(d, "data-pending") == "0", "sent", QUEUE_WAIT_S)
    assert shots() == [("A", WHITE_ON_YELLOW), ("B", YELLOW_ON_WHITE)]
    assert [e["seq"] for e in stored()] == [1, 2, 3, 4, 5]


def test_two_shots_survive_a_reload_with_the_server_down_and_arrive_once_when_it_is_back(
    console, served
):
    wait_until(console, lambda d: attribute(d, "data-offline-ready") == "true", "page kept")
    served.stop()
    tap(console, '[data-hit="yellow"]')
    confirm(console)
    wait_until(console, lambda d: attribute(d, "data-pending") == "1", "one pending")
    tap(console, '[data-hit="white"]')
    confirm(console)
    wait_until(console, lambda d: attribute(d, "data-pending") == "2", "two pending")

    console.refresh()  # the service worker answers with the page it kept

    wait_until(console, lambda d: attribute(d, "data-pending") == "2", "still pending")
    assert "2 submissions waiting" in console.find_element(By.ID, "queue-panel").text
    served.start()
    wait_until(console, lambda d: attribute(d, "data-pending") == "0", "sent", QUEUE_WAIT_S)
    assert shots() == [("A", WHITE_ON_YELLOW), ("B", YELLOW_ON_WHITE)]
    assert [e["seq"] for e in stored()] == [1, 2, 3, 4, 5]


def test_a_conflict_pauses_the_queue_and_the_referee_resends_after_the_new_event(console):
    go_offline(console)
    tap(console, '[data-hit="yellow"]')
    confirm(console)
    wait_until(console, lambda d: attribute(d, "data-pending") == "1", "one pending")
    # Meanwhile a second console records through the API: the balls re-spotted.
    other = APIClient()
    other.force_authenticate(make_user("federation", staff=True))
    answer = other.post(
        f"/api/matches/{MATCH}/events",
        {"expected_seq": 3, "event": {"type": "balls_respotted", "reason": "contact"}},
        format="json",
    )
    assert answer.status_code == 201

    go_online(console)

    panel = console.find_element(By.ID, "queue-panel")
    wait_until(console, lambda d: panel.get_attribute("data-paused") == "conflict", "paused")
    assert "Another console recorded first" in panel.text
    assert attribute(console, "data-pending") == "1"
    assert [e["type"] for e in stored()][3:] == ["balls_respotted"]

    tap(console, "#queue-items button.resend")

    wait_until(console, lambda d: attribute(d, "data-pending") == "0", "resent")
    assert [e["type"] for e in stored()][3:] == ["balls_respotted", "shot"]
    assert shots() == [("A", WHITE_ON_YELLOW)]


def test_a_dropped_submission_is_never_sent(console):
    go_offline(console)
    tap(console, '[data-hit="yellow"]')
    confirm(console)
    wait_until(console, lambda d: attribute(d, "data-pending") == "1", "one pending")
    services.shot_record(
        match_id=MATCH, expected_seq=3, by="petrenko", facts={"contacts": WHITE_ON_YELLOW}
    )
    go_online(console)
    panel = console.find_element(By.ID, "queue-panel")
    wait_until(console, lambda d: panel.get_attribute("data-paused") == "conflict", "paused")

    tap(console, "#queue-items button.drop")
    console.switch_to.alert.accept()

    wait_until(console, lambda d: attribute(d, "data-pending") == "0", "dropped")
    assert shots() == [("A", WHITE_ON_YELLOW)]  # the API's shot alone


def test_a_placement_the_rules_refuse_shows_the_engines_error_and_stores_nothing(console):
    # A misses and his ball stops in the lower half: B's ball in hand goes in the upper half.
    services.shot_record(
        match_id=MATCH,
        expected_seq=3,
        by="petrenko",
        facts={"contacts": [{"ball": "white", "hit": "cushion"}], "rest": {"white": [700, 400]}},
    )
    wait_until(console, lambda d: attribute(d, "data-seq") == "4", "the miss shown live")
    tap(console, '[data-tab="place"]')
    console.execute_script(TAP_TABLE, 700, 300)
    tap(console, "#place-form button[type=submit]")

    panel = console.find_element(By.ID, "queue-panel")
    wait_until(console, lambda d: panel.get_attribute("data-paused") == "refused", "refused")
    assert "The server refused a submission" in panel.text
    assert "half" in panel.text
    assert len(stored()) == 4

    tap(console, "#queue-items button.drop")
    console.switch_to.alert.accept()
    wait_until(console, lambda d: attribute(d, "data-pending") == "0", "dropped")
    console.execute_script(TAP_TABLE, 700, 2000)
    tap(console, "#place-form button[type=submit]")
    wait_until(console, lambda d: attribute(d, "data-seq") == "5", "placed")
    x, y = stored()[-1]["pos"]
    # Where the tap fell, to the screen's resolution: about 5 mm a pixel at this size.
    assert abs(x - 700) < 15 and abs(y - 2000) < 15


def test_the_keyboard_records_a_shot_as_the_taps_do(console):
    body = console.find_element(By.TAG_NAME, "body")
    for key in "yr45":  # the yellow, the red, the left pin, the centre pin
        body.send_keys(key)
    preview = console.find_element(By.ID, "preview")
    wait_until(console, lambda d: preview.get_attribute("data-state") == "ok", "the preview")

    body.send_keys("\n")

    wait_until(console, lambda d: attribute(d, "data-seq") == "4", "the shot recorded")
    assert shots()[0][1][-1] == {"ball": "red", "hit": "pins", "pins": ["left", "center"]}


def test_what_another_console_records_shows_on_this_one_without_a_reload(console):
    services.shot_record(
        match_id=MATCH,
        expected_seq=3,
        by="federation",
        facts={"contacts": [{"ball": "white", "hit": "yellow"}, {"ball": "white", "hit": "red"}]},
    )

    wait_until(console, lambda d: attribute(d, "data-seq") == "4", "the shot shown live")
    scores = console.find_elements(By.CSS_SELECTOR, ".scoreline .score")
    wait_until(console, lambda d: [s.text for s in scores] == ["4", "0"], "the score")
    assert "Marco Marchetti" in console.find_element(By.ID, "shot-who").text


CAROM = [{"ball": "white", "hit": "yellow"}, {"ball": "white", "hit": "red"}]


def test_an_amendment_shows_both_rulings_side_by_side_then_records_with_its_reason(console):
    services.shot_record(match_id=MATCH, expected_seq=3, by="petrenko", facts={"contacts": CAROM})
    wait_until(console, lambda d: attribute(d, "data-seq") == "4", "the shot shown live")
    tap(console, '[data-tab="correct"]')
    # The shots come with the full state, fetched just after the live message.
    wait_until(console, lambda d: d.find_elements(By.CSS_SELECTOR, "#shot-list button.amend"))
    tap(console, "#shot-list button.amend")
    wait_until(console, lambda d: console.find_element(By.ID, "amend-compare").is_displayed())
    tap(console, 'button[data-pin="top"]')  # the red knocked the top pin too

    amended = console.find_element(By.ID, "amend-preview")
    wait_until(console, lambda d: "6 to Olena Kovalenko" in amended.text, "amended preview")
    assert console.find_element(By.ID, "amend-original").text == "Kiss carom: 4 to Olena Kovalenko"
    console.find_element(By.ID, "amend-reason").send_keys("video review: the top pin fell")
    confirm(console)

    wait_until(console, lambda d: attribute(d, "data-seq") == "5", "the amendment recorded")
    amendment = stored()[-1]
    assert amendment["type"] == "shot_amended" and amendment["shot"] == 4
    assert amendment["facts"]["contacts"][-1] == {"ball": "red", "hit": "pins", "pins": ["top"]}
    assert amendment["reason"] == "video review: the top pin fell"


def test_the_latest_shot_is_undone_with_a_reason(console):
    services.shot_record(match_id=MATCH, expected_seq=3, by="petrenko", facts={"contacts": CAROM})
    wait_until(console, lambda d: attribute(d, "data-seq") == "4", "the shot shown live")
    tap(console, '[data-tab="correct"]')
    retract = console.find_element(By.ID, "retract-what")
    wait_until(console, lambda d: retract.text.startswith("Shot 4"), "the shot to undo")
    console.find_element(By.CSS_SELECTOR, "#retract-form [name=reason]").send_keys("entered twice")
    tap(console, "#retract-form button[type=submit]")

    wait_until(console, lambda d: attribute(d, "data-seq") == "5", "the retraction recorded")
    retraction = stored()[-1]
    assert (retraction["type"], retraction["shot"], retraction["reason"]) == (
        "shot_retracted",
        4,
        "entered twice",
    )
    scores = console.find_elements(By.CSS_SELECTOR, ".scoreline .score")
    wait_until(console, lambda d: [s.text for s in scores] == ["0", "0"], "the score back")


@pytest.mark.parametrize(
    ("events", "face"),
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
def test_every_moment_of_a_match_has_a_face_on_the_console(served, chromium, events, face):
    show_face(served, chromium, events, face, target=4)  # one kiss carom wins a game


ONE_GAME_WON = [
    {"type": "game_started", "game": 1, "breaker": "A"},
    {"type": "ball_placed", "ball": "white", "pos": [700, 400], "reason": "break"},
    {"type": "shot", "contacts": CAROM},
]


def test_a_match_won_has_its_face(served, chromium):
    show_face(served, chromium, ONE_GAME_WON, "finished", target=4, best_of=1)


def test_a_match_under_review_has_its_face(served, chromium):
    amendment = {
        "type": "shot_amended",
        "shot": 3,
        "facts": {"contacts": CAROM[:1]},
        "reason": "video",
    }
    show_face(served, chromium, [*ONE_GAME_WON, amendment], "review", target=4, best_of=1)


def show_face(served, chromium, events, face, **ruleset):
    """Open the console of a match after `events` and see the face of that moment."""
    new_match("cup-faces", **ruleset)
    referee = make_user("petrenko")
    services.referee_assign(match_id="cup-faces", username="petrenko", by="federation")
    for seq, event in enumerate(events):
        services.event_record(match_id="cup-faces", expected_seq=seq, event=event, by="petrenko")
    log_in(chromium, served, referee)

    chromium.get(f"{served.url}/referee/matches/cup-faces/")

    wait_until(chromium, lambda d: attribute(d, "data-face") == face, f"the {face} face")
    assert chromium.find_element(By.ID, "face-title").text
    assert chromium.find_element(By.ID, "face").text
