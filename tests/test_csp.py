"""Headers: every page's Content-Security-Policy, and the language's cookie.

The policy allows no inline script or style, so no page may carry one: each family of
pages is read here and searched for `<style>`, `style=""`, an inline `<script>` or an
`on...=` handler. tests/browser/test_csp.py loads the same pages in Chromium.
"""

from __future__ import annotations

import io
import re
from html.parser import HTMLParser

import pytest
from django.core.management import call_command
from django.test import Client

from matches import services
from matches.models import Match
from replay.api.tokens import token_issue
from tests.test_production import production_key, settings_in

LIVE = "demo-live-1"


def demo_pages(client: Client) -> list[str]:
    """Load the demo; return a path of each family of pages (staff's ones for `client`)."""
    call_command("load_demo", matches=1, demo_logins=True, stdout=io.StringIO())
    call_command("rebuild_projections", no_progress=True, stdout=io.StringIO())
    finished = Match.objects.exclude(pk=LIVE).order_by("pk").first().pk
    replay = f"/matches/{finished}/replay/"
    players = re.findall(r'href="(/players/[^"?]+/)"', client.get(replay).content.decode())
    assert len(set(players)) >= 2, "the replay links both players"
    one, other = dict.fromkeys(players)
    versus = other.removeprefix("/players/").removesuffix("/")
    return [
        "/",
        f"/matches/{LIVE}/",
        f"/matches/{LIVE}/overlay/",
        replay,
        "/archive/",
        one,
        f"{one}?versus={versus}",
        "/competitions/",
        "/competitions/demo-cup/",
        "/competitions/demo-cup/history/",
        f"/referee/matches/{LIVE}/",
        "/login/",
        "/api/docs/",
        "/admin/",
        "/no-such-page/",
    ]


class Inline(HTMLParser):
    """Collect what a strict policy refuses in a page: inline scripts, styles, handlers."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []
        self.in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = dict(attrs)
        if tag == "style":
            self.found.append("<style>")
        if "style" in names:
            self.found.append(f'<{tag} style="{names["style"]}">')
        self.found += [f"<{tag} {name}=...>" for name in names if name.startswith("on")]
        values = ((value or "").strip().lower() for value in names.values())
        if any(value.startswith("javascript:") for value in values):
            self.found.append(f"<{tag} ...javascript:>")
        # A data block (json_script) is never run, so the policy does not apply to it.
        self.in_script = (
            tag == "script" and "src" not in names and names.get("type") != ("application/json")
        )

    def handle_data(self, data: str) -> None:
        if self.in_script and data.strip():
            self.found.append(f"<script>{data.strip()[:40]}")

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self.in_script = False


def inline_code(html: str) -> list[str]:
    parser = Inline()
    parser.feed(html)
    return parser.found


def directives(header: str) -> dict[str, list[str]]:
    parts = (part.split() for part in header.split(";") if part.strip())
    return {name: sources for name, *sources in parts}


def test_every_page_has_a_strict_policy_and_no_inline_script_or_style(db):
    staff = services.login_ensure("federation", staff=True)
    client = Client()
    client.force_login(staff)
    for path in demo_pages(client):
        for language in ("en", "uk"):
            page = client.get(path, HTTP_ACCEPT_LANGUAGE=language, HTTP_HOST="testserver")

            assert page.status_code in (200, 404), (path, page.status_code)
            policy = directives(page.headers["Content-Security-Policy"])
            assert policy["script-src"] == ["'self'"], path
            assert policy["style-src"] == ["'self'"], path
            assert policy["default-src"] == ["'self'"], path
            assert policy["object-src"] == ["'none'"], path
            assert inline_code(page.content.decode()) == [], (path, language)


def test_the_live_sockets_of_the_same_host_are_allowed(db):
    page = Client().get("/", HTTP_HOST="localhost:8000")

    sources = directives(page.headers["Content-Security-Policy"])["connect-src"]

    assert sources == ["'self'", "ws://localhost:8000", "wss://localhost:8000"]


def test_the_api_docs_page_runs_its_script_from_a_file(db):
    page = Client().get("/api/docs/")
    script = re.search(r'<script src="(/api/docs/\?[^"]*script[^"]*)"', page.content.decode())

    served = Client().get(script.group(1).replace("&amp;", "&"))

    assert served.status_code == 200
    assert served.headers["Content-Type"].startswith("application/javascript")
    assert b"SwaggerUIBundle(" in served.content


def test_a_public_read_with_a_bad_token_is_a_401_as_documented(db):
    token_issue("petrenko")

    answer = Client().get("/api/matches/", HTTP_AUTHORIZATION="Token not-a-key-of-anyone")

    assert answer.status_code == 401
    assert answer.json() == {"error": "invalid or revoked token", "field": None}


def test_the_language_cookie_is_samesite_lax(db):
    answer = Client().post("/i18n/setlang/", {"language": "uk", "next": "/"})

    cookie = answer.cookies["django_language"]
    assert answer.status_code == 302
    assert cookie.value == "uk"
    assert cookie["samesite"] == "Lax"


@pytest.mark.parametrize(
    ("environ", "secure"),
    [({"SECRET_KEY": production_key()}, True), ({"DJANGO_DEBUG": "1"}, False)],
    ids=["production", "development"],
)
def test_the_language_cookie_is_secure_in_production_only(monkeypatch, environ, secure):
    settings = settings_in(monkeypatch, **environ)

    assert settings["LANGUAGE_COOKIE_SAMESITE"] == "Lax"
    assert settings["LANGUAGE_COOKIE_SECURE"] is secure
