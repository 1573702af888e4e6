"""The staff's forms on a competition's page in Chromium: the hall's tables set and shown
back, and a message after each action."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By

from matches import services
from matches.models import Table
from tests.support.browser import log_in, make_user, wait_until
from tests.support.league import RULESET, league
from tests.support.pages import text_of
from tests.support.screens import PHONE, SCREENS, overflowing, save_shot, screen


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


@pytest.mark.parametrize(
    ("language", "said", "not_said"),
    [("en", "table '1' is named twice", "двічі"), ("uk", "стіл '1' названо двічі", "named twice")],
)
def test_a_table_named_twice_is_refused_naming_the_line_in_the_page_s_language(
    served, browsers, language, said, not_said
):
    services.competition_create(id="cup", name="Cup", ruleset=RULESET)
    page = browsers(language=language)
    log_in(page, served, make_user("director", staff=True))
    page.get(f"{served.url}/competitions/cup/")
    form = page.find_element(By.CSS_SELECTOR, "form[data-action=tables]")

    form.find_element(By.NAME, "tables").send_keys("1\n1\n")
    form.find_element(By.CSS_SELECTOR, "button").click()

    wait_until(page, lambda d: "(tables[1])" in text_of(d, "#tables"), "refused")
    assert said in text_of(page, "#tables") and not_said not in text_of(page, "#tables")
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


def said(driver, selector: str = "#staff > [data-result]") -> str:
    return text_of(driver, selector)


def act_and_reload(driver, selector: str, sentence: str, confirm: bool = False) -> None:
    """Send a staff form and wait for the page loaded again to say `sentence`."""
    driver.execute_script("document.body.dataset.before = 'yes'")
    driver.find_element(By.CSS_SELECTOR, selector).click()
    if confirm:
        driver.switch_to.alert.accept()
    wait_until(
        driver,
        lambda d: (
            d.execute_script("return document.body.dataset.before") is None and said(d) == sentence
        ),
        f"the page loaded again, saying {sentence!r}",
    )


def test_each_staff_action_is_followed_by_a_sentence_saying_what_was_done(served, browsers):
    services.competition_create(
        id="cup",
        name="Cup",
        ruleset=RULESET,
        stages=[{"id": "groups", "kind": "groups", "groups": 2}],
    )
    for seed, name in enumerate(["Olena Kovalenko", "Ivan Petrenko", "Anna Bianchi"], 1):
        services.player_enter(
            competition_id="cup", player={"name": name}, seed=seed, by="federation"
        )
    page = screen(browsers, PHONE)
    log_in(page, served, make_user("director", staff=True))
    page.get(f"{served.url}/competitions/cup/")

    form = page.find_element(By.CSS_SELECTOR, "form[data-action=enter]")
    form.find_element(By.NAME, "name").send_keys("Marco Marchetti")
    form.find_element(By.NAME, "seed").send_keys("4")
    act_and_reload(page, "form[data-action=enter] button", "Entered: Marco Marchetti.")
    assert "Marco Marchetti" in text_of(page, "#entrants")

    act_and_reload(
        page, "form[data-action=draw] button", "Group stage is drawn: its matches are made."
    )
    save_shot(page, "competition-said-390")

    act_and_reload(
        page,
        "form[data-action=undo] button",
        "The draw of Group stage is undone: its matches are removed.",
        confirm=True,
    )
    page.refresh()
    assert said(page) == ""  # said once, not at every load


@pytest.mark.journey  # a director's work from the pages
def test_a_competition_created_shows_its_stages_set_up_as_stored(served, browsers):
    for size in SCREENS:
        page = screen(browsers, size)
        log_in(page, served, make_user("director", staff=True))
        page.get(f"{served.url}/competitions/")
        form = page.find_element(By.CSS_SELECTOR, "form[data-create]")
        form.find_element(By.NAME, "name").send_keys(f"Grand Prix {size[0]}")
        form.find_element(By.NAME, "target").send_keys("100")
        form.find_element(By.NAME, "third_place").click()
        form.find_element(By.NAME, "knockout_target").send_keys("120")
        form.find_element(By.NAME, "knockout_best_of").send_keys("5")
        form.find_element(By.CSS_SELECTOR, "button").click()

        wait_until(
            page,
            lambda d, size=size: (
                text_of(d, "[data-created]")
                == f"Created: Grand Prix {size[0]}. Its stages are shown as stored."
            ),
            "the creation said",
        )
        assert text_of(page, "[data-stage=groups] [data-setup]") == (
            "2 groups; the first 2 of each go on; games to 100 points, best of 3."
        )
        assert text_of(page, "[data-stage=ko] [data-setup]") == (
            "the qualifiers of Group stage; round one as large as the players need; "
            "a match for third place; games to 120 points, best of 5."
        )
        assert overflowing(page, "main") == []
        save_shot(page, f"competition-created-{size[0]}")


def test_a_refusal_is_said_beside_the_button_of_the_form_that_was_sent(served, browsers):
    league()
    page = screen(browsers, PHONE)
    log_in(page, served, make_user("director", staff=True))
    page.get(f"{served.url}/competitions/cup/")
    form = page.find_element(By.CSS_SELECTOR, "form[data-action=referee]")
    form.find_element(By.NAME, "username").send_keys("nobody-such")
    page.execute_script("arguments[0].scrollIntoView()", form)

    form.find_element(By.CSS_SELECTOR, "button").click()

    line = wait_until(
        page,
        lambda d: d.find_elements(By.CSS_SELECTOR, "form[data-action=referee] [data-result]"),
        "the form's own status line",
    )[0]
    wait_until(page, lambda d: "(username)" in line.text, "the refusal said")
    assert line.is_displayed() and "refused" in line.get_attribute("class")
    assert said(page) == ""  # nothing at the top of the section, a screen away
