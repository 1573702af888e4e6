"""The open-data page's write of today's export: staff alone, by POST, said when done."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from tests.support.league import league


@pytest.fixture
def folder(settings, tmp_path):
    settings.OPEN_DATA_DIR = tmp_path
    return tmp_path


def log_in(client, staff: bool) -> None:
    user = get_user_model().objects.create_user("someone", is_staff=staff)
    client.force_login(user)


def test_staff_write_todays_export_and_are_told_what_was_written(db, client, folder):
    league()
    log_in(client, staff=True)

    answer = client.post("/open-data/export", follow=True)

    written = sorted(path.name for path in folder.iterdir())
    assert len(written) == 2 and written[1] == written[0] + ".sha256"
    said = [str(message) for message in answer.context["messages"]]
    assert said == [f"Written: {written[0]}. Competitions: 1, matches: 6, players: 4."]
    assert f"Download {written[0]}" in answer.content.decode()


def test_a_login_that_is_not_staff_writes_nothing(db, client, folder):
    log_in(client, staff=False)

    assert client.post("/open-data/export").status_code == 403
    assert list(folder.iterdir()) == []


def test_a_visitor_is_sent_to_log_in_and_a_get_writes_nothing(db, client, folder):
    answer = client.post("/open-data/export")

    assert answer.status_code == 302 and answer["Location"].startswith("/login/")
    assert client.get("/open-data/export").status_code == 405
    assert list(folder.iterdir()) == []


def test_the_page_offers_the_write_to_staff_only(db, client, folder):
    assert "Write the export" not in client.get("/open-data/").content.decode()
    log_in(client, staff=True)
    assert "Write the export" in client.get("/open-data/").content.decode()
