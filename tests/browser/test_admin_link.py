"""The navigation's "Admin" link in Chromium: shown only to a login the admin lets in."""

from __future__ import annotations

from selenium.webdriver.common.by import By

from tests.support.browser import log_in, make_user


def nav_links(driver) -> dict[str, str]:
    return {
        link.text: link.get_attribute("href")
        for link in driver.find_elements(By.CSS_SELECTOR, "nav.site a")
    }


def test_staff_without_a_right_in_the_admin_are_not_shown_its_link(served, chromium):
    log_in(chromium, served, make_user("director", staff=True))
    chromium.get(f"{served.url}/")

    assert "Competitions" in nav_links(chromium)
    assert "Admin" not in nav_links(chromium)


def test_a_superuser_is_shown_the_admin_link_and_it_opens_the_admin(served, chromium):
    user = make_user("chief", staff=True)
    user.is_superuser = True
    user.save()
    log_in(chromium, served, user)
    chromium.get(f"{served.url}/")

    chromium.get(nav_links(chromium)["Admin"])

    assert "/admin/" in chromium.current_url
    assert "permission" not in chromium.find_element(By.TAG_NAME, "body").text


def test_a_visitor_is_not_shown_the_admin_link(served, chromium):
    chromium.get(f"{served.url}/")

    assert "Admin" not in nav_links(chromium)
