"""Safe production settings: debug off unless asked, no serving with the development key."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client

from tests.support.settings_env import VARIABLES, production_key, settings_in

ROOT = Path(__file__).resolve().parents[1]


def run(tmp_path, *args: str, **environ: str) -> subprocess.CompletedProcess:
    """Run Python in the project as a fresh clone would: none of carambole's variables set."""
    env = {k: v for k, v in os.environ.items() if k not in VARIABLES}
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'fresh.sqlite3'}"
    env.update(environ)
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )


@pytest.mark.parametrize("database", ["", "sqlite:///x.sqlite3", "postgres://u:p@db/carambole"])
def test_debug_is_off_unless_asked_for_whatever_the_database(monkeypatch, database):
    environ = {"DATABASE_URL": database} if database else {}

    assert settings_in(monkeypatch, **environ)["DEBUG"] is False
    assert settings_in(monkeypatch, DJANGO_DEBUG="1", **environ)["DEBUG"] is True


def test_production_sends_secure_cookies_hsts_and_trusts_the_proxys_https_header(monkeypatch):
    production = settings_in(monkeypatch, SECRET_KEY=production_key())

    assert production["SESSION_COOKIE_SECURE"] and production["CSRF_COOKIE_SECURE"]
    assert production["SECURE_HSTS_SECONDS"] >= 31_536_000
    assert production["SECURE_SSL_REDIRECT"]
    assert production["SECURE_PROXY_SSL_HEADER"] == ("HTTP_X_FORWARDED_PROTO", "https")


def test_development_keeps_plain_http_on_this_machine(monkeypatch):
    development = settings_in(monkeypatch, DJANGO_DEBUG="1")

    assert not development["SECURE_SSL_REDIRECT"]
    assert not development["SESSION_COOKIE_SECURE"]
    assert development["SECURE_HSTS_SECONDS"] == 0


@pytest.mark.parametrize("module", ["carambole.asgi", "carambole.wsgi"])
def test_serving_refuses_the_development_key_with_debug_off(tmp_path, module):
    refused = run(tmp_path, "-c", f"import {module}")
    served = run(tmp_path, "-c", f"import {module}", SECRET_KEY=production_key())
    developing = run(tmp_path, "-c", f"import {module}", DJANGO_DEBUG="1")

    assert refused.returncode != 0
    assert "SECRET_KEY is the development default" in refused.stderr
    assert served.returncode == 0, served.stderr
    assert developing.returncode == 0, developing.stderr


def test_runserver_refuses_the_development_key_with_debug_off_in_one_line(tmp_path):
    refused = run(tmp_path, "manage.py", "runserver", "--noreload", "127.0.0.1:0")

    assert refused.returncode == 1
    assert refused.stderr.startswith("CommandError: SECRET_KEY is the development default")
    assert "Traceback" not in refused.stderr


def test_check_deploy_reports_no_issue_in_the_documented_production_environment(tmp_path):
    production = run(
        tmp_path,
        "manage.py",
        "check",
        "--deploy",
        SECRET_KEY=production_key(),
        ALLOWED_HOSTS="carambole.example",
    )
    development_key = run(tmp_path, "manage.py", "check", "--deploy")

    assert production.returncode == 0, production.stderr
    assert "System check identified no issues" in production.stdout
    assert development_key.returncode != 0
    assert "carambole.E001" in development_key.stderr


def test_the_command_line_tools_need_no_environment_on_a_fresh_clone(tmp_path):
    line = '{"own": "white", "shot": {"contacts": [{"ball": "white", "hit": "yellow"}]}}'
    path = tmp_path / "shots.jsonl"
    path.write_text(line + "\n", encoding="utf-8")

    judged = run(tmp_path, "manage.py", "judge", str(path))

    assert judged.returncode == 0, judged.stderr
    assert '"valid": true' in judged.stdout


def test_static_files_are_served_with_debug_off(settings):
    assert settings.DEBUG is False

    response = Client().get("/static/admin/css/base.css")

    assert response.status_code == 200
    assert b"body" in b"".join(response.streaming_content)
