"""A competition's page in a real browser: the standings change without a reload when an
amendment flips a result, with the move shown and the change explained; in Ukrainian too."""

from __future__ import annotations

from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from matches.models import Match
from replay import projector
from tests.browser.conftest import wait_until
from tests.standings.league import flip, league, win


def played() -> tuple[Match, int]:
    """A league whose first match B won, projected: amending its shot 4 makes A win."""
    cup = league()
    seq = win(cup[0], "B")
    projector.catch_up()
    return Match.objects.get(pk=cup[0]), seq


def leader(driver: WebDriver) -> str:
    return driver.find_element(By.CSS_SELECTOR, "[data-rows] tr td:nth-child(3)").text


def test_the_standings_follow_a_flipped_result_without_a_reload(served, chromium):
    match, seq = played()
    a, b = match.players["A"]["name"], match.players["B"]["name"]
    chromium.get(f"{served.url}/competitions/cup/")
    wait_until(
        chromium,
        lambda d: d.find_element(By.CSS_SELECTOR, "[data-status]").text == "Live",
        "the page connects to the standings",
    )
    assert leader(chromium) == b
    chromium.execute_script("window.sameDocument = true")

    flip(match.pk, seq, by="petrenko")
    projector.catch_up()  # as a worker would; the server hears it, or looks within a second

    wait_until(chromium, lambda d: leader(d) == a, "the flipped result reaches the page")
    row = chromium.find_element(By.CSS_SELECTOR, "[data-rows] tr")
    assert row.find_element(By.CSS_SELECTOR, ".move .up").text == "▲1"
    wait_until(
        chromium,
        lambda d: (
            f"Amendment to shot 4 of {a} v {b}, by petrenko: {a} now wins 1–0"
            in d.find_element(By.CSS_SELECTOR, "[data-history]").text
        ),
        "the history explains the change",
    )
    assert chromium.execute_script("return window.sameDocument") is True


def test_the_standings_page_speaks_ukrainian(served, chromium_uk):
    match, seq = played()
    flip(match.pk, seq, by="petrenko")
    projector.catch_up()

    chromium_uk.get(f"{served.url}/competitions/cup/")

    wait_until(
        chromium_uk,
        lambda d: d.find_element(By.CSS_SELECTOR, "[data-status]").text == "Наживо",
        "the page connects to the standings",
    )
    history = chromium_uk.find_element(By.CSS_SELECTOR, "[data-history]").text
    assert "Виправлення удару 4" in history and "1-ше місце" in history
    assert chromium_uk.find_element(By.ID, "standings-heading").text == "Турнірна таблиця"
