"""A competition's stages laid out: inside the page's column on a desktop, and a group's table
on a phone with its first columns shown and the rest behind "More columns"."""

from __future__ import annotations

import pytest
from django.conf import settings
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from tests.support.browser import wait_until
from tests.support.league import win
from tests.support.pages import PROBLEMS, broken_words
from tests.support.screens import DESKTOP, PHONE, save_shot, screen
from tests.support.stages_to_show import sixteen, two_groups

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
# The column headings a group's table shows now, in order.
HEADINGS = """
return [...document.querySelectorAll(`.group[data-group="${arguments[0]}"] thead th`)]
  .filter((th) => th.getClientRects().length).map((th) => th.textContent.trim());
"""
# Read in one script: the stages drawn again between two reads are new elements.
VERSION = "return document.getElementById('stages').dataset.version"
HEADINGS_SHOWN = {
    "en": (
        ["#", "Player", "Match points"],
        ["#", "Player", "Played", "Match points", "Games", "Points"],
    ),
    "uk": (["#", "Гравець", "Бали"], ["#", "Гравець", "Зіграно", "Бали", "Партії", "Очки"]),
}


@pytest.fixture
def grouped(event_db) -> str:
    return two_groups()


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
    # Two groups side by side, each table whole: the phone's "More columns" is not there.
    groups = browser.find_elements(By.CSS_SELECTOR, ".group")
    assert len({group.location["y"] for group in groups}) == 1
    assert browser.execute_script(HEADINGS, "A") == HEADINGS_SHOWN[language][1]
    assert not browser.find_element(By.CSS_SELECTOR, ".more-columns").is_displayed()
    assert browser.execute_script(PROBLEMS, ".group") == []
    save_shot(browser, f"stages-desktop-{language}")


def test_on_a_phone_a_bracket_keeps_to_the_page_s_column_and_scrolls_within_it(served, browsers):
    sixteen()
    browser = screen(browsers, PHONE)
    browser.get(f"{served.url}/competitions/open/")
    wait_until(browser, lambda d: d.find_elements(By.CSS_SELECTOR, ".bracket-round"), "drawn")

    assert browser.execute_script(OUT_OF_COLUMN, "#stages, .stage, .bracket-tabs, .bracket") == []
    assert browser.execute_script(PROBLEMS, ".bracket-match") == []


@pytest.mark.parametrize("language", ["en", "uk"])
def test_on_a_phone_a_group_shows_rank_player_and_points_and_more_columns_opens_the_rest(
    served, browsers, grouped, language
):
    browser = opened(served, browsers, PHONE, language, grouped)
    fewer, every = HEADINGS_SHOWN[language]

    assert browser.execute_script(HEADINGS, "A") == fewer
    assert browser.execute_script(HEADINGS, "B") == fewer
    assert browser.execute_script(PROBLEMS, ".group") == []
    # Nothing of the table hidden sideways in its box either.
    assert browser.execute_script(
        "return [...document.querySelectorAll('.group .table-scroll')]"
        ".every((box) => box.scrollWidth <= box.clientWidth)"
    )
    save_shot(browser, f"stages-phone-{language}")
    summary = browser.find_element(By.CSS_SELECTOR, '.group[data-group="A"] .more-columns summary')
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", summary)

    summary.send_keys(Keys.ENTER)  # from the keyboard, as a tap would

    wait_until(browser, lambda d: d.execute_script(HEADINGS, "A") == every, "group A whole")
    assert browser.execute_script(HEADINGS, "B") == fewer
    assert browser.execute_script(PROBLEMS, ".group") == []
    save_shot(browser, f"stages-phone-more-{language}")


def test_a_group_opened_on_a_phone_stays_open_when_a_result_redraws_the_stages(
    served, browsers, grouped
):
    browser = opened(served, browsers, PHONE, "en", grouped)
    version = int(browser.execute_script(VERSION))
    summary = browser.find_element(By.CSS_SELECTOR, '.group[data-group="A"] .more-columns summary')
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", summary)
    summary.click()
    wait_until(browser, lambda d: len(d.execute_script(HEADINGS, "A")) == 6, "group A whole")

    win("cup-groups-A1", "A")

    wait_until(
        browser,
        lambda d: int(d.execute_script(VERSION)) > version,
        "the stages drawn again",
    )
    assert browser.execute_script(HEADINGS, "A") == HEADINGS_SHOWN["en"][1]
    assert browser.execute_script(HEADINGS, "B") == HEADINGS_SHOWN["en"][0]
    won = browser.execute_script(
        "return document.querySelector('.group[data-group=\"A\"] tbody tr').innerText"
    )
    assert "1–0" in won  # the winner's games, in a column the phone shows again at once


@pytest.mark.parametrize("language", ["en", "uk"])
def test_on_a_phone_the_final_ranking_breaks_names_between_words(
    served, browsers, grouped, language
):
    browser = opened(served, browsers, PHONE, language, grouped)

    assert broken_words(browser, "table.ranking td:nth-child(2)") == []
    assert browser.execute_script(PROBLEMS, "table.ranking") == []
    # The narrowest phone, and the longest round a player goes out in.
    browser.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": 360, "height": 740, "deviceScaleFactor": 1, "mobile": True},
    )
    browser.execute_script(
        "document.querySelector('table.ranking td:nth-child(4)').textContent = arguments[0]",
        "Чвертьфінали" if language == "uk" else "Quarter-finals",
    )
    assert broken_words(browser, "table.ranking td:nth-child(2)") == []
    assert browser.execute_script(PROBLEMS, "table.ranking") == []
