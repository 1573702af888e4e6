"""The login pages and who may open a match's console: the referee assigned to it and staff."""

import re
from pathlib import Path

import pytest
from django.conf import settings

from matches import services
from tests.support.builders import new_match

PASSWORD = "a long enough password"
CONSOLE = "/referee/matches/cup-a-1/"


def user(username: str, staff: bool = False):
    return services.login_ensure(username, staff=staff, password=PASSWORD)


@pytest.fixture
def console_match(db):
    created = new_match("cup-a-1", "cup")
    user("petrenko")
    services.referee_assign(match_id=created.id, username="petrenko", by="federation")
    return created


def test_the_login_page_asks_for_a_username_and_a_password(client, db):
    page = client.get("/login/")
    assert page.status_code == 200
    assert b'name="username"' in page.content and b'name="password"' in page.content


def test_logging_in_leads_to_the_page_asked_for_and_logging_out_ends_the_session(
    client, console_match
):
    answer = client.post("/login/", {"username": "petrenko", "password": PASSWORD, "next": CONSOLE})
    assert answer.status_code == 302 and answer["Location"] == CONSOLE
    assert client.get(CONSOLE).status_code == 200
    assert client.post("/logout/").status_code == 302
    assert client.get(CONSOLE).status_code == 302


def test_a_wrong_password_shows_the_login_page_again_with_an_error(client, console_match):
    page = client.post("/login/", {"username": "petrenko", "password": "wrong"})
    assert page.status_code == 200
    assert b"did not match" in page.content


def test_the_nav_offers_a_login_to_visitors_and_a_logout_to_logged_in_users(client, console_match):
    assert b'href="/login/' in client.get("/").content
    client.login(username="petrenko", password=PASSWORD)
    assert b'action="/logout/"' in client.get("/").content


def test_an_anonymous_visitor_of_a_console_is_sent_to_the_login_page(client, console_match):
    answer = client.get(CONSOLE)
    assert answer.status_code == 302
    assert answer["Location"] == f"/login/?next={CONSOLE}"


@pytest.mark.parametrize("referee", [False, True], ids=["a plain viewer", "another referee"])
def test_a_login_not_assigned_to_the_match_gets_a_403_page(client, console_match, referee):
    other = user("kravets")
    if referee:
        # Another referee: assigned to a match of their own, not to this one.
        new_match("cup-a-2", "cup")
        services.referee_assign(match_id="cup-a-2", username=other.username, by="federation")
    client.force_login(other)
    page = client.get(CONSOLE)
    assert page.status_code == 403
    assert page["Content-Type"].startswith("text/html")
    assert b"Not your match" in page.content and b"cup-a-1" in page.content


def test_the_assigned_referee_gets_the_console(client, console_match):
    client.login(username="petrenko", password=PASSWORD)
    page = client.get(CONSOLE)
    assert page.status_code == 200
    assert b'id="console"' in page.content and b'data-pending="0"' in page.content
    assert b"Olena Kovalenko" in page.content


def test_staff_get_the_console_of_any_match(client, console_match):
    client.force_login(user("federation", staff=True))
    assert client.get(CONSOLE).status_code == 200


def test_a_referee_no_longer_assigned_gets_a_403(client, console_match):
    user("kravets")
    services.referee_assign(match_id="cup-a-1", username="kravets", by="federation")
    client.login(username="petrenko", password=PASSWORD)
    assert client.get(CONSOLE).status_code == 403


@pytest.mark.parametrize("path", ["/referee/matches/no-such-match/", "/referee/matches/%00x/"])
def test_an_unknown_match_has_a_404_page(client, console_match, path):
    client.login(username="petrenko", password=PASSWORD)
    page = client.get(path)
    assert page.status_code == 404
    assert page["Content-Type"].startswith("text/html")
    assert b"No such match" in page.content


def test_the_console_speaks_ukrainian_to_a_ukrainian_browser(client, console_match):
    client.login(username="petrenko", password=PASSWORD)
    page = client.get(CONSOLE, HTTP_ACCEPT_LANGUAGE="uk")
    assert page.status_code == 200
    text = page.content.decode()
    assert "Підтвердити" in text and "Центральна фішка" in text


def test_the_login_and_403_pages_speak_ukrainian_too(client, console_match):
    assert "Увійти" in client.get("/login/", HTTP_ACCEPT_LANGUAGE="uk").content.decode()
    client.force_login(user("kravets"))
    page = client.get(CONSOLE, HTTP_ACCEPT_LANGUAGE="uk")
    assert page.status_code == 403 and "Не ваша зустріч" in page.content.decode()


def test_the_service_worker_is_a_script_allowed_to_cover_the_consoles(client, db):
    answer = client.get("/referee/sw.js")
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("text/javascript")
    assert answer["Service-Worker-Allowed"] == "/referee/"
    body = answer.content.decode()
    assert "/static/replay/console.js" in body and "/*SCRIPTS*/" not in body


def test_the_service_worker_keeps_every_script_the_console_imports(client, db):
    body = client.get("/referee/sw.js").content.decode()
    folder = Path(settings.BASE_DIR) / "replay" / "static" / "replay"
    imported = set()
    for script in folder.glob("console*.js"):
        imported |= set(re.findall(r'from "\./([\w.-]+\.js)"', script.read_text()))
    assert imported, "the console imports its modules"
    for name in imported | {"console.js", "console.css"}:
        assert f"/static/replay/{name}" in body
