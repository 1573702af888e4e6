"""An amendment previewed on the console in a browser: FLIPPED's shot 4 made a carom of
A's, and what the consequences panel says before anything is confirmed."""

from __future__ import annotations

from selenium.webdriver.common.by import By

from tests.support.browser import wait_until
from tests.support.console_taps import tap

CONSEQUENCES = """
const box = document.getElementById("amend-consequences");
if (box.dataset.state !== "ok") return null;
return {text: box.textContent, disputes: box.dataset.disputes,
        ruling: document.getElementById("amend-preview").textContent,
        contacts: document.getElementById("contacts").textContent};
"""


def previewed_carom_of_a(chromium, url: str, seq: str) -> dict:
    """Open the console, amend FLIPPED's shot 4 into a carom of A's, and return what the
    consequences panel says before anything is confirmed."""
    chromium.get(url)
    wait_until(
        chromium, lambda d: d.find_element(By.ID, "console").get_attribute("data-seq") == seq
    )
    tap(chromium, '[data-tab="correct"]')
    tap(chromium, '#shot-list li[data-seq="4"] button.amend')
    wait_until(
        chromium,
        lambda d: d.find_element(By.ID, "amend-unchanged").is_displayed(),
        "the shot's facts in force loaded",
    )
    # White on yellow, then on red: a carom of A's (clicked in the page, as a thumb taps it).
    chromium.execute_script(
        "document.querySelector('button[data-actor=\"white\"]').click();"
        "document.querySelector('button[data-hit=\"red\"]').click();"
    )
    # Read at once, in the page: the console draws its panel again as answers come.
    return wait_until(
        chromium,
        lambda d: d.execute_script(CONSEQUENCES),
        "the consequences worked out",
    )
