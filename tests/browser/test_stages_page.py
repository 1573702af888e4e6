"""A competition in stages in a real browser: the bracket on a phone and on a hall's screen,
and a director creating a competition in stages, entering seeded players, drawing the groups
and undoing the draw."""

from __future__ import annotations

import pytest
from django.conf import settings
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from matches import services
from matches.models import Competition, Match
from tests.support.browser import log_in, make_user, wait_until
from tests.support.league import RULESET, win
from tests.support.pages import PROBLEMS, text_of
from tests.support.stages_to_show import NAMES, sixteen

# The match for third place is a column of its own after the final, not part of it.
ROUND_NAMES = {
    "en": ["Round 1", "Quarter-finals", "Semi-finals", "Final", "Third-place match"],
    "uk": ["Раунд 1", "Чвертьфінали", "Півфінали", "Фінал", "Матч за третє місце"],
}
# What the bracket must do on a hall's screen: every match in sight, names large enough.
BRACKET_PROBLEMS = """
const problems = [];
const width = document.documentElement.clientWidth;
const matches = document.querySelectorAll(".bracket-match");
if (!matches.length) problems.push("no bracket");
for (const match of matches) {
  const box = match.getBoundingClientRect();
  if (box.left < 0 || box.right > width) problems.push(`${match.dataset.slot} is out of sight`);
}
for (const line of document.querySelectorAll(".bracket-line:not(.open)")) {  // the names
  const size = parseFloat(getComputedStyle(line).fontSize);
  if (size < arguments[0]) problems.push(`"${line.textContent}" is ${size} px`);
}
const bracket = document.querySelector(".bracket").getBoundingClientRect();
if (bracket.height > window.innerHeight) problems.push(`the bracket is ${bracket.height} px high`);
return problems;
"""
# Which rounds' matches a phone shows in the bracket's strip, now.
ROUNDS_IN_SIGHT = """
const strip = document.querySelector(".bracket").getBoundingClientRect();
return [...document.querySelectorAll(".bracket-round")]
  .filter((round) => {
    const box = round.getBoundingClientRect();
    return box.left >= strip.left - 1 && box.right <= strip.right + 1;
  })
  .map((round) => round.querySelector("h4").textContent);
"""


def _opened(served, browsers, size: tuple[int, int], language: str):
    browser = browsers("en", size)
    browser.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": size[0], "height": size[1], "deviceScaleFactor": 1, "mobile": size[0] < 500},
    )
    if language == "uk":  # as the switcher remembers it
        browser.get(f"{served.url}/competitions/")
        browser.add_cookie({"name": settings.LANGUAGE_COOKIE_NAME, "value": "uk", "path": "/"})
    browser.get(f"{served.url}/competitions/open/")
    rounds = wait_until(
        browser,
        lambda d: d.find_elements(By.CSS_SELECTOR, ".bracket-round h4") or d.refresh(),
        "the bracket drawn",
    )
    return browser, rounds


@pytest.mark.parametrize("language", ["en", "uk"])
def test_a_sixteen_place_bracket_is_whole_on_a_hall_s_screen_each_match_joined_to_the_next(
    served, browsers, language
):
    sixteen()
    browser, rounds = _opened(served, browsers, (1920, 1080), language)

    assert [r.text for r in rounds] == ROUND_NAMES[language]
    assert len({round(r.location["y"]) for r in rounds}) == 1  # side by side
    browser.execute_script("document.querySelector('.bracket').scrollIntoView()")
    assert browser.execute_script(PROBLEMS, ".bracket-match, .group") == []
    assert browser.execute_script(BRACKET_PROBLEMS, 20) == []
    # Every match of rounds 2 to 4 joined to the two it is fed by: 8 + 4 + 2 lines.
    lines = browser.find_elements(By.CSS_SELECTOR, "svg.bracket-lines path")
    assert len(lines) == 14
    won = browser.find_element(By.CSS_SELECTOR, "[data-slot='1-1'] .bracket-line.won")
    assert won.text == "Maximiliano Wojciechowski"
    assert not browser.find_elements(By.CSS_SELECTOR, ".bracket-tabs button:not([hidden])")[
        0
    ].is_displayed()


@pytest.mark.parametrize("language", ["en", "uk"])
def test_a_phone_shows_one_round_of_the_bracket_at_a_time_and_its_buttons_the_others(
    served, browsers, language
):
    sixteen()
    browser, rounds = _opened(served, browsers, (360, 740), language)
    names = ROUND_NAMES[language]

    assert browser.execute_script(PROBLEMS, ".bracket-match, .group") == []
    assert browser.execute_script(ROUNDS_IN_SIGHT) == names[:1]
    buttons = browser.find_elements(By.CSS_SELECTOR, ".bracket-tabs button")
    assert [button.text for button in buttons] == names
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", buttons[-1])
    buttons[-1].click()

    wait_until(
        browser, lambda d: d.execute_script(ROUNDS_IN_SIGHT) == names[-1:], "the last in sight"
    )
    assert buttons[-1].get_attribute("aria-current") == "true"
    assert buttons[0].get_attribute("aria-current") is None
    assert browser.execute_script(PROBLEMS, ".bracket-match, .group") == []


def test_a_player_s_path_through_the_rounds_lights_up_when_a_name_is_focused(served, chromium):
    sixteen()
    chromium.set_window_size(1920, 1080)
    chromium.get(f"{served.url}/competitions/open/")
    first = wait_until(
        chromium,
        lambda d: d.find_elements(By.CSS_SELECTOR, "[data-slot='1-1'] .bracket-line.won"),
        "the bracket drawn",
    )[0]

    chromium.execute_script("arguments[0].focus()", first)

    lit = chromium.find_elements(By.CSS_SELECTOR, ".bracket-line.on-path")
    assert [line.text for line in lit] == ["Maximiliano Wojciechowski"] * 2  # round 1, then 2
    assert (
        lit[1].find_element(By.XPATH, "./ancestor::*[@data-slot]").get_attribute("data-slot")
        == "2-1"
    )


def test_the_bracket_as_of_a_version_is_a_link_anyone_can_share(served, chromium):
    sixteen()
    chromium.get(f"{served.url}/competitions/open/")
    shared = chromium.find_element(By.CSS_SELECTOR, "[data-share]").get_attribute("href")
    win("open-ko-1-5", "A")

    chromium.get(shared)

    assert "As it stood at version" in text_of(chromium, "#stages")
    assert chromium.find_elements(By.CSS_SELECTOR, "[data-slot='1-5'] .bracket-line.won") == []
    chromium.get(f"{served.url}/competitions/open/")
    assert chromium.find_elements(By.CSS_SELECTOR, "[data-slot='1-5'] .bracket-line.won")


@pytest.mark.journey  # a director's work from the pages
def test_a_director_enters_seeded_players_draws_the_groups_and_undoes_the_draw(served, chromium):
    services.competition_create(
        id="cup",
        name="Cup",
        ruleset=RULESET,
        stages=[{"id": "groups", "kind": "groups", "groups": 2}],
    )
    log_in(chromium, served, make_user("director", staff=True))
    chromium.get(f"{served.url}/competitions/cup/")
    for seed, name in enumerate(NAMES[:4], start=1):
        form = chromium.find_element(By.CSS_SELECTOR, "form[data-action=enter]")
        form.find_element(By.NAME, "name").send_keys(name)
        form.find_element(By.NAME, "seed").send_keys(str(seed))
        form.find_element(By.CSS_SELECTOR, "button").click()
        wait_until(chromium, lambda d, name=name: name in text_of(d, "#entrants"), "entered")

    chromium.find_element(By.CSS_SELECTOR, "form[data-action=draw] button").click()
    wait_until(
        chromium,
        lambda d: "Group B" in text_of(d, "[data-stage=groups]"),
        "the groups are drawn",
    )
    assert Match.objects.filter(competition_id="cup", stage_id="groups").count() == 2
    group_a = text_of(chromium, "[data-group=A]")
    assert NAMES[0] in group_a and NAMES[3] in group_a

    chromium.find_element(By.CSS_SELECTOR, "form[data-action=undo] button").click()
    chromium.switch_to.alert.dismiss()  # asked first: dismissed, nothing is undone
    assert Match.objects.filter(competition_id="cup", stage_id="groups").count() == 2
    chromium.find_element(By.CSS_SELECTOR, "form[data-action=undo] button").click()
    chromium.switch_to.alert.accept()
    wait_until(chromium, lambda d: "Not drawn yet." in text_of(d, "[data-stage=groups]"), "undone")
    assert not Match.objects.filter(competition_id="cup").exists()


@pytest.mark.journey  # a director's work from the pages
def test_a_director_creates_a_competition_in_stages_from_the_competitions_page(served, chromium):
    log_in(chromium, served, make_user("director", staff=True))
    chromium.get(f"{served.url}/competitions/")
    form = chromium.find_element(By.CSS_SELECTOR, "form[data-create]")
    form.find_element(By.NAME, "name").send_keys("Grand Prix")
    form.find_element(By.NAME, "id").send_keys("grand prix")  # not a slug
    form.find_element(By.NAME, "target").send_keys("100")
    form.find_element(By.NAME, "groups").clear()
    form.find_element(By.NAME, "groups").send_keys("4")
    form.find_element(By.NAME, "third_place").click()
    form.find_element(By.NAME, "knockout_target").send_keys("120")
    form.find_element(By.NAME, "knockout_best_of").send_keys("5")
    form.find_element(By.CSS_SELECTOR, "button").click()
    wait_until(chromium, lambda d: "(id)" in text_of(d, "#create [data-result]"), "refused")
    assert not Competition.objects.exists()

    form.find_element(By.NAME, "id").clear()
    form.find_element(By.NAME, "id").send_keys("gp-2026")
    form.find_element(By.CSS_SELECTOR, "button").click()

    wait_until(chromium, lambda d: d.current_url.endswith("/competitions/gp-2026/"), "its page")
    assert "Not drawn yet." in text_of(chromium, "[data-stage=groups]")
    assert chromium.find_elements(By.CSS_SELECTOR, "form[data-action=draw]")
    competition = Competition.objects.get()
    assert competition.ruleset == {"target": 100}
    assert competition.stages == [
        {"id": "groups", "kind": "groups", "groups": 4, "advance": 2},
        {
            "id": "ko",
            "kind": "knockout",
            "third_place": True,
            "from": "groups",
            "ruleset": {"target": 120, "best_of": 5},
        },
    ]


def test_the_competitions_page_offers_its_form_to_staff_only(served, chromium):
    chromium.get(f"{served.url}/competitions/")
    assert not chromium.find_elements(By.CSS_SELECTOR, "form[data-create]")
    log_in(chromium, served, make_user("director", staff=True))
    chromium.get(f"{served.url}/competitions/")
    form = chromium.find_element(By.CSS_SELECTOR, "form[data-create]")
    Select(form.find_element(By.NAME, "format")).select_by_value("round-robin")
    assert not form.find_element(By.CSS_SELECTOR, "fieldset[data-stage=groups]").is_displayed()
    form.find_element(By.NAME, "name").send_keys("Club league")
    form.find_element(By.CSS_SELECTOR, "button").click()
    wait_until(chromium, lambda d: "/competitions/club-league" in d.current_url, "its page")
    assert Competition.objects.get().stages is None


def test_the_bracket_follows_a_result_without_a_reload(served, chromium):
    from replay.projections import projector

    sixteen()
    projector.catch_up()
    chromium.get(f"{served.url}/competitions/open/")
    wait_until(chromium, lambda d: "Live" in text_of(d, "#standings"), "the socket is open")
    assert not chromium.find_elements(By.CSS_SELECTOR, "[data-slot='1-5'] .bracket-line.won")

    win("open-ko-1-5", "B")
    projector.catch_up()  # as a worker would; the server hears it, or looks within a second

    wait_until(
        chromium,
        lambda d: d.find_elements(By.CSS_SELECTOR, "[data-slot='1-5'] .bracket-line.won"),
        "the winner reaches the bracket",
    )
    won = chromium.find_element(By.CSS_SELECTOR, "[data-slot='1-5'] .bracket-line.won")
    assert won.text == NAMES[14]  # the fifth match of the order is seed 2 v seed 15


def test_a_competition_in_groups_then_a_knockout_shows_one_table_a_group_and_follows_it(
    served, chromium
):
    from replay.projections import projector
    from tests.support.championships import championship

    championship()
    services.stage_draw(competition_id="euro", stage_id="groups", by="director")
    projector.catch_up()
    chromium.get(f"{served.url}/competitions/euro/")
    wait_until(chromium, lambda d: "Live" in text_of(d, "#standings"), "the socket is open")
    group_a = "[data-group='A'] .group-table tbody tr"

    assert chromium.find_elements(By.ID, "ranking") and chromium.find_elements(
        By.CSS_SELECTOR, group_a
    )
    assert not chromium.find_elements(By.CSS_SELECTOR, "table.standings")
    win("euro-groups-A1", "A")
    projector.catch_up()

    # Read at once: the stages are drawn anew while the test reads them.
    match_points = (
        f"return [...document.querySelectorAll({group_a!r})].map((row) => row.cells[3].textContent)"
    )
    wait_until(
        chromium, lambda d: "2" in d.execute_script(match_points), "the result reaches group A"
    )
    assert not chromium.find_elements(By.CSS_SELECTOR, "table.standings")
    assert chromium.execute_script(PROBLEMS) == []
