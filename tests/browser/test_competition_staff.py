"""The staff's forms on a competition's page in Chromium: the hall's tables set and shown
back, and a message after each action."""

from __future__ import annotations

from selenium.webdriver.common.by import By

from matches import services
from matches.models import Table
from tests.browser.test_standings_page import text_of
from tests.support.browser import log_in, make_user, wait_until
from tests.support.league import RULESET
from tests.support.screens import SCREENS, overflowing, save_shot, screen


def tables_of(competition: str) -> list[str]:
    return list(Table.objects.filter(competition_id=competition).values_list("name", flat=True))


def test_a_director_sets_the_tables_and_the_form_shows_what_was_stored(served, browsers):
    services.competition_create(id="cup", name="Cup", ruleset=RULESET)
    page = browsers()
    log_in(page, served, make_user("director", staff=True))
    page.get(f"{served.url}/competitions/cup/")
    form = page.find_element(By.CSS_SELECTOR, "form[data-action=tables]")

    form.find_element(By.NAME, "tables").send_keys("1\n2\n\n  Show table \n")
    form.find_element(By.CSS_SELECTOR, "button").click()

    wait_until(
        page,
        lambda d: "The tables are saved: 1, 2, Show table." in text_of(d, "#tables"),
        "the tables saved",
    )
    assert tables_of("cup") == ["1", "2", "Show table"]
    assert form.find_element(By.NAME, "tables").get_attribute("value") == "1\n2\nShow table"
    page.get(f"{served.url}/competitions/cup/")
    shown = page.find_element(By.CSS_SELECTOR, "form[data-action=tables] textarea")
    assert shown.get_attribute("value").split() == ["1", "2", "Show", "table"]
    page.get(f"{served.url}/competitions/cup/hall/")
    wait_until(page, lambda d: len(d.find_elements(By.CSS_SELECTOR, ".table-card")) == 3, "cards")


def test_a_table_named_twice_is_refused_naming_the_line(served, browsers):
    services.competition_create(id="cup", name="Cup", ruleset=RULESET)
    page = browsers()
    log_in(page, served, make_user("director", staff=True))
    page.get(f"{served.url}/competitions/cup/")
    form = page.find_element(By.CSS_SELECTOR, "form[data-action=tables]")

    form.find_element(By.NAME, "tables").send_keys("1\n1\n")
    form.find_element(By.CSS_SELECTOR, "button").click()

    wait_until(page, lambda d: "(tables[1])" in text_of(d, "#tables"), "refused")
    assert tables_of("cup") == []


def test_the_tables_form_reads_well_on_a_phone_and_a_desktop(served, browsers):
    services.competition_create(id="cup", name="Cup", ruleset=RULESET)
    services.tables_set(competition_id="cup", names=["1", "2", "3"], by="federation")
    for size in SCREENS:
        page = screen(browsers, size)
        log_in(page, served, make_user("director", staff=True))
        page.get(f"{served.url}/competitions/cup/")
        form = page.find_element(By.CSS_SELECTOR, "form[data-action=tables]")
        page.execute_script("arguments[0].scrollIntoView()", form)

        assert overflowing(page, "#staff") == []
        save_shot(page, f"competition-tables-{size[0]}")


def test_a_hall_without_tables_leads_staff_to_the_form_that_sets_them(served, browsers):
    services.competition_create(id="cup", name="Cup", ruleset=RULESET)
    page = browsers()
    log_in(page, served, make_user("director", staff=True))
    page.get(f"{served.url}/competitions/cup/hall/")
    link = wait_until(
        page,
        lambda d: (
            d.find_elements(By.CSS_SELECTOR, "#hall .empty a")
            if "live" in (d.find_element(By.CSS_SELECTOR, "[data-status]").get_attribute("class"))
            else None
        ),
        "the hall live",
    )

    link[0].click()

    wait_until(page, lambda d: d.current_url.endswith("/competitions/cup/#tables"), "the form")
    assert page.find_element(By.CSS_SELECTOR, "form[data-action=tables] textarea").is_displayed()
