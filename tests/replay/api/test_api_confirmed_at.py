"""`confirmed_at`: an event recorded after it waited keeps when it was confirmed at the table."""

import json

import pytest
from django.test import Client
from jsonschema import Draft202012Validator

from matches import store
from matches.domain.chain import event_hash
from matches.domain.notation import utc_time
from matches.models import Event
from matches.records import record_import
from tests.support.builders import QUIET
from tests.support.logins import api

CONFIRMED = "2026-03-09T10:11:12.345Z"  # long before any test runs: never after `at`


def record(key, match_id, expected_seq, event, **headers):
    body = {"expected_seq": expected_seq, "event": event}
    return api(key).post(f"/api/matches/{match_id}/events", body, format="json", **headers)


def shot(**fields):
    return {"type": "shot", **QUIET, **fields}


def test_an_event_keeps_its_confirmed_at_beside_the_at_the_server_gave_it(
    opened_for_referee, referee
):
    answer = record(referee.key, opened_for_referee.id, 3, shot(confirmed_at=CONFIRMED))

    (event,) = (
        api().get(f"/api/matches/{opened_for_referee.id}/events", {"after": 3}).json()["events"]
    )
    assert answer.status_code == 201
    assert answer.json()["at"] == event["at"]
    assert event["confirmed_at"] == CONFIRMED
    assert utc_time(event["confirmed_at"]) < utc_time(event["at"])
    assert Event.objects.get(match=opened_for_referee, seq=4).data["confirmed_at"] == CONFIRMED


def test_the_hash_of_an_event_covers_its_confirmed_at(opened_for_referee, referee):
    record(referee.key, opened_for_referee.id, 3, shot(confirmed_at=CONFIRMED))

    row = Event.objects.get(match=opened_for_referee, seq=4)
    previous = Event.objects.get(match=opened_for_referee, seq=3).hash
    without = {k: v for k, v in row.as_record().items() if k != "confirmed_at"}
    assert row.hash == event_hash(previous, row.as_record())
    assert row.hash != event_hash(previous, without)
    assert store.verify_chain(opened_for_referee) == []


def test_an_event_without_confirmed_at_is_stored_and_hashed_as_before(opened_for_referee, referee):
    record(referee.key, opened_for_referee.id, 3, shot())

    row = Event.objects.get(match=opened_for_referee, seq=4)
    assert "confirmed_at" not in row.as_record()
    assert row.hash == event_hash(
        Event.objects.get(match=opened_for_referee, seq=3).hash, row.as_record()
    )


def test_a_confirmed_at_later_than_the_servers_at_is_a_422_naming_it_and_stores_nothing(
    opened_for_referee, referee
):
    answer = record(
        referee.key, opened_for_referee.id, 3, shot(confirmed_at="2999-01-01T00:00:00.000Z")
    )

    assert answer.status_code == 422
    assert answer.json()["field"] == "confirmed_at"
    assert answer.json()["seq"] == 4
    assert "later than the event's at" in answer.json()["error"]
    assert Event.objects.filter(match=opened_for_referee).count() == 3


@pytest.mark.parametrize(
    "confirmed_at",
    [
        "2026-03-09T10:11:12Z",  # to the second: the millisecond is what at is written to
        "2026-03-09T10:11:12.345678Z",
        "2026-03-09T10:11:12.345+00:00",
        "2026-03-09 10:11:12.345Z",
        "2026-13-09T10:11:12.345Z",  # no such month
        "2026-02-30T10:11:12.345Z",
        "yesterday",
        "",
        1773051072345,
        None,
    ],
)
def test_a_malformed_confirmed_at_is_a_422_naming_it(opened_for_referee, referee, confirmed_at):
    answer = record(referee.key, opened_for_referee.id, 3, shot(confirmed_at=confirmed_at))

    assert answer.status_code == 422
    assert (answer.json()["field"], answer.json()["seq"]) == ("confirmed_at", 4)


def test_a_resend_with_its_key_answers_the_first_answer_at_included(opened_for_referee, referee):
    first = record(
        referee.key,
        opened_for_referee.id,
        3,
        shot(confirmed_at=CONFIRMED),
        HTTP_IDEMPOTENCY_KEY="k-1",
    )
    again = record(
        referee.key,
        opened_for_referee.id,
        3,
        shot(confirmed_at=CONFIRMED),
        HTTP_IDEMPOTENCY_KEY="k-1",
    )
    unstamped = record(referee.key, opened_for_referee.id, 3, shot(), HTTP_IDEMPOTENCY_KEY="k-1")

    assert again.status_code == 201 and again["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()
    # Another body under the key: the confirmation time is part of the command.
    assert (unstamped.status_code, unstamped.json()["field"]) == (422, "Idempotency-Key")


def test_an_export_carries_confirmed_at_as_its_schema_says_and_imports_unchanged(
    opened_for_referee, referee
):
    record(referee.key, opened_for_referee.id, 3, shot(confirmed_at=CONFIRMED))
    exported = api().get(f"/api/matches/{opened_for_referee.id}/export").json()
    schema = json.loads(Client().get("/schemas/match-record.json").content)
    copy = {**exported, "match": {**exported["match"], "id": "copy-1"}}

    Draft202012Validator(schema).validate(exported)
    assert record_import(exported).outcome == "unchanged"
    assert record_import(copy, by="someone-else").outcome == "created"
    assert api().get("/api/matches/copy-1/export").json()["events"] == exported["events"]
    assert exported["events"][3]["confirmed_at"] == CONFIRMED


def test_the_schema_of_a_record_refuses_a_confirmed_at_not_to_the_millisecond(
    opened_for_referee, referee
):
    record(referee.key, opened_for_referee.id, 3, shot(confirmed_at=CONFIRMED))
    exported = api().get(f"/api/matches/{opened_for_referee.id}/export").json()
    schema = Draft202012Validator(json.loads(Client().get("/schemas/match-record.json").content))

    exported["events"][3]["confirmed_at"] = "2026-03-09T10:11:12Z"

    assert not schema.is_valid(exported)
