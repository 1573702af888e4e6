"""A director's day in Chromium, from the pages alone: a championship of eight in two groups
with a knockout of four and a match for third place is created, its tables set, a match
called and recorded from its console, a group result amended once both semi-finals have
begun (its preview asked twice, the same both times), a semi-final voided and replayed
with the pairing as amended, and a finished match's sheet printed.

The other tables' referees record their matches through the services, as their own
consoles would; the projector is caught up as a worker would be.
"""

from __future__ import annotations

import io
import urllib.request

import pytest
from pypdf import PdfReader
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from matches import services
from matches.models import Competition, Event, Match
from replay.projections import projector
from tests.support.amend_preview import previewed_carom_of_a
from tests.support.browser import log_in, make_user, wait_until
from tests.support.builders import BY
from tests.support.console_taps import confirm, tap
from tests.support.league import win
from tests.support.pages import text_of
from tests.support.screens import DESKTOP, save_shot, screen

NAMES = ["Rossi", "Kovalenko", "Fernández", "Marchetti", "Petrenko", "Bianchi", "Dubois", "Novak"]
CUP = "hall-cup"
CALLED = f"{CUP}-groups-A1"  # Rossi v Novak, the first of group A
FLIPPED = f"{CUP}-groups-B5"  # Kovalenko v Fernández: won by Fernández, then amended
SEMI_FINALS = (f"{CUP}-ko-1-1", f"{CUP}-ko-1-2")


def staff_form(page, action: str):
    return page.find_element(By.CSS_SELECTOR, f"form[data-action={action}]")


def said_after(page, click, sentence: str) -> None:
    """Send a staff form and wait for the page to say `sentence` (after its reload)."""
    page.execute_script("document.body.dataset.before = 'yes'")
    click()
    wait_until(
        page,
        lambda d: (
            d.execute_script("return document.body.dataset.before") is None
            and sentence in text_of(d, "#staff > [data-result]")
        ),
        f"the page saying {sentence!r}",
    )


def decide(page, url: str, match_id: str, keep: bool, reason: str) -> None:
    """Decide the dispute of a started match from the disputes page."""
    page.get(f"{url}/competitions/{CUP}/disputes/")
    card = wait_until(
        page,
        lambda d: [
            c
            for c in d.find_elements(By.CSS_SELECTOR, "[data-slot]")
            if f"/matches/{match_id}/" in c.get_attribute("innerHTML")
        ],
        f"the dispute of {match_id}",
    )[0]
    slot = card.get_attribute("data-slot")
    save_shot(page, f"day-dispute-{match_id}-1280")
    card.find_element(By.CSS_SELECTOR, f'input[name=keep][value="{str(keep).lower()}"]').click()
    card.find_element(By.NAME, "reason").send_keys(reason)
    card.find_element(By.CSS_SELECTOR, "button").click()
    page.switch_to.alert.accept()
    wait_until(
        page,
        lambda d: not d.find_elements(By.CSS_SELECTOR, f'[data-slot="{slot}"]'),
        f"the dispute of {match_id} decided",
    )


def create_the_championship(page, url: str) -> None:
    page.get(f"{url}/competitions/")
    form = page.find_element(By.CSS_SELECTOR, "form[data-create]")
    form.find_element(By.NAME, "name").send_keys("Hall Cup")
    form.find_element(By.NAME, "id").send_keys(CUP)
    form.find_element(By.NAME, "target").send_keys("4")
    form.find_element(By.NAME, "best_of").send_keys("1")
    form.find_element(By.NAME, "third_place").click()
    form.find_element(By.CSS_SELECTOR, "button").click()
    wait_until(page, lambda d: d.current_url.endswith(f"/competitions/{CUP}/"), "its page")
    assert "2 groups; the first 2 of each go on" in text_of(page, "[data-stage=groups]")
    assert "a match for third place" in text_of(page, "[data-stage=ko]")


def enter_the_players(page) -> None:
    for seed, name in enumerate(NAMES, start=1):
        form = staff_form(page, "enter")
        form.find_element(By.NAME, "name").send_keys(name)
        form.find_element(By.NAME, "seed").send_keys(str(seed))
        said_after(
            page,
            lambda: staff_form(page, "enter").find_element(By.CSS_SELECTOR, "button").click(),
            f"Entered: {name}.",
        )


def set_the_tables(page) -> None:
    form = staff_form(page, "tables")
    form.find_element(By.NAME, "tables").send_keys("1\n2\n")
    form.find_element(By.CSS_SELECTOR, "button").click()
    wait_until(
        page,
        lambda d: "The tables are saved: 1, 2." in text_of(d, "#tables"),
        "the tables saved",
    )


def draw(page, stage: str) -> None:
    button = page.find_element(
        By.CSS_SELECTOR, f"form[data-action=draw]:has(input[name=stage][value={stage}]) button"
    )
    said_after(page, button.click, "is drawn: its matches are made.")


def call_to_table_one(page, url: str) -> str:
    """Call CALLED to table 1 from the hall; return the console's address its card links."""
    page.get(f"{url}/competitions/{CUP}/hall/")
    wait_until(
        page,
        lambda d: d.find_elements(By.CSS_SELECTOR, "#call-1 option"),
        "table 1 free, its choices listed",
    )
    choice = Select(page.find_element(By.CSS_SELECTOR, "#call-1"))
    choice.select_by_value(CALLED)
    assert choice.first_selected_option.text == "Group A · round 1 · Rossi — Novak"
    page.find_element(By.CSS_SELECTOR, '.table-card[data-table="1"] .call-next button').click()
    link = wait_until(
        page,
        lambda d: d.find_elements(By.CSS_SELECTOR, '.table-card[data-table="1"] a.console-link'),
        "the called match linked to its console",
    )[0]
    assert link.text == "Group A · round 1 · Rossi — Novak"
    save_shot(page, "day-hall-called-1280")
    return link.get_attribute("href")


def record_the_called_match(page, console: str) -> None:
    """The lag, game 1 broken by A, and A's carom: the match won (to 4, best of 1)."""
    page.get(console)
    wait_until(page, lambda d: d.find_element(By.ID, "console").get_attribute("data-seq") == "0")
    tap(page, '[data-tab="game"]')
    lag = page.find_element(By.ID, "lag-form")
    lag.find_element(By.NAME, "A-distance").send_keys("90")
    lag.find_element(By.NAME, "B-distance").send_keys("150")
    tap(page, "#lag-form button[type=submit]")
    wait_until(page, lambda d: d.find_element(By.ID, "console").get_attribute("data-seq") == "1")
    tap(page, '#start-form input[name=breaker][value="A"]')
    tap(page, "#start-form button[type=submit]")
    wait_until(page, lambda d: d.find_element(By.ID, "console").get_attribute("data-seq") == "2")
    tap(page, '[data-tab="shot"]')
    tap(page, '[data-hit="yellow"]')
    page.execute_script(
        "document.querySelector('button[data-actor=\"white\"]').click();"
        "document.querySelector('button[data-hit=\"red\"]').click();"
    )
    confirm(page)
    wait_until(page, lambda d: Match.objects.get(pk=CALLED).status == "finished", "won")


@pytest.mark.journey  # a whole day's work
def test_a_director_runs_a_championship_day_from_the_pages_alone(served, browsers):
    page = screen(browsers, DESKTOP)
    director = make_user("director", staff=True)
    log_in(page, served, director)

    create_the_championship(page, served.url)
    enter_the_players(page)
    set_the_tables(page)
    draw(page, "groups")
    assert Match.objects.filter(competition_id=CUP, stage_id="groups").count() == 12
    save_shot(page, "day-groups-drawn-1280")

    record_the_called_match(page, call_to_table_one(page, served.url))
    # The other tables: every match won by side A but FLIPPED, which B wins.
    for match in Match.objects.filter(competition_id=CUP, stage_id="groups").exclude(pk=CALLED):
        win(match.pk, "B" if match.pk == FLIPPED else "A")
    projector.catch_up()
    page.get(f"{served.url}/competitions/{CUP}/")
    draw(page, "ko")
    for semi_final in SEMI_FINALS:  # both begun at their tables
        services.lag_record(
            match_id=semi_final, expected_seq=0, by=BY, a={"distance": 90}, b={"distance": 150}
        )
    projector.catch_up()
    before = {pk: Match.objects.get(pk=pk).players for pk in SEMI_FINALS}

    # The jury's amendment of a group result, previewed twice before it is confirmed.
    console = f"{served.url}/referee/matches/{FLIPPED}/"
    seq = str(Event.objects.filter(match_id=FLIPPED).count())
    first = previewed_carom_of_a(page, console, seq)
    assert "would rank 1st in group B" in first["text"]
    assert "has started and would be disputed" in first["text"]
    assert previewed_carom_of_a(page, console, seq) == first
    save_shot(page, "day-preview-1280")
    page.find_element(By.ID, "amend-reason").send_keys("video review")
    tap(page, "#confirm-shot")
    wait_until(
        page,
        lambda d: Event.objects.filter(match_id=FLIPPED).count() == int(seq) + 1,
        "the amendment recorded",
    )
    projector.catch_up()
    assert {pk: Match.objects.get(pk=pk).players for pk in SEMI_FINALS} == before  # begun

    # Both semi-finals disputed: one voided, the other kept as played. The replacement
    # waits for the second decision (its player as amended plays the other semi-final),
    # then pairs Rossi with group B's next player as amended.
    decide(page, served.url, SEMI_FINALS[0], keep=False, reason="the jury voids it")
    assert Match.objects.get(pk=SEMI_FINALS[0]).status == Match.Status.VOID
    decide(page, served.url, SEMI_FINALS[1], keep=True, reason="the jury keeps it")
    save_shot(page, "day-disputes-1280")
    projector.catch_up()
    replacement = Match.objects.get(pk=f"{SEMI_FINALS[0]}-r2")
    assert [p["name"] for p in replacement.players.values()] == ["Rossi", "Kovalenko"]
    assert [p["name"] for p in Match.objects.get(pk=SEMI_FINALS[1]).players.values()] == [
        "Fernández",
        "Marchetti",
    ]

    page.get(f"{served.url}/competitions/{CUP}/")
    page.execute_script("document.querySelector('.bracket').scrollIntoView()")
    save_shot(page, "day-bracket-1280")

    # The voided semi-final's console records nothing more and leads to its replacement.
    page.get(f"{served.url}/referee/matches/{SEMI_FINALS[0]}/")
    page.find_element(By.PARTIAL_LINK_TEXT, "Record its replacement, Rossi — Kovalenko").click()
    wait_until(
        page,
        lambda d: d.current_url.endswith(f"/referee/matches/{replacement.pk}/"),
        "the replacement's console",
    )

    # The official sheet of the match recorded at table 1.
    page.get(f"{served.url}/matches/{CALLED}/replay/")
    href = page.find_element(By.PARTIAL_LINK_TEXT, "Match sheet").get_attribute("href")
    with urllib.request.urlopen(href, timeout=20) as response:  # noqa: S310 (the test server)
        text = "".join(p.extract_text() for p in PdfReader(io.BytesIO(response.read())).pages)
    assert "Rossi" in text and "Novak" in text
    assert "director" in text  # the referee: the login that recorded it
    assert "Signatures" in text
    assert Competition.objects.get(pk=CUP).stages is not None
