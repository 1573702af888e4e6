"""The replay page in a real browser: stepped with the keyboard, opened at a shared `?seq=`."""

from __future__ import annotations

import json

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.expected_conditions import staleness_of
from selenium.webdriver.support.select import Select

from matches.domain.simulator import iter_competition
from tests.support.browser import wait_until
from tests.support.decided_early import VOID_GAME, decided_early
from tests.support.replays import RECORD, imported, shown_seq

LANG = "return document.documentElement.lang"


def scoring_shot(timeline: dict) -> int:
    """Return the seq of a shot that changes a score and moves a ball to a known place."""
    frames = timeline["frames"]
    for shot in timeline["shots"]:
        seq = shot["seq"]
        before, after = frames[seq - 1], frames[seq]
        moved = [
            ball
            for ball, at in after["positions"].items()
            if at is not None and at != before["positions"][ball]
        ]
        if before["games"] != after["games"] and moved:
            return seq
    raise AssertionError("the record has no scoring shot that moves a ball")


def scores(driver) -> list[list[str]]:
    rows = driver.find_elements(By.CSS_SELECTOR, "#scores tbody tr")
    return [[cell.text for cell in row.find_elements(By.TAG_NAME, "td")] for row in rows]


def ball_at(driver, table: str, ball: str, confirmed: bool = True) -> list[float] | None:
    """Return where a table draws a ball: at a confirmed position, or where last known."""
    mark = "true" if confirmed else "false"
    found = driver.find_elements(
        By.CSS_SELECTOR, f"#{table} circle.ball[data-ball={ball}][data-confirmed={mark}]"
    )
    if not found:
        return None
    return [float(found[0].get_attribute("cx")), float(found[0].get_attribute("cy"))]


def expected_scores(frame: dict) -> list[list[str]]:
    return [[str(game["score"]["A"]), str(game["score"]["B"])] for game in frame["games"]]


def test_a_shared_seq_link_opens_the_replay_at_that_shot(served, chromium):
    match_id, timeline = imported()
    seq = timeline["shots"][len(timeline["shots"]) // 2]["seq"]
    frame = timeline["frames"][seq]

    chromium.get(f"{served.url}/matches/{match_id}/replay/?seq={seq}")

    wait_until(chromium, lambda d: shown_seq(d) == seq, f"the replay at seq {seq}")
    assert chromium.find_element(By.ID, "seq").get_attribute("value") == str(seq)
    current = chromium.find_element(By.CSS_SELECTOR, ".shot-list li.current")
    assert current.get_attribute("data-seq") == str(seq)
    assert scores(chromium) == expected_scores(frame)
    for ball, at in frame["positions"].items():
        assert ball_at(chromium, "table-after", ball) == at
    assert chromium.find_element(By.ID, "ruling").text
    # When it was recorded, in UTC as the page's amendments are dated: one zone a page.
    recorded = timeline["events"][seq - 1]["at"]  # 2026-11-29T14:03:07.250Z
    assert f"{recorded[11:19]} UTC" in chromium.find_element(By.ID, "moment").text


def test_the_arrow_keys_step_through_the_match_and_the_table_and_score_follow(served, chromium):
    # A simulated match: its shots say where the balls came to rest.
    match_id, timeline = imported(next(iter_competition(2026, 1, competition="browser")))
    seq = scoring_shot(timeline)
    before, after = timeline["frames"][seq - 1], timeline["frames"][seq]
    chromium.get(f"{served.url}/matches/{match_id}/replay/?seq={seq - 1}")
    wait_until(chromium, lambda d: shown_seq(d) == seq - 1, "the replay open")
    assert scores(chromium) == expected_scores(before)
    body = chromium.find_element(By.TAG_NAME, "body")

    body.send_keys(Keys.ARROW_RIGHT)

    wait_until(chromium, lambda d: shown_seq(d) == seq, "one step on")
    assert scores(chromium) == expected_scores(after)
    for ball, at in after["positions"].items():
        assert ball_at(chromium, "table-after", ball) == at
        assert ball_at(chromium, "table-before", ball) == before["positions"][ball]
    # The address now names the shot shown, ready to be shared.
    assert chromium.current_url.endswith(f"?seq={seq}")

    body.send_keys(Keys.ARROW_LEFT)

    wait_until(chromium, lambda d: shown_seq(d) == seq - 1, "one step back")
    assert scores(chromium) == expected_scores(before)
    body.send_keys(Keys.END)
    wait_until(chromium, lambda d: shown_seq(d) == timeline["head"], "the last event")
    assert scores(chromium) == expected_scores(timeline["frames"][-1])
    body.send_keys(Keys.HOME)
    wait_until(chromium, lambda d: shown_seq(d) == 0, "before the first event")


def test_the_live_toggle_shows_an_amended_shot_as_it_was_first_ruled(served, chromium):
    amended = json.loads((RECORD.parent / "amendment_void.json").read_text(encoding="utf-8"))
    match_id, timeline = imported(amended)
    shot = next(entry for entry in timeline["shots"] if entry["amended"])
    chromium.get(f"{served.url}/matches/{match_id}/replay/?seq={shot['seq']}")
    wait_until(chromium, lambda d: shown_seq(d) == shot["seq"], "the amended shot")
    amended_words = chromium.find_element(By.ID, "ruling").text

    chromium.find_element(By.CSS_SELECTOR, "input[name=view][value=live]").click()

    wait_until(
        chromium,
        lambda d: d.find_element(By.ID, "ruling").text != amended_words,
        "the first ruling",
    )
    assert "view=live" in chromium.current_url
    listed = chromium.find_element(
        By.CSS_SELECTOR, f".shot-list li[data-seq='{shot['seq']}'] .shot-what"
    )
    # The shot list words the amended shot as it was first ruled, as the moment does.
    assert chromium.find_element(By.ID, "ruling").text.startswith(listed.text)
    assert not amended_words.startswith(listed.text)


def test_play_steps_on_by_itself_and_a_game_can_be_jumped_to(served, chromium):
    match_id, timeline = imported(next(iter_competition(2026, 1, competition="browser")))
    assert len(timeline["games"]) >= 2
    chromium.get(f"{served.url}/matches/{match_id}/replay/?seq=0")
    wait_until(chromium, lambda d: shown_seq(d) == 0, "the replay at its start")
    Select(chromium.find_element(By.ID, "speed")).select_by_value("64")

    chromium.find_element(By.ID, "play").click()

    wait_until(chromium, lambda d: shown_seq(d) >= 3, "the replay playing on")
    chromium.find_element(By.ID, "play").click()  # pause
    paused = shown_seq(chromium)
    assert chromium.find_element(By.ID, "play").get_attribute("aria-pressed") == "false"
    second = timeline["games"][1]
    Select(chromium.find_element(By.ID, "game")).select_by_value(str(second["start"]))
    wait_until(chromium, lambda d: shown_seq(d) == second["start"], "game 2's start")
    assert paused != second["start"]
    chromium.find_element(By.TAG_NAME, "body").send_keys(Keys.PAGE_UP)
    wait_until(chromium, lambda d: shown_seq(d) == timeline["games"][0]["start"], "game 1")


def test_a_void_shot_says_why_and_the_language_switch_keeps_the_event_and_the_view(
    served, chromium
):
    decided_early("cup-replay-void")
    chromium.get(f"{served.url}/matches/cup-replay-void/replay/?seq={VOID_GAME[0]}")
    wait_until(chromium, lambda d: shown_seq(d) == VOID_GAME[0], "the void game's first shot")
    # White on yellow, no rest: both drawn where last known, white where placed to break.
    assert ball_at(chromium, "table-after", "white", confirmed=False) == [700.0, 400.0]
    chromium.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT)

    wait_until(chromium, lambda d: shown_seq(d) == VOID_GAME[1], "the void game's carom")
    # As amended the carom scored nothing: its ruling says why, and claims no points.
    assert chromium.find_element(By.ID, "ruling").text == (
        "Kiss carom (void: the match was already decided)"
    )
    assert scores(chromium)[-1] == ["—", "—"]
    chromium.find_element(By.CSS_SELECTOR, "input[name=view][value=live]").click()
    wait_until(chromium, lambda d: "view=live" in d.current_url, "the live view")
    english = chromium.find_element(By.TAG_NAME, "html")
    chromium.find_element(By.CSS_SELECTOR, "form.language button[value=uk]").click()

    wait_until(chromium, staleness_of(english), "the page loaded again")
    wait_until(chromium, lambda d: d.execute_script(LANG) == "uk", "the page in Ukrainian")
    wait_until(chromium, lambda d: shown_seq(d) == VOID_GAME[1], "the same event, in Ukrainian")
    assert chromium.current_url.endswith(f"?seq={VOID_GAME[1]}&view=live")
    assert chromium.find_element(By.CSS_SELECTOR, "input[name=view][value=live]").is_selected()


def test_space_plays_and_pauses_once_the_slider_was_used(served, chromium):
    match_id, timeline = imported(next(iter_competition(2026, 1, competition="browser")))
    chromium.get(f"{served.url}/matches/{match_id}/replay/?seq=0")
    wait_until(chromium, lambda d: shown_seq(d) == 0, "the replay at its start")
    slider = chromium.find_element(By.ID, "seq")
    slider.send_keys(Keys.ARROW_RIGHT)  # the slider's own key: one event on, the focus kept
    wait_until(chromium, lambda d: shown_seq(d) == 1, "the slider moved")
    play = chromium.find_element(By.ID, "play")

    slider.send_keys(Keys.SPACE)

    wait_until(chromium, lambda d: play.get_attribute("aria-pressed") == "true", "playing")
    slider.send_keys(Keys.SPACE)
    wait_until(chromium, lambda d: play.get_attribute("aria-pressed") == "false", "paused")
    assert chromium.switch_to.active_element == slider
