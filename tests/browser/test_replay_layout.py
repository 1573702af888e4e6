"""The replay on a phone: the step buttons under the tables, in sight with them while stepping."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By

from matches.domain.simulator import iter_competition
from tests.support.browser import wait_until
from tests.support.replays import imported, shown_seq
from tests.support.screens import PHONE, save_shot, screen

# Whether the whole of an element is on the screen now, without scrolling.
IN_SIGHT = """
const box = arguments[0].getBoundingClientRect();
return box.top >= 0 && box.left >= 0 && box.bottom <= window.innerHeight
  && box.right <= document.documentElement.clientWidth;
"""
STEPPERS = ("[data-step=previous]", "#play", "[data-step=next]")


def in_sight(driver, selector: str) -> bool:
    return driver.execute_script(IN_SIGHT, driver.find_element(By.CSS_SELECTOR, selector))


@pytest.mark.parametrize("language", ["en", "uk"])
def test_on_a_phone_the_step_buttons_stay_in_sight_with_the_table_while_stepping(
    served, browsers, language
):
    match_id, timeline = imported(next(iter_competition(2026, 1, competition="browser")))
    # The last game: the score shows every game, the longest the moment beside the table gets.
    seq = timeline["games"][-1]["start"]
    phone = screen(browsers, PHONE, language)
    phone.get(f"{served.url}/matches/{match_id}/replay/?seq={seq}")
    wait_until(phone, lambda d: shown_seq(d) == seq, "the replay open")
    phone.execute_script("document.querySelector('.replay-board').scrollIntoView()")
    scrolled = phone.execute_script("return window.scrollY")

    for step in range(1, 4):
        assert in_sight(phone, "#table-before") and in_sight(phone, "#table-after")
        for button in STEPPERS:
            assert in_sight(phone, button), (button, step)
        # Tapped where it is: a script's click, which scrolls nothing into view first.
        phone.execute_script("document.querySelector('[data-step=next]').click()")
        wait_until(phone, lambda d, step=step: shown_seq(d) == seq + step, "one step on")

    # Stepping moved the tables, never the page under the referee's thumb.
    assert phone.execute_script("return window.scrollY") == scrolled
    save_shot(phone, f"replay-stepping-{language}")
