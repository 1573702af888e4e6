"""A competition's page in a real browser: the standings change without a reload when an
amendment flips a result, with the move shown and the change explained; in Ukrainian too."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from matches import services
from matches.models import Match, Player
from replay.projections import projector
from replay.queries.player_keys import player_key
from tests.support.browser import log_in, make_user, wait_until
from tests.support.hostile import AWKWARD_IDS, IDS_FROM_BEFORE
from tests.support.league import flip, league, win
from tests.support.pages import text_of


def played() -> tuple[Match, int]:
    """A league whose first match B won, projected: amending its shot 1 makes A win."""
    cup = league()
    seq = win(cup[0], "B")
    projector.catch_up()
    return Match.objects.get(pk=cup[0]), seq


def leader(driver: WebDriver) -> str:
    return text_of(driver, "[data-rows] tr td:nth-child(3)")


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
    # The table is drawn again at each version: read it once it holds still.
    wait_until(chromium, lambda d: text_of(d, "[data-rows] tr .move") == "▲1", "A moved up")
    wait_until(
        chromium,
        lambda d: (
            f"Amendment to shot 1 (game 1) of {a} v {b}, by petrenko"
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
    assert "Виправлено рішення: удар 1 (партія 1)" in history and "1-ше місце" in history
    assert chromium_uk.find_element(By.ID, "standings-heading").text == "Турнірна таблиця"


@pytest.mark.journey  # a director's work from the pages
def test_staff_enter_players_and_schedule_the_round_robin_from_the_page(served, chromium):
    services.competition_create(id="open", name="Open", ruleset={"target": 4, "best_of": 1})
    log_in(chromium, served, make_user("federation", staff=True))
    chromium.get(f"{served.url}/competitions/open/")
    for name in ("Anna Bianchi", "Bohdan Melnyk", "Chiara Conti"):
        form = chromium.find_element(By.CSS_SELECTOR, "form[data-action=enter]")
        form.find_element(By.NAME, "name").send_keys(name)
        form.find_element(By.CSS_SELECTOR, "button").click()
        wait_until(chromium, lambda d, name=name: name in text_of(d, "#entrants"), "entered")

    form = chromium.find_element(By.CSS_SELECTOR, "form[data-action=round-robin]")
    form.find_element(By.CSS_SELECTOR, "button").click()

    wait_until(
        chromium,
        lambda d: text_of(d, "#schedule-heading + div tbody").count(" v ") == 3,
        "the round robin's three matches are scheduled",
    )
    assert Match.objects.filter(competition_id="open").count() == 3


def test_the_standings_drawn_live_link_each_players_page_whatever_their_id(served, chromium):
    entrants = [
        {"name": "Slash", "federation_id": "UA/7"},
        {"name": "Tilde", "federation_id": "~5"},
        {"name": "Tabby", "federation_id": "PLACEHOLDER"},
        {"name": "Anna Bianchi"},
    ]
    cup = league(entrants=entrants)
    Player.objects.filter(name="Tabby").update(federation_id=" UA\t7")  # from before the rule
    chromium.get(f"{served.url}/competitions/cup/")
    wait_until(
        chromium,
        lambda d: d.find_element(By.CSS_SELECTOR, "[data-status]").text == "Live",
        "the page connects to the standings",
    )
    samples = [[federation_id, 7] for federation_id in [*AWKWARD_IDS, *IDS_FROM_BEFORE, None, ""]]
    keys = chromium.execute_async_script(
        "const [samples, done] = arguments;"
        "import('/static/replay/player-key.js')"
        ".then((module) => done(samples.map(([id, pk]) => module.playerKey(id, pk))));",
        samples,
    )
    assert keys == [player_key(federation_id, pk) for federation_id, pk in samples]

    for match_id in cup[:2]:  # round 1: each player plays once
        win(match_id, "A")
    projector.catch_up()
    wait_until(
        chromium,
        lambda d: (
            len(d.find_elements(By.CSS_SELECTOR, "[data-rows] tr td.player a")) == 4
            and d.execute_script(
                "return Number(document.getElementById('standings').dataset.version)"
            )
        ),
        "the results reach the page",
    )
    links = {
        a.text: a.get_attribute("href")
        for a in chromium.find_elements(By.CSS_SELECTOR, "[data-rows] tr td.player a")
    }
    assert set(links) == {entrant["name"] for entrant in entrants}
    for name, href in links.items():
        chromium.get(href)
        assert chromium.find_element(By.TAG_NAME, "h1").text.startswith(name), (name, href)
