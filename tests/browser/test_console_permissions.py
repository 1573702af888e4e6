"""Who gets a match's console in a browser: its referee and staff; a viewer never does."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By

from matches import services
from tests.support.browser import (
    log_in,
    log_in_with_password,
    make_user,
    submit_login,
    wait_until,
)
from tests.support.builders import new_match

REFEREE, PASSWORD = "petrenko", "referee-password"
# The HTTP status of the page the browser shows (Chromium reports it since version 109).
STATUS = "return performance.getEntriesByType('navigation')[0].responseStatus"


@pytest.fixture
def served_console_match(served):
    created = new_match("cup-browser-1")
    make_user(REFEREE, PASSWORD)
    services.referee_assign(match_id=created.id, username=REFEREE, by="federation")
    return created


def console_of(match) -> str:
    return f"/referee/matches/{match.id}/"


def has_console(driver) -> bool:
    return bool(driver.find_elements(By.ID, "console"))


def test_a_viewer_is_asked_to_log_in_and_the_referee_then_gets_the_console(
    served, served_console_match, chromium
):
    chromium.get(served.url + console_of(served_console_match))

    assert chromium.current_url.startswith(f"{served.url}/login/?next=")
    assert not has_console(chromium)
    submit_login(chromium, REFEREE, PASSWORD)
    assert chromium.current_url == served.url + console_of(served_console_match)
    wait_until(chromium, has_console, "the console after logging in")


def test_a_wrong_password_stays_on_the_login_page_and_opens_no_console(
    served, served_console_match, chromium
):
    chromium.get(served.url + console_of(served_console_match))
    chromium.find_element(By.ID, "id_username").send_keys(REFEREE)
    chromium.find_element(By.ID, "id_password").send_keys("not-the-password")
    chromium.find_element(By.CSS_SELECTOR, "form.login [type=submit]").click()

    wait_until(chromium, lambda d: d.find_elements(By.CSS_SELECTOR, "[role=alert]"), "an error")
    assert "/login/" in chromium.current_url
    assert not has_console(chromium)


def test_a_login_assigned_to_no_match_gets_403_and_no_console(
    served, served_console_match, chromium
):
    log_in(chromium, served, make_user("spectator", "spectator-password"))

    chromium.get(served.url + console_of(served_console_match))

    assert chromium.execute_script(STATUS) == 403
    assert not has_console(chromium)


def test_the_referee_of_another_match_gets_403_for_this_one(served, served_console_match, chromium):
    other = new_match("cup-browser-2")
    make_user("bianchi", "other-password")
    services.referee_assign(match_id=other.id, username="bianchi", by="federation")
    log_in_with_password(chromium, served, "bianchi", "other-password")

    chromium.get(served.url + console_of(served_console_match))

    assert chromium.execute_script(STATUS) == 403
    assert not has_console(chromium)
    chromium.get(served.url + console_of(other))
    assert chromium.execute_script(STATUS) == 200
    assert has_console(chromium)


def test_staff_get_the_console_of_a_match_assigned_to_someone_else(
    served, served_console_match, chromium
):
    log_in(chromium, served, make_user("federation", "staff-password", staff=True))

    chromium.get(served.url + console_of(served_console_match))

    assert chromium.execute_script(STATUS) == 200
    assert has_console(chromium)
