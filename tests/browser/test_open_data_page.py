"""The open-data page in Chromium: staff write today's export from it, and are told."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from selenium.webdriver.common.by import By

from tests.support.browser import log_in, make_user, serving, wait_until
from tests.support.league import league
from tests.support.screens import SCREENS, overflowing, save_shot, screen
from tests.support.servers import Uvicorn


@pytest.fixture
def open_data_server(event_db, tmp_path) -> Iterator[Uvicorn]:
    with serving(OPEN_DATA_DIR=str(tmp_path)) as server:
        yield server


@pytest.mark.journey  # a director's work from the pages
def test_a_director_writes_the_export_from_the_page_and_is_told_what_was_written(
    open_data_server, browsers, tmp_path
):
    league()
    for size in SCREENS:
        page = screen(browsers, size)
        log_in(page, open_data_server, make_user("director", staff=True))
        page.get(f"{open_data_server.url}/open-data/")
        save_shot(page, f"open-data-before-{size[0]}")

        page.find_element(By.CSS_SELECTOR, "form[data-writing] button").click()

        message = wait_until(
            page, lambda d: d.find_elements(By.CSS_SELECTOR, ".message.success"), "told"
        )[0]
        zips = [path.name for path in tmp_path.glob("*.zip")]
        assert zips and message.text.startswith(f"Written: {zips[0]}.")
        assert "matches: 6, players: 4." in message.text
        assert page.find_element(By.LINK_TEXT, f"Download {zips[0]}")
        assert overflowing(page, "main") == []
        save_shot(page, f"open-data-written-{size[0]}")
