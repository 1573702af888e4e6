"""The console's lag form on a phone: who won first, two large buttons, distances optional."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By

from matches import services
from matches.models import Event
from tests.support.browser import log_in, make_user, wait_until
from tests.support.builders import PLAYERS, new_match
from tests.support.screens import PHONE, SCREENS, save_shot, screen

MATCH = "cup-console-lag"
WON = {
    "en": "Marco Marchetti won the lag and chooses who breaks game 1.",
    "uk": "Розіграш початкового удару — перемога гравця Marco Marchetti; цей гравець вибирає, хто",
}
# The winner's buttons as the phone shows them: each rectangle, whether it is the topmost
# thing at its centre, and the page's widths.
MEASURE = """
const box = (node) => {
  const r = node.getBoundingClientRect();
  const top = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
  return {top: r.top, bottom: r.bottom, left: r.left, right: r.right, height: r.height,
          text: node.textContent.trim(), seen: Boolean(top && node.contains(top))};
};
return {
  width: innerWidth, height: innerHeight, scrollWidth: document.documentElement.scrollWidth,
  buttons: Array.from(document.querySelectorAll("#lag-form label.lag-won"), box),
  distance: box(document.querySelector('#lag-form input[name="A-distance"]')),
};
"""


def open_lag(served, browsers, language: str, size: tuple[int, int] = PHONE):
    """Open on a phone the console of a match whose lag is still to be recorded."""
    new_match(MATCH)
    referee = make_user("petrenko")
    services.referee_assign(match_id=MATCH, username="petrenko", by="federation")
    driver = screen(browsers, size, language)
    log_in(driver, served, referee)
    driver.get(f"{served.url}/referee/matches/{MATCH}/")
    wait_until(driver, lambda d: d.find_elements(By.CSS_SELECTOR, '#console[data-moment="lag"]'))
    driver.find_element(By.CSS_SELECTOR, '[data-tab="game"]').click()
    return driver


def stored() -> list[dict]:
    return [event.data for event in Event.objects.filter(match_id=MATCH).order_by("seq")]


@pytest.mark.parametrize(
    ("language", "size"), [("uk", SCREENS[0]), ("en", SCREENS[1])], ids=["uk-phone", "en-desktop"]
)
def test_the_lag_asks_who_won_first_with_two_large_buttons_and_records_the_winner_alone(
    served, browsers, language, size
):
    driver = open_lag(served, browsers, language, size)

    shown = driver.execute_script(MEASURE)
    at = f"{language}: {shown}"
    assert shown["scrollWidth"] <= shown["width"], at
    a, b = shown["buttons"]
    assert (a["text"], b["text"]) == (PLAYERS["A"]["name"], PLAYERS["B"]["name"]), at
    for button in (a, b):
        assert 0 <= button["top"] and button["bottom"] <= shown["height"] and button["seen"], at
        assert button["height"] >= 64, at  # a thumb's target, not a radio's dot
    assert a["top"] == b["top"] and a["right"] <= b["left"], at  # side by side
    assert shown["distance"]["top"] >= a["bottom"], at  # distances below, optional
    save_shot(driver, f"console-lag-{language}-{size[0]}")

    driver.find_element(By.CSS_SELECTOR, "#lag-form label.lag-won:nth-of-type(2)").click()
    driver.find_element(By.CSS_SELECTOR, "#lag-form button[type=submit]").click()

    wait_until(driver, lambda d: d.find_element(By.ID, "console").get_attribute("data-seq") == "1")
    assert stored() == [{"type": "lag", "winner": "B"}]
    moment = driver.find_element(By.ID, "moment")
    wait_until(driver, lambda d: moment.text.startswith(WON[language]), f"the moment says: {WON}")
    driver.execute_script("window.scrollTo(0, 0)")
    save_shot(driver, f"console-lag-won-{language}-{size[0]}")


def test_the_lag_without_a_winner_asks_for_one_or_both_distances_and_queues_nothing(
    served, browsers
):
    driver = open_lag(served, browsers, "uk")
    driver.find_element(By.NAME, "A-distance").send_keys("90")

    driver.find_element(By.CSS_SELECTOR, "#lag-form button[type=submit]").click()

    error = driver.find_element(By.ID, "form-error")
    wait_until(driver, lambda d: error.text, "the form's error")
    assert error.text == (
        "Виберіть переможця розіграшу початкового удару або вкажіть обидві відстані."
    )
    assert driver.find_element(By.ID, "queue-panel").get_attribute("hidden") is not None
    assert stored() == []


def test_a_winner_its_fault_contradicts_is_refused_in_the_page_language_naming_the_winner(
    served, browsers
):
    driver = open_lag(served, browsers, "uk")
    driver.find_element(By.CSS_SELECTOR, "#lag-form label.lag-won:nth-of-type(1)").click()
    driver.execute_script(
        "const s = document.querySelector('#lag-form select[name=\"A-fault\"]');"
        "s.value = 'long_cushion'; s.dispatchEvent(new Event('change', {bubbles: true}));"
    )

    driver.find_element(By.CSS_SELECTOR, "#lag-form button[type=submit]").click()

    panel = driver.find_element(By.ID, "queue-panel")
    wait_until(driver, lambda d: panel.get_attribute("data-paused") == "refused", "refused")
    why = driver.find_element(By.ID, "queue-why").text
    assert "за вказаними порушеннями й відстанями переможець — гравець B" in why, why
    assert "winner" in why, why
    assert stored() == []
    driver.execute_script("arguments[0].scrollIntoView()", panel)
    save_shot(driver, "console-lag-refused-uk-390")
