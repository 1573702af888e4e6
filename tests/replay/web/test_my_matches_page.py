"""A referee's matches page: the login lands there, and each match opens its console."""

from __future__ import annotations

import pytest
from django.utils import timezone

from matches import services
from tests.support.builders import new_match

PASSWORD = "a long enough password"
PAGE = "/referee/"


def user(username: str, staff: bool = False):
    return services.login_ensure(username, staff=staff, password=PASSWORD)


@pytest.fixture
def assigned(db):
    user("petrenko")
    created = new_match("cup-a-1", "cup")
    services.referee_assign(match_id=created.id, username="petrenko", by="federation")
    return created


def test_logging_in_lands_a_referee_on_their_matches(client, assigned):
    answer = client.post("/login/", {"username": "petrenko", "password": PASSWORD})

    assert answer.status_code == 302 and answer["Location"] == PAGE


def test_logging_in_lands_a_login_without_matches_on_the_home_page(client, assigned):
    user("spectator")

    answer = client.post("/login/", {"username": "spectator", "password": PASSWORD})

    assert answer.status_code == 302 and answer["Location"] == "/"


def test_logging_in_with_a_page_asked_for_still_leads_there(client, assigned):
    asked = "/matches/cup-a-1/"
    answer = client.post("/login/", {"username": "petrenko", "password": PASSWORD, "next": asked})

    assert answer["Location"] == asked


def test_the_page_links_each_assigned_match_to_its_console(client, assigned):
    other = new_match("cup-a-2", "cup")  # nobody's: not on the list
    client.login(username="petrenko", password=PASSWORD)

    page = client.get(PAGE)

    assert page.status_code == 200
    assert b'href="/referee/matches/cup-a-1/"' in page.content
    assert f"/referee/matches/{other.id}/".encode() not in page.content
    assert "no-cache" in page["Cache-Control"]


def test_the_navigation_links_the_page_for_a_login_with_matches_only(client, assigned):
    user("spectator")
    client.login(username="spectator", password=PASSWORD)
    assert b'href="/referee/"' not in client.get("/").content

    client.login(username="petrenko", password=PASSWORD)
    assert b'href="/referee/"' in client.get("/").content


def test_a_login_without_matches_is_told_so(client, db):
    user("spectator")
    client.login(username="spectator", password=PASSWORD)

    page = client.get(PAGE)

    assert page.status_code == 200
    assert b"No match is assigned to you" in page.content


def test_a_visitor_is_asked_to_log_in(client, db):
    answer = client.get(PAGE)

    assert answer.status_code == 302 and answer["Location"] == f"/login/?next={PAGE}"


def test_the_page_speaks_ukrainian(client, assigned):
    client.login(username="petrenko", password=PASSWORD)
    services.match_create(
        id="cup-a-3",
        competition="cup",
        players={"A": {"name": "A"}, "B": {"name": "B"}},
        date=timezone.now().date(),
    )
    services.referee_assign(match_id="cup-a-3", username="petrenko", by="federation")

    page = client.get(PAGE, HTTP_ACCEPT_LANGUAGE="uk").content.decode()

    assert "Мої зустрічі" in page and "Сьогодні" in page
