"""Headers: every page's Content-Security-Policy, and the language's cookie.

The policy allows no inline script or style, so no page may carry one: each family of
pages is read here and searched for `<style>`, `style=""`, an inline `<script>` or an
`on...=` handler. tests/browser/test_csp.py loads the same pages in Chromium.
"""

from __future__ import annotations

import re

import pytest
from django.test import Client

from matches import services
from replay.api.tokens import token_issue
from tests.support.demo_pages import demo_pages, inline_code
from tests.support.settings_env import production_key, settings_in


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
