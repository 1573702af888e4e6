"""The console's layout as it opens, on phones and a laptop, in both languages."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By

from matches import services
from tests.support.browser import log_in, make_user, wait_until
from tests.support.builders import new_match, open_game

MATCH = "cup-console-layout"
# CSS pixels of the page: two phones upright and a laptop.
SIZES = [(360, 740), (390, 844), (1280, 800)]
NOT_THERE = {
    "en": (
        "Not there: at the break the ball goes wholly in the lower half, clear of the centre line."
    ),
    "uk": (
        "Не тут: на початковому ударі куля лежить повністю в нижній половині, "
        "не заходячи на середню лінію."
    ),
}

# The rectangles that matter as the page opens, and whether each is the topmost thing
# at its own centre (nothing, the sticky confirm zone included, lies over it).
MEASURE = """
const box = (node) => {
  const r = node.getBoundingClientRect();
  const top = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
  return {top: r.top, bottom: r.bottom, left: r.left, right: r.right,
          seen: Boolean(top && node.contains(top))};
};
const all = (selector) => Array.from(document.querySelectorAll(selector), box);
return {
  width: innerWidth, height: innerHeight, scrollWidth: document.documentElement.scrollWidth,
  zone: box(document.querySelector(".confirm-zone")),
  bar: all("#preview, .confirm-row"),
  balls: all(".targets .balltap, [data-actor]"),
  contacts: box(document.getElementById("contacts")),
  clipped: Array.from(document.querySelectorAll("[data-tab]"))
    .filter((tab) => tab.scrollWidth > tab.clientWidth + 1).map((tab) => tab.textContent),
};
"""
FOUR_TAPS = (
    '[data-hit="yellow"]',
    '[data-hit="red"]',
    'button[data-pin="left"]',
    'button[data-pin="center"]',
)
# The page's width and its content's (a page wider than a phone is zoomed out to fit).
WIDTHS = "return [innerWidth, document.documentElement.scrollWidth];"
# The table tapped at a point of its playing surface (mm).
TAP_TABLE = """
const svg = document.getElementById("table");
const point = svg.createSVGPoint();
[point.x, point.y] = [arguments[0], arguments[1]];
const screen = point.matrixTransform(svg.querySelector("g.surface").getScreenCTM());
svg.dispatchEvent(new MouseEvent("click", { clientX: screen.x, clientY: screen.y, bubbles: true }));
"""


def inside(box: dict, width: float, height: float) -> bool:
    return 0 <= box["top"] <= box["bottom"] <= height and 0 <= box["left"] <= box["right"] <= width


def apart(one: dict, other: dict) -> bool:
    return (
        one["bottom"] <= other["top"]
        or other["bottom"] <= one["top"]
        or one["right"] <= other["left"]
        or other["right"] <= one["left"]
    )


@pytest.mark.parametrize("language", ["en", "uk"])
def test_the_ball_buttons_and_the_contacts_are_in_sight_clear_of_the_confirm_bar(
    served, browsers, language
):
    new_match(MATCH)
    referee = make_user("petrenko")
    services.referee_assign(match_id=MATCH, username="petrenko", by="federation")
    open_game(MATCH)
    driver = browsers(language)
    log_in(driver, served, referee)
    for width, height in SIZES:
        # The page's own viewport, whatever the browser's window around it; a phone's
        # scroll bars take no room.
        driver.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600},
        )
        driver.get(f"{served.url}/referee/matches/{MATCH}/")
        wait_until(driver, lambda d: d.find_elements(By.CSS_SELECTOR, '#console[data-seq="3"]'))

        shown = driver.execute_script(MEASURE)

        at = f"{language} {width}x{height}: {shown}"
        assert (shown["width"], shown["height"]) == (width, height), at
        assert shown["scrollWidth"] <= width, at  # no sideways scroll
        assert not shown["clipped"], at  # every tab's name whole
        assert len(shown["balls"]) == 6, at
        for ball in shown["balls"]:
            assert inside(ball, width, height) and ball["seen"], at
            assert apart(ball, shown["zone"]), at
        contacts = shown["contacts"]
        assert inside(contacts, width, height) and contacts["seen"], at
        assert all(apart(contacts, part) for part in shown["bar"]), at

        # Four taps and their ruling in the bar: the page still fits the screen's width.
        for selector in FOUR_TAPS:
            driver.execute_script("document.querySelector(arguments[0]).click()", selector)
        wait_until(driver, lambda d: d.find_elements(By.CSS_SELECTOR, '#preview[data-state="ok"]'))
        page, content = driver.execute_script(WIDTHS)
        assert page == width and content <= width, f"{language} {width}x{height}: {content}"

    # At the break the ball goes in the lower half: a tap in the upper half says why.
    driver.find_element(By.CSS_SELECTOR, '[data-tab="place"]').click()
    driver.execute_script(TAP_TABLE, 700, 2000)
    assert driver.find_element(By.ID, "form-error").text == NOT_THERE[language]
