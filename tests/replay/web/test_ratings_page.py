"""The ratings page: every date on it written one way, in the page's language."""

from __future__ import annotations

import re

from tests.support.league import dated_league, win
from tests.support.projected import projected


def test_the_day_each_player_last_played_is_written_as_the_pages_other_dates(db, client):
    first, *_ = dated_league()
    win(first, "A")
    projected()

    html = client.get("/ratings/", {"as_of": "2026-05-01"}, HTTP_ACCEPT_LANGUAGE="uk")

    table = html.content.decode().split("<table", 1)[1].split("</table>", 1)[0]
    assert "01.05.2026" in table
    assert not re.search(r"\d{4}-\d\d-\d\d", table), table
