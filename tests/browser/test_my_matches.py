"""A referee on a phone: the login lands on their matches, one tap opens a console."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone
from selenium.webdriver.common.by import By

from matches import services
from tests.support.browser import log_in, log_in_with_password, make_user, wait_until
from tests.support.builders import PLAYERS, new_match

REFEREE, PASSWORD = "petrenko", "referee-password"
PHONE = (390, 844)


@pytest.fixture
def referees_day(served):
    """Petrenko's matches: one tomorrow, one today, one undated; and one of another referee."""
    new_match("cup-undated")
    today = timezone.now().date()
    for match_id, date in (
        ("cup-tomorrow", today + datetime.timedelta(days=1)),
        ("cup-today", today),
    ):
        services.match_create(id=match_id, competition="cup", players=PLAYERS, date=date)
    new_match("cup-theirs")
    make_user(REFEREE, PASSWORD)
    make_user("bianchi")
    for match_id in ("cup-undated", "cup-tomorrow", "cup-today"):
        services.referee_assign(match_id=match_id, username=REFEREE, by="federation")
    services.referee_assign(match_id="cup-theirs", username="bianchi", by="federation")


def phone_of(browsers):
    """Return a browser whose page is a phone's (the window alone cannot be that narrow)."""
    driver = browsers(size=PHONE)
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": PHONE[0], "height": PHONE[1], "deviceScaleFactor": 1, "mobile": True},
    )
    return driver


def listed(driver) -> list[str]:
    return [
        row.get_attribute("data-match")
        for row in driver.find_elements(By.CSS_SELECTOR, ".my-match")
    ]


def test_a_referee_logs_in_on_a_phone_and_taps_todays_match_to_its_console(
    served, referees_day, browsers
):
    phone = phone_of(browsers)
    log_in_with_password(phone, served, REFEREE, PASSWORD)

    assert phone.current_url == f"{served.url}/referee/"
    assert listed(phone) == ["cup-today", "cup-tomorrow", "cup-undated"]
    # Each row as wide as the phone: nothing to scroll sideways.
    assert phone.execute_script("return document.documentElement.scrollWidth") <= PHONE[0]
    phone.find_element(By.CSS_SELECTOR, "[data-match=cup-today] .my-match-console").click()

    wait_until(phone, lambda d: d.find_elements(By.ID, "console"), "today's console")
    assert phone.current_url == f"{served.url}/referee/matches/cup-today/"
    assert (
        phone.find_element(By.LINK_TEXT, "My matches").get_attribute("href").endswith("/referee/")
    )


def test_the_board_offers_its_console_to_the_referee_and_not_to_a_viewer(
    served, referees_day, browsers
):
    referee, viewer = phone_of(browsers), browsers()
    log_in_with_password(referee, served, REFEREE, PASSWORD)
    viewer.get(f"{served.url}/matches/cup-today/")
    referee.get(f"{served.url}/matches/cup-today/")

    assert not viewer.find_elements(By.ID, "console-link")
    referee.find_element(By.ID, "console-link").click()
    wait_until(referee, lambda d: d.find_elements(By.ID, "console"), "the console from the board")


def test_the_board_of_another_referees_match_offers_no_console(served, referees_day, chromium):
    log_in(chromium, served, make_user(REFEREE, PASSWORD))

    chromium.get(f"{served.url}/matches/cup-theirs/")

    assert chromium.find_elements(By.ID, "connection")
    assert not chromium.find_elements(By.ID, "console-link")
