"""The replay, the archive, a player's page and the home page on a phone and a laptop, in
both languages: text of at least 14 px, nothing over the edge, no block over another."""

from __future__ import annotations

import pytest
from django.conf import settings
from selenium.webdriver.common.by import By

from matches.records import record_import
from matches.simulator import iter_competition
from replay import projector
from tests.browser.conftest import wait_until
from tests.browser.test_board_layout import PROBLEMS

SIZES = [(390, 844), (1280, 800)]
PAGES = [
    # (path, the blocks that must not overlap)
    ("/matches/{match}/replay/?seq={seq}", ".replay > *, .controls > *, .replay-board > *"),
    ("/archive/", "form.search > *"),
    ("/players/{player}/", "dl.totals > *"),
    ("/", ".live-list > *, .competition-list > *"),
]


@pytest.fixture
def archive(served):
    """A few simulated matches, one amended, summarised by the projector."""
    records = list(iter_competition(2026, 6, competition="layout-cup"))
    for record in records:
        record_import(record, by="demo")
    projector.catch_up()
    amended = next(
        record
        for record in records
        if any(event["type"] == "shot_amended" for event in record["events"])
    )
    shot = next(event["shot"] for event in amended["events"] if event["type"] == "shot_amended")
    return {
        "match": amended["match"]["id"],
        "seq": shot,
        "player": amended["match"]["players"]["A"]["federation_id"],
    }


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_the_archives_pages_fit_the_screen_in_both_languages(served, archive, browsers, size):
    browser = browsers("en", size)
    browser.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": size[0], "height": size[1], "deviceScaleFactor": 1, "mobile": size[0] < 500},
    )
    for language in ("en", "uk"):
        if language == "uk":  # as the switcher remembers it
            browser.add_cookie({"name": settings.LANGUAGE_COOKIE_NAME, "value": "uk", "path": "/"})
        for path, blocks in PAGES:
            browser.get(served.url + path.format(**archive))
            if "replay" in path:
                wait_until(
                    browser,
                    lambda d: d.find_element(By.ID, "replay").get_attribute("data-seq"),
                    "the replay drawn",
                )

            assert browser.find_element(By.TAG_NAME, "html").get_attribute("lang") == language
            assert browser.execute_script(PROBLEMS, blocks) == [], (language, path)
