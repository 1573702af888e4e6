"""The confirm bar on a phone: short enough that the contact buttons stay in view above it."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from matches import services
from tests.support.browser import log_in, make_user, wait_until
from tests.support.builders import CAROM_A, new_match, open_game
from tests.support.screens import PHONE, save_shot, screen

MATCH = "cup-console-bar"
# The bar, and every button a shot is tapped with, as the screen shows them.
MEASURE = """
const box = (node) => {
  const r = node.getBoundingClientRect();
  return {name: node.dataset.hit || node.dataset.pin || node.dataset.actor || node.id,
          top: r.top, bottom: r.bottom};
};
return {
  bar: box(document.querySelector(".confirm-zone")),
  buttons: Array.from(document.querySelectorAll(".targets .tap, [data-actor]"), box),
};
"""
# The page scrolled as a referee's thumb leaves it: the moving-ball row at the top.
TO_THE_BUTTONS = "document.querySelector('.row.actors').scrollIntoView({block: 'start'});"
# B's shot: the yellow on the white, the white on the red, the red off the table; a foul
# whose ruling is among the longest to say, in Ukrainian above all.
OFF_THE_TABLE = ('[data-hit="white"]', '[data-hit="red"]', '[data-hit="off"]')


def click(driver: WebDriver, selector: str) -> None:
    driver.execute_script("document.querySelector(arguments[0]).click()", selector)


def ruled(driver: WebDriver) -> None:
    wait_until(driver, lambda d: d.find_elements(By.CSS_SELECTOR, '#preview[data-state="ok"]'))


def assert_the_buttons_are_in_view_above_a_short_bar(driver: WebDriver, at: str) -> None:
    driver.execute_script(TO_THE_BUTTONS)
    shown = driver.execute_script(MEASURE)
    bar = shown["bar"]
    assert bar["bottom"] - bar["top"] <= PHONE[1] / 5, f"{at}: {bar}"
    assert bar["bottom"] <= PHONE[1] + 1, f"{at}: {bar}"  # at the screen's foot
    for button in shown["buttons"]:
        assert 0 <= button["top"] and button["bottom"] <= bar["top"], f"{at}: {button} {bar}"


@pytest.mark.parametrize("language", ["en", "uk"])
def test_the_confirm_bar_leaves_the_contact_buttons_in_view_in_a_shot_and_an_amendment(
    served, browsers, language
):
    new_match(MATCH)
    referee = make_user("petrenko")
    services.referee_assign(match_id=MATCH, username="petrenko", by="federation")
    # A's kiss carom with no rest given: where the white and the yellow lie is unknown.
    services.shot_record(
        match_id=MATCH, expected_seq=open_game(MATCH), by="petrenko", facts=CAROM_A
    )
    driver = screen(browsers, PHONE, language)
    log_in(driver, served, referee)
    driver.get(f"{served.url}/referee/matches/{MATCH}/")
    wait_until(driver, lambda d: d.find_elements(By.CSS_SELECTOR, '#console[data-seq="4"]'))

    for selector in OFF_THE_TABLE:
        click(driver, selector)
    ruled(driver)

    assert driver.find_element(By.ID, "unknown-balls").is_displayed()  # a warning shown
    assert driver.find_element(By.ID, "preview").get_attribute("data-verdict") == "foul"
    assert_the_buttons_are_in_view_above_a_short_bar(driver, f"{language}, a shot")
    save_shot(driver, f"console-bar-shot-{language}")

    click(driver, '[data-tab="correct"]')
    wait_until(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#shot-list button.amend"))
    click(driver, "#shot-list button.amend")
    wait_until(driver, lambda d: d.find_element(By.ID, "amend-compare").is_displayed())
    click(driver, 'button[data-pin="top"]')
    ruled(driver)

    assert_the_buttons_are_in_view_above_a_short_bar(driver, f"{language}, an amendment")
    save_shot(driver, f"console-bar-amendment-{language}")
