"""A refusal is said in the request's language, with its code and parameters as raised."""

import pytest
from django.utils import translation

from matches.domain.errors import Refused
from matches.domain.refusals import TEXTS
from replay.presentation.refusals import refusal_text
from tests.support.builders import QUIET
from tests.support.logins import api


def record(key, match_id, body, **headers):
    return api(key).post(f"/api/matches/{match_id}/events", body, format="json", **headers)


def test_a_refusal_is_said_in_ukrainian_when_the_request_asks_for_it(opened_for_referee, referee):
    body = {"expected_seq": 3, "event": {"type": "shot", **QUIET, "player": "B"}}

    answer = record(referee.key, opened_for_referee.id, body, HTTP_ACCEPT_LANGUAGE="uk")

    assert answer.status_code == 422
    assert answer.json() == {
        "error": "зараз удар гравця A",
        "field": "player",
        "seq": 4,
        "code": "not_due",
        "params": {"player": "A"},
    }


def test_a_refusal_follows_the_language_the_pages_were_switched_to(opened_for_referee, referee):
    client = api(referee.key)
    client.cookies["django_language"] = "uk"

    answer = client.post(
        f"/api/matches/{opened_for_referee.id}/events",
        {"expected_seq": 2, "event": {"type": "shot", **QUIET}},
        format="json",
    )

    assert answer.status_code == 409
    assert answer.json()["error"] == "зустріч уже на події 3"
    assert answer.json()["code"] == "stale_seq"


def test_a_refusal_is_said_in_english_when_no_language_is_asked(opened_for_referee, referee):
    body = {"expected_seq": 3, "event": {"type": "shot", **QUIET, "player": "B"}}

    answer = record(referee.key, opened_for_referee.id, body)

    assert answer.json()["error"] == "it is A's shot"


def test_a_ball_named_in_a_refusal_is_said_in_the_page_words_for_its_colour():
    with translation.override("uk"):
        said = refusal_text(Refused.because("ball_still", "contacts[0].ball", ball="yellow"))

    assert said == "куля (жовта) ще не рухається"


def test_a_half_of_the_table_named_in_a_refusal_is_said_in_ukrainian():
    with translation.override("uk"):
        said = refusal_text(Refused.because("wrong_half", "pos", zone="lower"))

    assert said == "кулю треба поставити в нижню половину"


def test_a_refusal_without_a_code_is_translated_when_the_catalogue_holds_its_sentence():
    with translation.override("uk"):
        assert refusal_text(Refused("must be an object", "event")) == "має бути об'єктом"


@pytest.mark.parametrize("code", sorted(TEXTS))
def test_every_refusal_code_has_a_ukrainian_text(code):
    with translation.override("uk"):
        assert translation.gettext(TEXTS[code]) != TEXTS[code]


def test_a_directors_refusal_is_said_in_ukrainian_naming_the_field(cup, staff):
    answer = api(staff.key).post(
        "/api/competitions/cup/tables",
        {"tables": ["1", "1"]},
        format="json",
        HTTP_ACCEPT_LANGUAGE="uk",
    )

    assert answer.status_code == 422
    assert answer.json() == {
        "error": "стіл '1' названо двічі",
        "field": "tables[1]",
        "code": "table_named_twice",
        "params": {"table": "'1'"},
    }


def test_a_body_missing_a_field_is_refused_in_ukrainian(match, referee):
    answer = record(referee.key, match.id, {"event": {"type": "lag"}}, HTTP_ACCEPT_LANGUAGE="uk")

    assert answer.status_code == 400
    assert answer.json() == {"error": "обов'язкове поле", "field": "expected_seq"}


def test_a_body_with_a_wrong_type_is_refused_in_ukrainian(match, referee):
    body = {"expected_seq": "three", "event": {"type": "lag"}}

    answer = record(referee.key, match.id, body, HTTP_ACCEPT_LANGUAGE="uk")

    assert answer.status_code == 400
    assert answer.json() == {"error": "має бути цілим числом", "field": "expected_seq"}


def test_a_stage_set_up_is_refused_in_ukrainian_naming_the_stage(staff):
    body = {
        "id": "open-2026",
        "name": "Open",
        "stages": [
            {"id": "groups", "kind": "groups", "groups": 2},
            {"id": "groups", "kind": "knockout"},
        ],
    }

    answer = api(staff.key).post(
        "/api/competitions/", body, format="json", HTTP_ACCEPT_LANGUAGE="uk"
    )

    assert answer.status_code == 422
    assert answer.json()["error"] == "етап groups уже є"
    assert answer.json()["field"] == "stages[1].id" and answer.json()["code"] == "stage_id_taken"
