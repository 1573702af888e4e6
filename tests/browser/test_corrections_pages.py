"""A correction in a real browser: the console shows what an amendment would change before
it is confirmed (a started match it would dispute), and staff decide the dispute from its
page."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By

from matches import services
from matches.models import Event, Match
from matches.selectors import assigned_referee
from replay.api.tokens import token_issue
from replay.projections import projector
from tests.support.amend_preview import previewed_carom_of_a
from tests.support.browser import log_in, make_user, wait_until
from tests.support.builders import QUIET, open_game
from tests.support.championships import championship
from tests.support.console_taps import tap
from tests.support.corrections import (
    FLIPPED,
    amend,
    drawn_with_a_flip_to_come,
    first_match_begun,
    names,
)
from tests.support.league import CAROM_B, shot, win
from tests.support.pages import text_of
from tests.support.servers import post_event


def quarter_started() -> None:
    """Groups played (Fernández beat Kovalenko in group B), the knockout drawn, ko-1-1 begun."""
    drawn_with_a_flip_to_come()
    first_match_begun()
    projector.catch_up()


def quarter_started_with_the_flip_recorded_by_the_server(served, staff: str) -> None:
    """As `quarter_started`, FLIPPED's winning shot recorded through the server: it keeps
    the match folded as a referee's server does, and a preview starts from that state."""
    championship()
    services.stage_draw(competition_id="euro", stage_id="groups", by="director")
    for match in Match.objects.filter(competition_id="euro", stage_id="groups"):
        if match.pk != FLIPPED:
            win(match.pk, "A")
    seq = shot(FLIPPED, open_game(FLIPPED), QUIET)
    posted = post_event(
        f"{served.url}/api/matches/{FLIPPED}/events",
        token_issue(staff).key,
        {"expected_seq": seq, "event": {"type": "shot", **CAROM_B}},
        timeout=10,
    )
    assert posted.status == 201, posted.body
    services.stage_draw(competition_id="euro", stage_id="ko", by="director")
    first_match_begun()
    projector.catch_up()


def test_the_console_shows_that_an_amendment_would_dispute_a_started_match_before_it_is_confirmed(
    served, chromium
):
    chief = make_user("chief", staff=True)
    quarter_started_with_the_flip_recorded_by_the_server(served, chief.username)
    log_in(chromium, served, chief)
    console = f"{served.url}/referee/matches/{FLIPPED}/"
    seq = str(Event.objects.filter(match_id=FLIPPED).count())

    box = previewed_carom_of_a(chromium, console, seq)

    said = box["text"]
    assert "would rank 1st in group B" in said
    assert "has started and would be disputed" in said
    assert box["disputes"] == "true"
    assert Event.objects.filter(match_id=FLIPPED).count() == int(seq)  # nothing recorded yet
    # Asked again, from a console opened anew: the same answer.
    assert previewed_carom_of_a(chromium, console, seq) == box

    chromium.find_element(By.ID, "amend-reason").send_keys("video review")
    tap(chromium, "#confirm-shot")
    wait_until(
        chromium,
        lambda d: Event.objects.filter(match_id=FLIPPED).count() == int(seq) + 1,
        "the amendment recorded",
    )


def test_staff_decide_a_dispute_from_its_page_and_the_bracket_shows_the_replacement(
    served, chromium
):
    quarter_started()
    amend(FLIPPED, staff=True)
    projector.catch_up()
    log_in(chromium, served, make_user("chief", staff=True))
    chromium.get(f"{served.url}/competitions/euro/disputes/")
    card = chromium.find_element(By.CSS_SELECTOR, '[data-slot="groups:B2"]')
    assert "as played" in card.text and "as amended" in card.text

    card.find_element(By.CSS_SELECTOR, 'input[name=keep][value="false"]').click()
    card.find_element(By.NAME, "reason").send_keys("the jury voids it")
    card.find_element(By.CSS_SELECTOR, "button").click()
    chromium.switch_to.alert.accept()

    wait_until(chromium, lambda d: "No dispute is open." in text_of(d, "#disputes"), "decided")
    assert Match.objects.get(pk="euro-ko-1-1").status == "void"
    assert Match.objects.filter(pk="euro-ko-1-1-r2").exists()
    projector.catch_up()
    chromium.get(f"{served.url}/competitions/euro/")
    first = wait_until(
        chromium, lambda d: d.find_elements(By.CSS_SELECTOR, "[data-slot='1-1']"), "the bracket"
    )[0]
    assert "/matches/euro-ko-1-1-r2/" in first.get_attribute("innerHTML")
    assert "the match is void, to be played again" in text_of(chromium, "#draw-history")


def test_staff_void_a_match_naming_its_replacement_s_referee_from_the_dispute_page(
    served, chromium
):
    quarter_started()
    amend(FLIPPED, staff=True)
    projector.catch_up()
    make_user("novak")
    log_in(chromium, served, make_user("chief", staff=True))
    chromium.get(f"{served.url}/competitions/euro/disputes/")
    card = chromium.find_element(By.CSS_SELECTOR, '[data-slot="groups:B2"]')
    card.find_element(By.CSS_SELECTOR, 'input[name=keep][value="false"]').click()
    card.find_element(By.NAME, "reason").send_keys("the jury voids it")
    card.find_element(By.NAME, "referee").send_keys("nobody-here")
    card.find_element(By.CSS_SELECTOR, "button").click()
    chromium.switch_to.alert.accept()
    refused = wait_until(chromium, lambda d: text_of(d, "[data-result]"), "refused")
    assert "referee" in refused and "no login" in refused
    assert Match.objects.get(pk="euro-ko-1-1").status != "void"

    field = card.find_element(By.NAME, "referee")
    field.clear()
    field.send_keys("novak")
    card.find_element(By.CSS_SELECTOR, "button").click()
    chromium.switch_to.alert.accept()

    wait_until(chromium, lambda d: "No dispute is open." in text_of(d, "#disputes"), "decided")
    assert assigned_referee(Match.objects.get(pk="euro-ko-1-1-r2")).username == "novak"


@pytest.mark.journey  # it waits for the console's next beat
def test_an_open_console_refuses_taps_once_its_match_is_voided_and_links_to_its_replacement(
    served, chromium
):
    quarter_started()
    amend(FLIPPED, staff=True)
    projector.catch_up()
    log_in(chromium, served, make_user("chief", staff=True))
    chromium.get(f"{served.url}/referee/matches/euro-ko-1-1/")
    wait_until(chromium, lambda d: d.find_element(By.ID, "console").get_attribute("data-seq"))
    recorded = Event.objects.filter(match_id="euro-ko-1-1").count()

    services.dispute_decide(
        competition_id="euro", slot="groups:B2", keep=False, reason="replay it", by="chief"
    )

    notice = wait_until(
        chromium,
        lambda d: (
            d.find_element(By.ID, "void-notice").is_displayed()
            and d.find_element(By.ID, "void-notice")
        ),
        "the console told of the void",
        timeout=25,  # within one beat of the console (15 s), never two
    )
    assert "voided by a decision" in notice.text
    assert Match.objects.get(pk="euro-ko-1-1-r2").players["B"]["name"] in notice.text
    link = notice.find_element(By.TAG_NAME, "a").get_attribute("href")
    assert link.endswith("/referee/matches/euro-ko-1-1-r2/")
    assert not chromium.find_element(By.CSS_SELECTOR, '[data-hit="red"]').is_enabled()
    assert chromium.execute_script(
        "return [...document.querySelectorAll('.controls button')].every(b => b.disabled)"
    )
    assert Event.objects.filter(match_id="euro-ko-1-1").count() == recorded


def test_a_void_match_s_console_page_links_to_its_replacement(served, chromium):
    quarter_started()
    amend(FLIPPED, staff=True)
    services.dispute_decide(
        competition_id="euro", slot="groups:B2", keep=False, reason="replay it", by="chief"
    )
    log_in(chromium, served, make_user("chief", staff=True))
    chromium.get(f"{served.url}/referee/matches/euro-ko-1-1/")

    link = chromium.find_element(By.CSS_SELECTOR, "main a.button")
    assert "Record its replacement" in link.text
    assert link.get_attribute("href").endswith("/referee/matches/euro-ko-1-1-r2/")


def test_the_bracket_names_a_made_match_s_players_as_its_schedule_does_while_its_slot_is_open(
    served, chromium
):
    drawn_with_a_flip_to_come()
    last = Event.objects.filter(match_id=FLIPPED).count()
    services.shot_retract(
        match_id=FLIPPED, expected_seq=last, by="jury", shot=last, reason="entered twice"
    )
    projector.catch_up()
    chromium.get(f"{served.url}/competitions/euro/")

    bracket = chromium.find_elements(By.CSS_SELECTOR, "[data-slot='1-1'] .bracket-line")
    scheduled = chromium.find_element(By.CSS_SELECTOR, "tr[data-match='euro-ko-1-1'] .players")
    assert [line.text for line in bracket] == list(names("euro-ko-1-1"))
    assert all(line.text in scheduled.text for line in bracket)


def test_a_knockout_with_an_open_dispute_reads_provisional_not_settled(served, chromium):
    drawn_with_a_flip_to_come()
    for match_id in ("euro-ko-1-1", "euro-ko-1-2"):
        win(match_id, "A")
    projector.catch_up()
    for match_id in ("euro-ko-2-1", "euro-ko-3rd"):
        win(match_id, "A")
    amend(FLIPPED, staff=True)
    projector.catch_up()
    chromium.get(f"{served.url}/competitions/euro/")

    heading = chromium.find_element(By.ID, "stage-ko").text
    assert "provisional" in heading and "settled" not in heading
    assert "settled" in chromium.find_element(By.ID, "stage-groups").text
