"""The board and the overlay on a phone, a laptop and a hall's screen, in both languages: the
whole table visible, text of at least 14 px, nothing over the edge, no block over another."""

from __future__ import annotations

import pytest
from django.conf import settings
from selenium.webdriver.common.by import By

from tests.browser.conftest import wait_until
from tests.store.plays import new_match, open_game, play

SIZES = [(390, 844), (1280, 800), (1920, 1080)]
# A foul that leaves ball in hand and long words in the lists.
MISS_CALLED_A = {"contacts": [{"ball": "white", "hit": "cushion"}], "called": ["feet", "jump"]}
# What breaks the layout, as the page lays itself out: each problem in words.
PROBLEMS = """
const problems = [];
const width = document.documentElement.clientWidth;
if (document.documentElement.scrollWidth > width) problems.push("the page scrolls sideways");
for (const node of document.querySelectorAll("body *")) {
  // The skip link waits off the screen until a keyboard reaches it, as it should.
  if (node.closest("svg, [hidden], .skip-link, .visually-hidden")) continue;
  const box = node.getBoundingClientRect();
  if (!box.width || !box.height) continue;
  const text = [...node.childNodes]
    .some((child) => child.nodeType === 3 && child.textContent.trim());
  const size = parseFloat(getComputedStyle(node).fontSize);
  if (text && size < 14) problems.push(`${node.tagName}.${node.className} is ${size} px`);
  if (box.right > width + 1 || box.left < -1) {
    problems.push(`${node.tagName}.${node.className} is cut off`);
  }
}
const blocks = [...document.querySelectorAll(arguments[0])]
  .map((node) => [node, node.getBoundingClientRect()]);
for (const [a, boxA] of blocks) for (const [b, boxB] of blocks) {
  if (a === b || a.contains(b) || b.contains(a)) continue;
  const overlap = Math.min(boxA.right, boxB.right) - Math.max(boxA.left, boxB.left) > 1
    && Math.min(boxA.bottom, boxB.bottom) - Math.max(boxA.top, boxB.top) > 1;
  if (overlap) problems.push(`${a.className || a.id} overlaps ${b.className || b.id}`);
}
const table = document.querySelector("svg.table");
if (table) {
  const box = table.getBoundingClientRect();
  if (box.width > width || box.height > window.innerHeight) {
    problems.push("the table is larger than the screen");
  }
  if (box.width < 150) problems.push(`the table is ${box.width} px wide`);
}
return problems;
"""
BOARD_BLOCKS = ".board > *, .scoreline .player > *"
OVERLAY_BLOCKS = ".bar > *, .strip > *, .side > *"


@pytest.fixture
def match(served):
    created = new_match("cup-layout-1")
    seq = play(created.id, open_game(created.id), MISS_CALLED_A)
    return created, seq


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_the_board_and_the_overlay_fit_the_screen_in_both_languages(served, match, browsers, size):
    browser = browsers("en", size)
    browser.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": size[0], "height": size[1], "deviceScaleFactor": 1, "mobile": size[0] < 500},
    )
    for language in ("en", "uk"):
        if language == "uk":  # as the switcher remembers it
            browser.add_cookie({"name": settings.LANGUAGE_COOKIE_NAME, "value": "uk", "path": "/"})
        for path, blocks in (("", BOARD_BLOCKS), ("overlay/", OVERLAY_BLOCKS)):
            browser.get(f"{served.url}/matches/{match[0].id}/{path}")
            wait_until(browser, lambda d: d.execute_script("return document.body.dataset.seq"), "")

            assert browser.find_element(By.TAG_NAME, "html").get_attribute("lang") == language
            assert browser.execute_script(PROBLEMS, blocks) == [], (language, path)
