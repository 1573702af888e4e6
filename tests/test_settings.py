"""The settings helpers and the project wiring."""

import os
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from carambole.settings import channel_layer_from_url, database_from_url, envbool, envlist


def test_no_database_url_gives_sqlite_with_immediate_transactions_and_busy_timeout():
    database = database_from_url(None, base_dir=Path("/srv/carambole"))

    assert database["ENGINE"] == "django.db.backends.sqlite3"
    assert database["NAME"] == Path("/srv/carambole/db.sqlite3")
    assert database["OPTIONS"] == {"transaction_mode": "IMMEDIATE", "timeout": 20}


def test_postgres_url_gives_postgresql_with_each_part_of_the_url():
    database = database_from_url("postgres://ref:s%40cret@db.example:6543/carambole")

    assert database["ENGINE"] == "django.db.backends.postgresql"
    assert database["NAME"] == "carambole"
    assert database["USER"] == "ref"
    assert database["PASSWORD"] == "s@cret"
    assert database["HOST"] == "db.example"
    assert database["PORT"] == "6543"


def test_postgresql_scheme_is_accepted_and_port_may_be_omitted():
    database = database_from_url("postgresql://ref@localhost/carambole")

    assert database["ENGINE"] == "django.db.backends.postgresql"
    assert database["PORT"] == ""
    assert database["PASSWORD"] == ""


def test_unknown_database_scheme_is_refused_by_name():
    with pytest.raises(ValueError, match="mysql"):
        database_from_url("mysql://ref@localhost/carambole")


def test_redis_url_selects_the_redis_channel_layer_and_none_the_in_memory_one():
    assert channel_layer_from_url(None) == {"BACKEND": "channels.layers.InMemoryChannelLayer"}
    redis_layer = channel_layer_from_url("redis://127.0.0.1:6379/0")
    assert redis_layer["BACKEND"] == "channels_redis.core.RedisChannelLayer"
    assert redis_layer["CONFIG"] == {"hosts": ["redis://127.0.0.1:6379/0"]}


def test_env_helpers_read_booleans_and_comma_lists(monkeypatch):
    monkeypatch.setenv("CARAMBOLE_TEST_FLAG", "yes")
    monkeypatch.setenv("CARAMBOLE_TEST_LIST", " a.example, b.example ,,")

    assert envbool("CARAMBOLE_TEST_FLAG", "0") is True
    assert envbool("CARAMBOLE_TEST_UNSET", "0") is False
    assert envlist("CARAMBOLE_TEST_LIST", "") == ["a.example", "b.example"]


def test_celery_runs_eagerly_exactly_when_there_is_no_redis():
    assert settings.CELERY_TASK_ALWAYS_EAGER is (settings.REDIS_URL is None)
    assert settings.CELERY_TASK_ACKS_LATE is True
    assert settings.CELERY_WORKER_PREFETCH_MULTIPLIER == 1


def test_daphne_is_installed_first_so_runserver_serves_asgi():
    assert settings.INSTALLED_APPS[0] == "daphne"
    assert settings.ASGI_APPLICATION == "carambole.asgi.application"


def test_asgi_application_routes_http_and_websocket():
    from carambole.asgi import application

    assert set(application.application_mapping) == {"http", "websocket"}


@pytest.mark.django_db
def test_home_page_introduces_carambole_and_its_command_line_tools(client: Client):
    response = client.get("/")

    assert response.status_code == 200
    body = response.content.decode()
    assert "carambole" in body
    assert "manage.py judge FILE" in body
    assert "manage.py replay FILE" in body


@pytest.mark.django_db
def test_database_vendor_follows_database_url():
    from django.db import connection

    expected = "postgresql" if settings.DATABASE_URL else "sqlite"
    assert connection.vendor == expected


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


def test_ci_runs_against_postgresql_and_redis_never_without_them():
    if os.getenv("CI") != "true":
        pytest.skip("outside CI the embedded defaults (SQLite, in-memory layer) are the point")
    assert settings.DATABASE_URL, "CI=true but DATABASE_URL is unset: PostgreSQL is missing"
    assert settings.REDIS_URL, "CI=true but REDIS_URL is unset: Redis is missing"
    import redis

    assert redis.Redis.from_url(settings.REDIS_URL).ping()
