"""The replay, the archive, a competition, a player's page, a head-to-head and the home page
on two phones and a laptop, in both languages: text of at least 14 px, nothing over the
edge, no block over another, no table to swipe sideways, nothing out of its card, no name
broken inside a word, and the standings' rank, player and match points in sight."""

from __future__ import annotations

import pytest
from django.conf import settings
from selenium.webdriver.common.by import By

from matches.domain.simulator import DEFAULT_PLAYERS, iter_competition
from matches.records import record_import
from replay.projections import projector
from tests.support.browser import wait_until
from tests.support.pages import PROBLEMS

SIZES = [(360, 740), (390, 844), (1280, 800)]
PAGES = [
    # (path, the blocks that must not overlap)
    ("/matches/{match}/replay/?seq={seq}", ".replay > *, .controls > *, .replay-board > *"),
    ("/archive/", "form.search > *"),
    ("/competitions/layout-cup/", "table.standings td"),
    ("/players/{player}/", "dl.totals > *"),
    ("/players/{player}/?versus={other}", "dl.totals > *"),
    ("/", ".live-list > *, .competition-list > *"),
]
# A name long enough to be squeezed on a phone.
LONG_NAME = {"name": "Maximiliano Wojciechowski", "federation_id": "PL-909"}
# What a table does wrong on a narrow screen, in words.
TABLE_PROBLEMS = """
const problems = [];
const width = document.documentElement.clientWidth;
for (const box of document.querySelectorAll(".table-scroll")) {
  if (box.scrollWidth > box.clientWidth + 1) problems.push("a table scrolls sideways");
}
// Every cell and every word of a row (a card on a phone) inside the row.
for (const row of document.querySelectorAll("table.matches tbody tr")) {
  const edge = row.getBoundingClientRect();
  const walker = document.createTreeWalker(row, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.textContent.trim() || node.parentElement.closest(".visually-hidden")) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    for (const part of range.getClientRects()) {
      if (part.left < edge.left - 1 || part.right > edge.right + 1) {
        problems.push(`"${node.textContent.trim()}" leaves its row`);
      }
    }
  }
}
// A name on two lines breaks between its words, never inside one.
for (const link of document.querySelectorAll('main a[href*="/players/"]')) {
  const text = link.firstChild;
  if (!text || text.nodeType !== 3) continue;
  let start = 0;
  for (const word of text.textContent.split(" ")) {
    const range = document.createRange();
    range.setStart(text, start);
    range.setEnd(text, start + word.length);
    const lines = new Set([...range.getClientRects()].map((part) => Math.round(part.top)));
    if (lines.size > 1) problems.push(`"${word}" of ${text.textContent} is broken`);
    start += word.length + 1;
  }
}
// The standings: rank, player and match points of each row on the screen.
for (const row of document.querySelectorAll("table.standings tbody tr[data-player]")) {
  for (const selector of ["td.rank", "td.player a", "td.match-points"]) {
    const cell = row.querySelector(selector);
    const box = cell ? cell.getBoundingClientRect() : {};
    if (!box.width || box.left < 0 || box.right > width) {
      problems.push(`${selector} of ${row.dataset.player} is not in sight`);
    }
  }
}
return problems;
"""


@pytest.fixture
def amended_archive(served):
    """A few simulated matches, one amended, summarised by the projector."""
    players = [LONG_NAME, *DEFAULT_PLAYERS[1:]]
    records = list(iter_competition(2026, 6, players, competition="layout-cup"))
    for record in records:
        record_import(record, by="demo")
    projector.catch_up()
    amended = next(
        record
        for record in records
        if any(event["type"] == "shot_amended" for event in record["events"])
    )
    shot = next(event["shot"] for event in amended["events"] if event["type"] == "shot_amended")
    sides = amended["match"]["players"]
    return {
        "match": amended["match"]["id"],
        "seq": shot,
        "player": sides["A"]["federation_id"],
        "other": sides["B"]["federation_id"],
    }


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_the_archives_pages_fit_the_screen_in_both_languages(
    served, amended_archive, browsers, size
):
    browser = browsers("en", size)
    browser.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": size[0], "height": size[1], "deviceScaleFactor": 1, "mobile": size[0] < 500},
    )
    for language in ("en", "uk"):
        if language == "uk":  # as the switcher remembers it
            browser.add_cookie({"name": settings.LANGUAGE_COOKIE_NAME, "value": "uk", "path": "/"})
        for path, blocks in PAGES:
            browser.get(served.url + path.format(**amended_archive))
            if "replay" in path:
                wait_until(
                    browser,
                    lambda d: d.find_element(By.ID, "replay").get_attribute("data-seq"),
                    "the replay drawn",
                )

            assert browser.find_element(By.TAG_NAME, "html").get_attribute("lang") == language
            problems = browser.execute_script(PROBLEMS, blocks)
            problems += browser.execute_script(TABLE_PROBLEMS)
            assert problems == [], f"{language} {path}: {problems}"
