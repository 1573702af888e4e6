"""The hall page in Chromium: every table live, a quiet console flagged, readable on a
hall's screen and on a phone."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from selenium.webdriver.common.by import By

from matches import services
from matches.models import Match
from matches.services.tables import current_table
from replay.projections.activity import activity_note
from tests.support.browser import log_in, make_user, serving, wait_until
from tests.support.builders import new_match, open_game, play
from tests.support.corrections import FLIPPED, amend, drawn_with_a_flip_to_come, first_match_begun
from tests.support.league import league, names
from tests.support.pages import broken_words
from tests.support.screens import DESKTOP, PHONE, overflowing, save_shot, screen
from tests.support.servers import Uvicorn

QUIET_S = 4  # HALL_QUIET_SECONDS for these tests
SHOTS = os.getenv("HALL_SCREENSHOTS")  # a directory: the layout tests save their screens there


@pytest.fixture
def hall_server(event_db) -> Iterator[Uvicorn]:
    """The hall served with its quiet limit as set (minutes): no table goes quiet in a test,
    however slow the machine, so a card changes only by what the test does."""
    with serving() as server:
        yield server


@pytest.fixture
def quiet_hall_server(event_db) -> Iterator[Uvicorn]:
    """The hall served with a quiet limit of QUIET_S seconds."""
    with serving(HALL_QUIET_SECONDS=str(QUIET_S)) as server:
        yield server


def hall_of(tables: int) -> None:
    """A competition "cup" of `tables` tables, each with a match under way, just heard."""
    names = [str(number) for number in range(1, tables + 1)]
    for name in names:
        new_match(f"cup-a-{name}")
    services.tables_set(competition_id="cup", names=names, by="federation")
    for name in names:
        services.match_assign_table(match_id=f"cup-a-{name}", table=name, by="federation")
        open_game(f"cup-a-{name}")
        activity_note(f"cup-a-{name}")
    new_match("cup-b-1")  # waiting for a table


# Read in one script: a card drawn again between finding it and reading it is a new
# element, and the old one's reference would be stale.
CARD = 'const card = document.querySelector(`.table-card[data-table="${arguments[0]}"]`);'


def card_text(driver, table: str) -> str:
    return driver.execute_script(f"{CARD} return card ? card.innerText : '';", table)


def read(driver, selector: str, attribute: str) -> str:
    return driver.execute_script(
        "return document.querySelector(arguments[0])[arguments[1]];", selector, attribute
    )


def card_classes(driver, table: str) -> str:
    return driver.execute_script(f"{CARD} return card ? card.className : '';", table)


def test_an_event_on_one_table_moves_that_table_alone(hall_server, browsers):
    hall_of(3)
    page = browsers(size=(1920, 1080))
    page.get(f"{hall_server.url}/competitions/cup/hall/")
    wait_until(
        page,
        lambda d: "live" in d.find_element(By.CSS_SELECTOR, "[data-status]").get_attribute("class"),
        "the hall live",
    )
    # Each card's element marked: a card drawn again is a new element, unmarked.
    page.execute_script(
        "document.querySelectorAll('.table-card').forEach(c => c.dataset.mark = 'old')"
    )
    before = {table: card_text(page, table) for table in ("1", "2", "3")}

    play(
        "cup-a-2",
        3,
        {"contacts": [{"ball": "white", "hit": "yellow"}, {"ball": "white", "hit": "red"}]},
    )

    wait_until(
        page,
        lambda d: (
            d.execute_script(
                "return document.querySelector('.table-card[data-table=\"2\"]').dataset.mark"
            )
            is None
        ),
        "table 2 drawn again",
        timeout=30,
    )
    marks = page.execute_script(
        "return [...document.querySelectorAll('.table-card')].map(c => c.dataset.mark || '')"
    )
    assert marks == ["old", "", "old"]
    assert card_text(page, "1") == before["1"] and card_text(page, "3") == before["3"]
    assert read(page, '.table-card[data-table="2"] .side-A .score', "innerText") == "4"


def test_a_quiet_console_is_flagged_in_words(quiet_hall_server, browsers):
    hall_of(3)
    page = browsers()
    page.get(f"{quiet_hall_server.url}/competitions/cup/hall/")
    # Nothing heard from any table for QUIET_S seconds: each is flagged; an event on one
    # table brings it back.
    wait_until(
        page,
        lambda d: len(d.find_elements(By.CSS_SELECTOR, ".table-card.quiet")) == 3,
        "every table quiet",
        timeout=30,
    )
    assert "quiet" in card_text(page, "1").lower()
    play("cup-a-1", 3)
    wait_until(
        page, lambda d: "quiet" not in card_classes(d, "1"), "table 1 heard again", timeout=30
    )
    assert "quiet" in card_classes(page, "2")


def test_staff_call_a_waiting_match_to_a_free_table_and_cancel_the_call(hall_server, browsers):
    hall_of(2)
    services.tables_set(competition_id="cup", names=["1", "2", "3"], by="federation")
    page = browsers()
    log_in(page, hall_server, make_user("director", staff=True))
    page.get(f"{hall_server.url}/competitions/cup/hall/")
    wait_until(page, lambda d: "free" in card_text(d, "3").lower(), "table 3 free")

    page.find_element(By.CSS_SELECTOR, '.table-card[data-table="3"] .call-next button').click()

    wait_until(page, lambda d: "match called" in card_text(d, "3").lower(), "the call shown")
    card = card_text(page, "3")
    assert "Next:" in card and "Olena Kovalenko — Marco Marchetti" in card
    assert "free" not in card.lower()
    assert current_table("cup-b-1").name == "3"

    page.find_element(By.CSS_SELECTOR, '.table-card[data-table="3"] .uncall button').click()

    wait_until(page, lambda d: "free" in card_text(d, "3").lower(), "table 3 free again")
    assert "Next:" not in card_text(page, "3")
    assert current_table("cup-b-1") is None


def test_games_won_are_named_beside_each_players_score(hall_server, browsers):
    hall_of(1)
    page = browsers()
    page.get(f"{hall_server.url}/competitions/cup/hall/")
    wait_until(page, lambda d: d.find_elements(By.CSS_SELECTOR, ".side-A .games"), "a card")

    games = '.table-card[data-table="1"] .side-A .games'
    assert read(page, games, "innerText") == "games 0"
    assert read(page, games, "title") == "Games won"


def boxes(driver) -> list[dict[str, float]]:
    return driver.execute_script(
        "return [...document.querySelectorAll('.table-card')]"
        ".map(c => c.getBoundingClientRect().toJSON())"
    )


def font_px(driver, selector: str) -> list[float]:
    return driver.execute_script(
        "return [...document.querySelectorAll(arguments[0])].map("
        "e => parseFloat(getComputedStyle(e).fontSize))",
        selector,
    )


def test_eight_tables_fit_a_hall_screen_and_a_phone_has_one_column(hall_server, browsers):
    hall_of(8)
    screen = browsers(size=(1920, 1080))
    screen.get(f"{hall_server.url}/competitions/cup/hall/")
    wait_until(
        screen,
        lambda d: len(d.find_elements(By.CSS_SELECTOR, ".table-card .score")) == 16,
        "eight cards",
    )
    bottoms = [box["bottom"] for box in boxes(screen)]
    height = screen.execute_script("return window.innerHeight")
    assert len(bottoms) == 8 and max(bottoms) <= height
    assert min(font_px(screen, ".table-card .name") + font_px(screen, ".table-card .score")) >= 28
    if SHOTS:
        screen.save_screenshot(os.path.join(SHOTS, "hall-1920.png"))

    phone = browsers(size=(390, 844))
    phone.get(f"{hall_server.url}/competitions/cup/hall/")
    wait_until(
        phone,
        lambda d: len(d.find_elements(By.CSS_SELECTOR, ".table-card .score")) == 16,
        "eight cards",
    )
    lefts = [round(box["left"]) for box in boxes(phone)]
    assert len(set(lefts)) == 1  # one column
    assert phone.execute_script(
        "return document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    )
    assert min(font_px(phone, ".table-card .name") + font_px(phone, ".table-card .score")) >= 28
    if SHOTS:
        phone.save_screenshot(os.path.join(SHOTS, "hall-phone.png"))


def test_a_call_names_the_round_links_its_console_and_is_said_as_is_its_cancel(
    hall_server, browsers
):
    made = league()
    services.tables_set(competition_id="cup", names=["1", "2"], by="federation")
    page = screen(browsers, DESKTOP)
    log_in(page, hall_server, make_user("director", staff=True))
    page.get(f"{hall_server.url}/competitions/cup/hall/")
    wait_until(page, lambda d: "free" in card_text(d, "1").lower(), "table 1 free")
    choices = page.execute_script(
        "return [...document.querySelectorAll('#call-1 option')].map(o => o.textContent)"
    )
    first = f"Round 1 · {' — '.join(names(made[0]))}"
    assert choices[0] == first
    assert {choice.split(" · ")[0] for choice in choices} == {"Round 1", "Round 2", "Round 3"}

    page.find_element(By.CSS_SELECTOR, '.table-card[data-table="1"] .call-next button').click()

    wait_until(page, lambda d: f"Called to table 1: {first}." in said(d), "the call said")
    link = wait_until(
        page,
        lambda d: d.find_elements(By.CSS_SELECTOR, '.table-card[data-table="1"] a.console-link'),
        "the called match linked",
    )[0]
    assert link.text == first
    assert link.get_attribute("href") == f"{hall_server.url}/referee/matches/{made[0]}/"
    save_shot(page, "hall-called-1280")

    page.find_element(By.CSS_SELECTOR, '.table-card[data-table="1"] .uncall button').click()

    wait_until(
        page, lambda d: f"Call cancelled: {first} waits for a table." in said(d), "cancel said"
    )
    wait_until(page, lambda d: "free" in card_text(d, "1").lower(), "table 1 free again")


def test_the_halls_staff_forms_fit_a_phone(hall_server, browsers):
    league()
    services.tables_set(competition_id="cup", names=["1", "2"], by="federation")
    services.match_call(competition_id="cup", table="2", match_id=league_match(), by="x")
    page = screen(browsers, PHONE)
    log_in(page, hall_server, make_user("director", staff=True))
    page.get(f"{hall_server.url}/competitions/cup/hall/")
    wait_until(page, lambda d: d.find_elements(By.CSS_SELECTOR, "a.console-link"), "the call")

    assert overflowing(page, "#hall") == []
    save_shot(page, "hall-called-390")


def league_match() -> str:
    return Match.objects.filter(competition_id="cup").order_by("pk").first().pk


def said(driver) -> str:
    return driver.execute_script("return document.querySelector('[data-said]').textContent")


def test_a_void_match_and_its_replacement_reach_the_hall_without_a_reload(hall_server, browsers):
    drawn_with_a_flip_to_come()
    services.tables_set(competition_id="euro", names=["1"], by="federation")
    services.match_assign_table(match_id="euro-ko-1-1", table="1", by="federation")
    first_match_begun()
    page = browsers()
    page.get(f"{hall_server.url}/competitions/euro/hall/")
    wait_until(page, lambda d: "Rossi" in card_text(d, "1"), "the semi-final at table 1")
    assert "replaced" not in card_text(page, "1").lower()

    amend(FLIPPED, staff=True)
    services.dispute_decide(
        competition_id="euro", slot="groups:B2", keep=False, reason="replay it", by="chief"
    )

    replaced = wait_until(
        page,
        lambda d: "replaced by" in card_text(d, "1") and card_text(d, "1"),
        "the void and its replacement shown",
        timeout=30,
    )
    a, b = names("euro-ko-1-1-r2")
    assert "Void" in replaced and f"{a} — {b}" in replaced
    link = page.execute_script(f"{CARD} return card.querySelector('.replaced a').href;", "1")
    assert link.endswith("/matches/euro-ko-1-1-r2/")


LONG_NAMES = {
    "A": {"name": "Maximiliano Wojciechowski", "federation_id": "PL-7"},
    "B": {"name": "Aleksandra Szczepankiewicz", "federation_id": "PL-8"},
}


@pytest.mark.parametrize("language", ["en", "uk"])
def test_on_a_phone_the_hall_breaks_names_between_words_and_each_word_fits(
    hall_server, browsers, language
):
    new_match("cup-a-1")  # the competition
    services.match_create(
        id="cup-long", competition="cup", players=LONG_NAMES, ruleset={}, referee_username="x"
    )
    services.tables_set(competition_id="cup", names=["1"], by="federation")
    services.match_assign_table(match_id="cup-long", table="1", by="federation")
    open_game("cup-long")
    page = screen(browsers, PHONE, language)
    page.get(f"{hall_server.url}/competitions/cup/hall/")
    wait_until(page, lambda d: "Szczepankiewicz" in card_text(d, "1"), "the long names shown")

    assert broken_words(page, ".table-card .name") == []
    assert overflowing(page, "#hall") == []
    assert min(font_px(page, ".table-card .name") + font_px(page, ".table-card .score")) >= 28
    save_shot(page, f"hall-long-names-{language}")
