"""`confirmed_at` in match records: checked on import against each event's `at`, and hashed."""

import pytest

from matches.domain.errors import Refused
from matches.domain.notation import utc_time
from matches.models import Event, Match
from matches.records import record_export, record_import
from tests.support.records import MATCH_ID, example

AT = "2026-11-29T14:03:07.250Z"


def stamped(confirmed_at, at=AT, seq=2):
    """Return the spec's example record, its event `seq` confirmed (and recorded, at `at`)."""
    record = example()
    event = record["events"][seq - 1]
    event["confirmed_at"] = confirmed_at
    if at is not None:
        event["at"] = at
    return record


def refusal(record):
    with pytest.raises(Refused) as refused:
        record_import(record)
    assert not Match.objects.exists()
    return refused.value


def test_a_record_confirmed_at_its_at_or_earlier_is_imported_as_written(db):
    record = stamped(AT)
    record["events"][5]["confirmed_at"] = "2026-11-28T23:59:59.999Z"

    record_import(record)

    events = record_export(MATCH_ID)["events"]
    assert (events[1]["confirmed_at"], events[1]["at"]) == (AT, AT)
    assert events[5]["confirmed_at"] == "2026-11-28T23:59:59.999Z"
    assert ["confirmed_at" in event for event in events].count(True) == 2


def test_a_record_confirmed_after_its_at_is_refused_naming_the_seq_and_field(db):
    error = refusal(stamped("2026-11-29T14:03:07.251Z"))

    assert (error.seq, error.field) == (2, "confirmed_at")


def test_a_record_without_at_is_checked_against_the_time_of_the_import(db):
    assert refusal(stamped("2999-01-01T00:00:00.000Z", at=None)).field == "confirmed_at"

    record_import(stamped("2026-01-01T00:00:00.000Z", at=None))

    event = Event.objects.get(match_id=MATCH_ID, seq=2)
    assert utc_time(event.data["confirmed_at"]) < utc_time(event.at)


@pytest.mark.parametrize("confirmed_at", ["2026-11-29T14:03:07Z", "2026-11-29", 20261129, None])
def test_a_record_with_a_malformed_confirmed_at_is_refused_naming_it(db, confirmed_at):
    error = refusal(stamped(confirmed_at))

    assert (error.seq, error.field) == (2, "confirmed_at")


def test_a_confirmed_at_changed_after_export_breaks_the_hash_chain_at_that_event(db):
    record_import(stamped("2026-11-29T14:00:00.000Z"))
    exported = record_export(MATCH_ID)
    exported["events"][1]["confirmed_at"] = "2026-11-29T13:00:00.000Z"
    exported["match"]["id"] = "copy-1"

    with pytest.raises(Refused) as refused:
        record_import(exported)

    assert (refused.value.seq, refused.value.field) == (2, "hash")


def test_a_record_that_drops_a_stored_confirmed_at_contradicts_the_stored_match(db):
    record_import(stamped("2026-11-29T14:00:00.000Z"))
    plain = example()

    with pytest.raises(Refused) as refused:
        record_import(plain)

    assert refused.value.seq == 2
