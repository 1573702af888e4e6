"""The settings read from the environment, and the project wiring they lead to."""

import os
import tempfile
from pathlib import Path

import pytest
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.test import Client

from carambole.settings import database_from_url, envbool, envint, envlist
from tests.support.settings_env import settings_in

WAL = "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL"
IMMEDIATE_WITH_BUSY_TIMEOUT = {"transaction_mode": "IMMEDIATE", "timeout": 20, "init_command": WAL}


def test_no_database_url_gives_sqlite_with_immediate_transactions_and_busy_timeout():
    database = database_from_url(None, base_dir=Path("/srv/carambole"))

    assert database["ENGINE"] == "django.db.backends.sqlite3"
    assert database["NAME"] == Path("/srv/carambole/db.sqlite3")
    assert database["OPTIONS"] == IMMEDIATE_WITH_BUSY_TIMEOUT
    assert Path(database["TEST"]["NAME"]).parent == Path(tempfile.gettempdir())


def test_a_sqlite_url_gives_that_file_with_immediate_transactions_and_busy_timeout(monkeypatch):
    configured = settings_in(monkeypatch, DATABASE_URL="sqlite:////srv/carambole/games.sqlite3")
    database = configured["DATABASES"]["default"]

    assert database["ENGINE"] == "django.db.backends.sqlite3"
    assert database["NAME"] == "/srv/carambole/games.sqlite3"
    assert database["OPTIONS"] == IMMEDIATE_WITH_BUSY_TIMEOUT
    assert Path(database["TEST"]["NAME"]).parent == Path(tempfile.gettempdir())


def test_options_in_a_sqlite_url_win_over_the_defaults():
    database = database_from_url("sqlite:///games.sqlite3?timeout=5")

    assert database["NAME"] == "games.sqlite3"
    assert database["OPTIONS"] == {
        "transaction_mode": "IMMEDIATE",
        "timeout": 5,
        "init_command": WAL,
    }


def test_postgres_url_gives_postgresql_with_each_part_and_the_connection_settings(monkeypatch):
    monkeypatch.setenv("DB_CONN_MAX_AGE", "60")

    database = database_from_url("postgres://ref:s%40cret@db.example:6543/carambole")

    assert database["ENGINE"] == "django.db.backends.postgresql"
    assert database["NAME"] == "carambole"
    assert database["USER"] == "ref"
    assert database["PASSWORD"] == "s@cret"
    assert database["HOST"] == "db.example"
    assert str(database["PORT"]) == "6543"
    assert database["CONN_MAX_AGE"] == 60
    assert database["CONN_HEALTH_CHECKS"] is True
    assert "pool" not in database.get("OPTIONS", {})  # persistent connections instead


def test_postgres_connections_are_pooled_by_default_as_many_as_db_pool_size(monkeypatch):
    monkeypatch.delenv("DB_CONN_MAX_AGE", raising=False)
    monkeypatch.setenv("DB_POOL_SIZE", "4")
    monkeypatch.delenv("DB_POOL_TIMEOUT", raising=False)

    database = database_from_url("postgres://ref@db.example/carambole")

    assert database["CONN_MAX_AGE"] == 0
    assert database["OPTIONS"]["pool"] == {"min_size": 1, "max_size": 4, "timeout": 10}


def test_how_long_a_request_waits_for_a_pooled_connection_is_db_pool_timeout(monkeypatch):
    monkeypatch.delenv("DB_CONN_MAX_AGE", raising=False)
    monkeypatch.setenv("DB_POOL_TIMEOUT", "2")

    database = database_from_url("postgres://ref@db.example/carambole")

    assert database["OPTIONS"]["pool"]["timeout"] == 2
    monkeypatch.setenv("DB_POOL_TIMEOUT", "0")
    with pytest.raises(ImproperlyConfigured, match="DB_POOL_TIMEOUT=0 must be at least 1"):
        database_from_url("postgres://ref@db.example/carambole")


def test_a_pool_of_no_connections_is_refused_naming_the_variable(monkeypatch):
    monkeypatch.delenv("DB_CONN_MAX_AGE", raising=False)
    monkeypatch.setenv("DB_POOL_SIZE", "0")

    with pytest.raises(ImproperlyConfigured, match="DB_POOL_SIZE=0 must be at least 1"):
        database_from_url("postgres://ref@db.example/carambole")


def test_postgresql_scheme_is_accepted_and_port_and_password_may_be_omitted():
    database = database_from_url("postgresql://ref@localhost/carambole")

    assert database["ENGINE"] == "django.db.backends.postgresql"
    assert database["PORT"] == ""
    assert database["PASSWORD"] == ""


@pytest.mark.parametrize("scheme", ["mysql", "oracle", "nosuchdb"])
def test_a_database_url_of_another_scheme_is_refused_by_name(scheme):
    with pytest.raises(ImproperlyConfigured, match=f"DATABASE_URL: unsupported scheme '{scheme}'"):
        database_from_url(f"{scheme}://ref@localhost/carambole")


def test_a_misspelt_debug_flag_is_refused_naming_the_variable_and_the_value(monkeypatch):
    with pytest.raises(ImproperlyConfigured, match="DJANGO_DEBUG='ture'"):
        settings_in(monkeypatch, DJANGO_DEBUG="ture")


def test_an_unreadable_connection_age_is_refused_naming_the_variable_and_the_value(monkeypatch):
    with pytest.raises(ImproperlyConfigured, match="DB_CONN_MAX_AGE='forever'"):
        settings_in(
            monkeypatch,
            DATABASE_URL="postgres://ref@localhost/carambole",
            DB_CONN_MAX_AGE="forever",
        )


@pytest.mark.parametrize(
    ("value", "expected"),
    [("1", True), ("TRUE", True), (" Yes ", True), ("on", True)]
    + [("0", False), ("False", False), ("NO", False), ("off", False)],
)
def test_booleans_are_read_from_each_accepted_word_in_any_case(monkeypatch, value, expected):
    monkeypatch.setenv("CARAMBOLE_TEST_FLAG", value)

    assert envbool("CARAMBOLE_TEST_FLAG", "0" if expected else "1") is expected


@pytest.mark.parametrize("value", ["ture", "2", "enabled", ""])
def test_a_boolean_that_is_no_accepted_word_is_refused(monkeypatch, value):
    monkeypatch.setenv("CARAMBOLE_TEST_FLAG", value)

    with pytest.raises(ImproperlyConfigured, match=f"CARAMBOLE_TEST_FLAG={value!r}"):
        envbool("CARAMBOLE_TEST_FLAG", "1")


@pytest.mark.parametrize("value", ["ten", "1.5", ""])
def test_an_integer_that_is_no_integer_is_refused(monkeypatch, value):
    monkeypatch.setenv("CARAMBOLE_TEST_NUMBER", value)

    with pytest.raises(ImproperlyConfigured, match=f"CARAMBOLE_TEST_NUMBER={value!r}"):
        envint("CARAMBOLE_TEST_NUMBER", "0")


def test_unset_variables_take_their_defaults(monkeypatch):
    monkeypatch.delenv("CARAMBOLE_TEST_UNSET", raising=False)

    assert envbool("CARAMBOLE_TEST_UNSET", "on") is True
    assert envint("CARAMBOLE_TEST_UNSET", "7") == 7
    assert envlist("CARAMBOLE_TEST_UNSET", "a,b") == ["a", "b"]


def test_comma_lists_drop_spaces_and_empty_items(monkeypatch):
    monkeypatch.setenv("CARAMBOLE_TEST_LIST", " a.example, b.example ,,")

    assert envlist("CARAMBOLE_TEST_LIST", "") == ["a.example", "b.example"]


def test_runserver_is_caramboles_own_which_serves_websockets_with_uvicorn():
    from django.core.management import get_commands

    # Not staticfiles' (WSGI, pages only), which an app listed before carambole would give.
    assert get_commands()["runserver"] == "carambole"


def test_the_configured_asgi_application_routes_http_and_websocket():
    from channels.routing import get_default_application

    assert set(get_default_application().application_mapping) == {"http", "websocket"}


@pytest.mark.django_db
def test_home_page_introduces_carambole(client: Client):
    response = client.get("/")

    assert response.status_code == 200
    assert "carambole" in response.content.decode()


def test_channel_layer_delivers_a_message_to_a_group():
    from asgiref.sync import async_to_sync
    from channels.layers import get_channel_layer

    async def round_trip() -> dict:
        layer = get_channel_layer()
        channel = await layer.new_channel()
        await layer.group_add("settings-test", channel)
        await layer.group_send("settings-test", {"type": "ping", "seq": 1})
        message = await layer.receive(channel)
        await layer.group_discard("settings-test", channel)
        return message

    assert async_to_sync(round_trip)() == {"type": "ping", "seq": 1}


@pytest.mark.skipif(
    os.getenv("CI") != "true",
    reason="outside CI the embedded defaults (SQLite, in-memory layer) are the point",
)
@pytest.mark.django_db
def test_ci_runs_against_postgresql_and_redis_never_without_them():
    import redis
    from channels.layers import get_channel_layer
    from channels_redis.core import RedisChannelLayer
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT version()")
        version = cursor.fetchone()[0]
    assert version.startswith("PostgreSQL"), f"CI=true but the database is {version}"
    assert settings.REDIS_URL, "CI=true but REDIS_URL is unset: Redis is missing"
    assert isinstance(get_channel_layer(), RedisChannelLayer)
    assert redis.Redis.from_url(settings.REDIS_URL).ping()
