"""Every error of the API is JSON {"error", "field"}: never an HTML page, never a 500."""

import json
from unittest import mock

import pytest
from django.test import Client, override_settings

from matches.models import Event
from tests.support.logins import api

LAG = {"type": "lag", "A": {"distance": 90}, "B": {"distance": 150}}


def nested(levels):
    value = []
    for _ in range(levels - 1):
        value = [value]
    return value


def send(key, match_id, text, content_type="application/json"):
    return api(key).post(f"/api/matches/{match_id}/events", text, content_type=content_type)


@pytest.mark.parametrize(
    "text",
    [
        '{"expected_seq": 0, "event": ',
        "\xff\xfe{}",
        '{"expected_seq": NaN, "event": {}}',
        '{"expected_seq": Infinity, "event": {}}',
        '{"expected_seq": 1' + "0" * 5000 + ', "event": {}}',
        "[" * 20_000 + "]" * 20_000,
    ],
    ids=["cut short", "not UTF-8", "NaN", "Infinity", "5000 digits", "deep"],
)
def test_a_body_that_is_not_json_is_a_400(match, referee, text):
    answer = send(referee.key, match.id, text.encode("latin-1"))

    assert answer.status_code == 400
    assert answer["Content-Type"] == "application/json"
    assert set(answer.json()) == {"error", "field"}
    assert not Event.objects.exists()


def test_an_empty_body_is_a_400_naming_the_first_field_it_lacks(match, referee):
    answer = send(referee.key, match.id, b"")

    assert answer.status_code == 400
    assert answer.json() == {"error": "is required", "field": "expected_seq"}


@pytest.mark.parametrize(
    ("event", "field"),
    [
        ({"type": "lag", "A": {"distance": 90}, "B": {"distance": 1e16}}, "event.B.distance"),
        ({"type": "foul", "player": "A", "code": "feet", "reason": "a\x00b"}, "event.reason"),
        ({"type": "foul", "player": "A", "code": "feet", "reason": "\ud800"}, "event.reason"),
        ({"type": "lag", "A": {"x": nested(33)}}, None),
    ],
    ids=["a number past 10^15", "a NUL", "a lone surrogate", "33 levels"],
)
def test_json_that_carambole_never_keeps_is_a_422_naming_where(match, referee, event, field):
    text = json.dumps({"expected_seq": 0, "event": event})

    answer = send(referee.key, match.id, text)

    assert answer.status_code == 422
    if field is not None:
        assert answer.json()["field"] == field
    assert not Event.objects.exists()


@override_settings(API_MAX_BODY_BYTES=1000)
def test_a_body_over_the_size_limit_is_a_413_and_stores_nothing(match, referee):
    event = {**LAG, "padding": "x" * 1000}

    answer = send(referee.key, match.id, json.dumps({"expected_seq": 0, "event": event}))

    assert answer.status_code == 413
    assert answer.json() == {"error": "the body is larger than 1000 bytes", "field": None}
    assert not Event.objects.exists()


def test_the_default_size_limit_is_64_kib(match, staff):
    body = json.dumps({"name": "x" * 64 * 1024})

    answer = api(staff.key).post("/api/competitions/", body, content_type="application/json")

    assert answer.status_code == 413


def test_a_body_sent_as_a_form_is_a_400_asking_for_json(match, referee):
    answer = send(referee.key, match.id, "expected_seq=0", "application/x-www-form-urlencoded")

    assert answer.status_code == 400
    assert "must be JSON" in answer.json()["error"]


def test_an_unknown_path_under_api_answers_a_json_404(db):
    answer = Client().get("/api/nowhere/at/all")

    assert answer.status_code == 404
    assert answer["Content-Type"] == "application/json"
    assert answer.json() == {"error": "no such path '/api/nowhere/at/all'", "field": None}


@override_settings(DEBUG=True)
def test_an_unknown_path_under_api_answers_a_json_404_with_debug_on_too(db):
    answer = Client().get("/api/nowhere")

    assert answer.status_code == 404
    assert answer.json()["field"] is None


def test_a_post_to_a_path_without_its_slash_is_a_json_404_naming_the_path_with_it(staff):
    answer = api(staff.key).post("/api/competitions", {"id": "cup-2027"}, format="json")

    assert answer.status_code == 404
    assert answer.json()["error"] == (
        "no such path '/api/competitions'; did you mean '/api/competitions/'?"
    )


def test_a_post_to_an_unknown_path_asks_for_no_csrf_token_and_answers_a_json_404(db):
    answer = Client(enforce_csrf_checks=True).post("/api/nowhere", {})

    assert answer.status_code == 404
    assert answer["Content-Type"] == "application/json"


def test_pages_outside_the_api_keep_djangos_html_404(db):
    answer = Client().get("/nowhere/")

    assert answer.status_code == 404
    assert answer["Content-Type"].startswith("text/html")


def test_a_method_a_path_does_not_take_is_a_json_405(match):
    answer = api().delete(f"/api/matches/{match.id}")

    assert answer.status_code == 405
    assert answer.json()["error"] == 'Method "DELETE" not allowed.'


def test_a_client_that_asks_for_html_gets_json(match):
    answer = api().get(f"/api/matches/{match.id}", HTTP_ACCEPT="text/html")

    assert answer.status_code == 200
    assert answer["Content-Type"] == "application/json"


def test_a_request_for_a_host_not_allowed_under_api_answers_a_json_400(match):
    answer = Client().get(f"/api/matches/{match.id}", HTTP_HOST="evil.example")

    assert answer.status_code == 400
    assert answer.json() == {"error": "bad request", "field": None}


def test_a_bug_under_api_answers_a_json_500_not_an_html_page(match):
    client = Client(raise_request_exception=False)
    with mock.patch("replay.api.views.match_get", side_effect=RuntimeError("a bug")):
        answer = client.get(f"/api/matches/{match.id}")

    assert answer.status_code == 500
    assert answer.json() == {"error": "internal error", "field": None}


def test_a_bad_token_is_a_401_with_the_token_challenge_even_where_anyone_may_read(match):
    answer = api("not-a-token").get(f"/api/matches/{match.id}")

    assert answer.status_code == 401
    assert answer["WWW-Authenticate"] == "Token"
    assert answer.json() == {"error": "invalid or revoked token", "field": None}


@pytest.mark.parametrize("header", ["Token", "Token a b", "Token \xe9t\xe9"])
def test_a_malformed_authorization_header_is_a_401(match, header):
    answer = api().get(f"/api/matches/{match.id}", HTTP_AUTHORIZATION=header)

    assert answer.status_code == 401
    assert set(answer.json()) == {"error", "field"}


def test_the_token_of_an_inactive_user_is_a_401(match, referee):
    referee.user.is_active = False
    referee.user.save()

    assert api(referee.key).get(f"/api/matches/{match.id}").status_code == 401
