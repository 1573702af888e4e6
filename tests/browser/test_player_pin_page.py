"""A player's PIN in Chromium: staff issue a new one from the player's page, on a phone and a
desktop."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By

from matches.models import PinShown, Player
from matches.services.pins import pin_matches
from tests.support.browser import log_in, make_user, wait_until
from tests.support.league import league
from tests.support.screens import SCREENS, overflowing, save_shot, screen


@pytest.mark.journey  # a director's work from the pages
def test_a_director_issues_a_player_a_new_pin_from_the_players_page(served, browsers):
    league()
    olena = Player.objects.get(federation_id="UA-101")
    for size in SCREENS:
        page = screen(browsers, size)
        log_in(page, served, make_user("director", staff=True))
        page.get(f"{served.url}/players/UA-101/")
        page.execute_script("document.querySelector('.staff-pin').scrollIntoView()")
        save_shot(page, f"player-page-pin-{size[0]}")

        page.find_element(By.CSS_SELECTOR, ".staff-pin button").click()

        pin = wait_until(page, lambda d: d.find_elements(By.CSS_SELECTOR, "[data-pin]"), "PIN")
        assert pin_matches(olena.as_record(), pin[0].text)
        assert "director" in page.find_element(By.CSS_SELECTOR, "[data-showing]").text
        assert overflowing(page, "main") == []
        save_shot(page, f"player-pin-{size[0]}")
    assert PinShown.objects.filter(player=olena, shown_to="director").count() == 2


def test_a_visitor_is_offered_no_pin(served, chromium):
    league()
    chromium.get(f"{served.url}/players/UA-101/")

    assert chromium.find_element(By.TAG_NAME, "h1").text.startswith("Olena Kovalenko")
    assert not chromium.find_elements(By.CSS_SELECTOR, ".staff-pin")
