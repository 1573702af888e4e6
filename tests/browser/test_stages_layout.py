"""A competition's stages laid out: inside the page's column on a desktop."""

from __future__ import annotations

import pytest
from django.conf import settings
from selenium.webdriver.common.by import By

from matches import services
from tests.browser.test_stages_page import NAMES
from tests.support.browser import wait_until
from tests.support.league import RULESET
from tests.support.pages import PROBLEMS
from tests.support.screens import DESKTOP, save_shot, screen

# What of `selector` reaches out of the page's column (main, within its padding).
OUT_OF_COLUMN = """
const main = document.querySelector("main");
const style = getComputedStyle(main);
const box = main.getBoundingClientRect();
const left = box.left + parseFloat(style.paddingLeft);
const right = box.right - parseFloat(style.paddingRight);
return [...document.querySelectorAll(arguments[0])]
  .map((node) => [node, node.getBoundingClientRect()])
  .filter(([, at]) => at.width && (at.left < left - 1 || at.right > right + 1))
  .map(([node, at]) => `${node.className || node.id}: ${at.left}-${at.right} (${left}-${right})`);
"""


@pytest.fixture
def grouped(event_db) -> str:
    """A cup of two groups of four, drawn, and a knockout after them, not drawn yet."""
    services.competition_create(
        id="cup",
        name="Cup",
        ruleset=RULESET,
        stages=[
            {"id": "groups", "kind": "groups", "groups": 2, "advance": 2},
            {"id": "ko", "kind": "knockout", "from": "groups"},
        ],
    )
    for seed, name in enumerate(NAMES[:8], start=1):
        services.player_enter(competition_id="cup", player={"name": name}, seed=seed, by="director")
    services.stage_draw(competition_id="cup", stage_id="groups", by="director")
    return "cup"


def opened(served, browsers, size: tuple[int, int], language: str, competition: str):
    browser = screen(browsers, size)
    if language == "uk":  # as the switcher remembers it
        browser.get(f"{served.url}/competitions/")
        browser.add_cookie({"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "path": "/"})
    browser.get(f"{served.url}/competitions/{competition}/")
    wait_until(browser, lambda d: d.find_elements(By.CSS_SELECTOR, ".group"), "the groups drawn")
    return browser


@pytest.mark.parametrize("language", ["en", "uk"])
def test_on_a_desktop_the_stages_and_their_groups_keep_to_the_page_s_column(
    served, browsers, grouped, language
):
    browser = opened(served, browsers, DESKTOP, language, grouped)

    cards = "#stages, #stages > *, .stage, .stage > *, .groups, .group"
    assert browser.execute_script(OUT_OF_COLUMN, cards) == []
    # Two groups side by side.
    groups = browser.find_elements(By.CSS_SELECTOR, ".group")
    assert len({group.location["y"] for group in groups}) == 1
    assert browser.execute_script(PROBLEMS, ".group") == []
    save_shot(browser, f"stages-desktop-{language}")
