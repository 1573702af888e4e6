"""The open-data page in Chromium: staff write today's export from it, and are told."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from django.conf import settings
from selenium.webdriver.common.by import By

from tests.support.browser import HEAD_SECONDS, LOG_SHOWN, log_in, make_user, wait_until
from tests.support.league import league
from tests.support.screens import SCREENS, overflowing, save_shot, screen
from tests.support.servers import Daphne


@pytest.fixture
def open_data_server(event_db, tmp_path) -> Iterator[Daphne]:
    server = Daphne(
        os.getenv("REDIS_URL"),
        HEAD_SECONDS,
        environ={
            "SECRET_KEY": settings.SECRET_KEY,
            "SECURE_COOKIES": "0",
            "OPEN_DATA_DIR": str(tmp_path),
        },
    )
    try:
        server.start()
        yield server
    finally:
        print(f"-- daphne on {server.url} logged:\n{server.log()[-LOG_SHOWN:]}")
        server.close()


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
