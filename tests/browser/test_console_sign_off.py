"""Signing a finished match off on the referee's console, in a real browser."""

from __future__ import annotations

from selenium.webdriver.common.by import By

from matches import services
from matches.models import Match
from matches.services.pins import player_pin
from tests.support.browser import log_in, make_user, wait_until
from tests.support.decided_early import played_2_1

MATCH = "cup-sign-off-1"


def said(driver) -> str:
    return driver.find_element(By.ID, "sign-off-said").text


def test_the_referee_and_both_players_sign_the_result_off_and_a_wrong_pin_is_said(served, chromium):
    last = played_2_1(MATCH)
    referee = make_user("petrenko")
    services.referee_assign(match_id=MATCH, username="petrenko", by="federation")
    log_in(chromium, served, referee)
    chromium.get(f"{served.url}/referee/matches/{MATCH}/")
    wait_until(
        chromium, lambda d: d.find_element(By.ID, "console").get_attribute("data-seq") == str(last)
    )
    players = Match.objects.get(pk=MATCH).players
    section = chromium.find_element(By.ID, "sign-off")
    assert section.is_displayed()
    assert said(chromium) == "Nobody has confirmed the result yet."

    section.find_element(By.CSS_SELECTOR, 'form[data-role="referee"] button').click()
    wait_until(chromium, lambda d: said(d).startswith("Confirmed by the referee"))
    right = player_pin(players["A"])
    wrong = "000000" if right != "000000" else "111111"
    for role, pin in (("A", wrong), ("A", right), ("B", player_pin(players["B"]))):
        form = section.find_element(By.CSS_SELECTOR, f'form[data-role="{role}"]')
        form.find_element(By.NAME, "pin").send_keys(pin)
        form.find_element(By.TAG_NAME, "button").click()
        if pin == wrong:
            wait_until(chromium, lambda d: "PIN" in d.find_element(By.ID, "form-error").text)
            form.find_element(By.NAME, "pin").clear()

    wait_until(
        chromium,
        lambda d: said(d) == "The result is signed off by the referee and both players.",
    )
    assert all(
        form.get_attribute("data-done") == "true"
        for form in section.find_elements(By.CSS_SELECTOR, "form[data-role]")
    )
