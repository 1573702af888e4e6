"""The board and the overlay on a phone, a laptop and a hall's screen, in both languages: the
whole table visible, text of at least 14 px, nothing over the edge, no block over another."""

from __future__ import annotations

import pytest
from django.conf import settings
from selenium.webdriver.common.by import By

from tests.support.browser import wait_until
from tests.support.builders import new_match, open_game, play
from tests.support.pages import PROBLEMS

# The board's seq once drawn; null while a page loads and has no body yet.
SEQ = "return document.body && document.body.dataset.seq"

SIZES = [(390, 844), (1280, 800), (1920, 1080)]
# A foul that leaves ball in hand and long words in the lists.
MISS_CALLED_A = {"contacts": [{"ball": "white", "hit": "cushion"}], "called": ["feet", "jump"]}
BOARD_BLOCKS = ".board > *, .scoreline .player > *"
OVERLAY_BLOCKS = ".bar > *, .strip > *, .side > *"


@pytest.fixture
def missed_once(served):
    created = new_match("cup-layout-1")
    seq = play(created.id, open_game(created.id), MISS_CALLED_A)
    return created, seq


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_the_board_and_the_overlay_fit_the_screen_in_both_languages(
    served, missed_once, browsers, size
):
    browser = browsers("en", size)
    browser.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": size[0], "height": size[1], "deviceScaleFactor": 1, "mobile": size[0] < 500},
    )
    for language in ("en", "uk"):
        if language == "uk":  # as the switcher remembers it
            browser.add_cookie({"name": settings.LANGUAGE_COOKIE_NAME, "value": "uk", "path": "/"})
        for path, blocks in (("", BOARD_BLOCKS), ("overlay/", OVERLAY_BLOCKS)):
            browser.get(f"{served.url}/matches/{missed_once[0].id}/{path}")
            wait_until(browser, lambda d: d.execute_script(SEQ), "the board drawn")

            assert browser.find_element(By.TAG_NAME, "html").get_attribute("lang") == language
            assert browser.execute_script(PROBLEMS, blocks) == [], (language, path)
