"""The home page's "Live now" in a real browser: a match that starts appears, its score
moves and a finished one leaves, without a reload."""

from __future__ import annotations

from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from matches import services
from tests.support.browser import wait_until
from tests.support.builders import BY, CAROM_A, new_match, open_game, play


def card_score(driver: WebDriver, match_id: str) -> list[str] | None:
    """Return each game's score on a match's card, None while it has no card."""
    try:
        card = driver.find_element(By.CSS_SELECTOR, f'[data-live-list] [data-match="{match_id}"]')
        return [game.text for game in card.find_elements(By.CSS_SELECTOR, ".game-score")]
    except (NoSuchElementException, StaleElementReferenceException):
        return None


def test_live_now_follows_a_match_from_its_start_to_its_end_without_a_reload(served, chromium):
    chromium.get(f"{served.url}/")
    assert chromium.find_element(By.CSS_SELECTOR, "[data-live-empty]").is_displayed()
    chromium.execute_script("window.sameDocument = true")

    match = new_match("cup-live-1", "cup")
    seq = play(match.id, open_game(match.id), CAROM_A)
    wait_until(chromium, lambda d: card_score(d, match.id) == ["4:0"], "the match appears")
    assert not chromium.find_element(By.CSS_SELECTOR, "[data-live-empty]").is_displayed()

    seq = play(match.id, play(match.id, seq), CAROM_A)  # B plays, then A caroms again
    wait_until(chromium, lambda d: card_score(d, match.id) == ["8:0"], "its score moves")

    services.match_forfeit(match_id=match.id, expected_seq=seq, by=BY, player="B", reason="left")
    wait_until(
        chromium,
        lambda d: d.find_element(By.CSS_SELECTOR, "[data-live-empty]").is_displayed(),
        "the finished match leaves",
    )
    assert card_score(chromium, match.id) is None
    assert chromium.execute_script("return window.sameDocument") is True
