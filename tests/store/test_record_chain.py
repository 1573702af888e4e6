"""Imports check the hash chain a record carries, as written, against itself and the store."""

import hashlib
import json
from pathlib import Path

import pytest

from matches.domain.errors import Refused
from matches.records import record_export, record_import

RECORD = Path(__file__).resolve().parent.parent / "fixtures" / "records" / "match.json"
RULESET = {
    "target": 30,
    "best_of": 3,
    "side_pin": 2,
    "center_with_others": 4,
    "center_alone": 8,
    "kiss_carom": 4,
    "ricochet_carom": 3,
    "foul": 2,
    "red_first": 4,
    "cumulative_fouls": True,
    "pin_pitch": 71.5,
}


def canonical(value):
    """The notation's canonical JSON, written out again here so the tests check the code."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def chained(match, events, by="someone-else", at="2026-11-29T10:00:00Z"):
    """Return a record whose events carry seq, at, by and a hash chain computed independently."""
    seal = {"balls": match["balls"], "players": match["players"], "ruleset": RULESET}
    previous = hashlib.sha256(canonical(seal)).hexdigest()
    written = []
    for seq, event in enumerate(events, start=1):
        body = {"seq": seq, **event, "at": at, "by": by}
        previous = hashlib.sha256(previous.encode() + canonical(body)).hexdigest()
        written.append({**body, "hash": previous})
    return {"format": "carambole.match/1", "match": match, "events": written}


def example():
    return json.loads(RECORD.read_text(encoding="utf-8"))


def example_events():
    """The example's events, placements written with `pos` (its `at` is the time here)."""
    return [
        {("pos" if key == "at" else key): value for key, value in event.items()}
        for event in example()["events"]
    ]


def refused(record):
    with pytest.raises(Refused) as refusal:
        record_import(record)
    return refusal.value


@pytest.fixture
def example_exported(db):
    """The spec example imported, and its export (every event with seq, at, by and hash)."""
    record_import(example())
    return record_export("example-1")


def test_reimporting_an_export_whose_stored_hash_was_changed_is_refused_at_that_event(
    example_exported,
):
    example_exported["events"][9]["hash"] = "0" * 64

    error = refused(example_exported)

    assert (error.seq, error.field) == (10, "hash")


def test_reimporting_an_export_whose_recording_time_was_changed_is_refused_at_that_event(
    example_exported,
):
    example_exported["events"][5]["at"] = "2020-01-01T00:00:00Z"

    error = refused(example_exported)

    assert error.seq == 6 and error.field in ("at", "hash")


def test_an_extension_rechained_after_changing_an_early_event_is_refused_at_that_event(db):
    record_import({**example(), "events": example()["events"][:20]})
    whole = record_export("example-1")
    record_import(example())  # the rest, so the export below has every event
    tampered = chained(
        whole["match"],
        [
            {k: v for k, v in e.items() if k not in ("seq", "at", "by", "hash")}
            for e in record_export("example-1")["events"]
        ],
    )

    error = refused(tampered)

    assert error.seq == 1  # its own chain is sound, but it was recorded at another time, by another


def test_a_record_chained_over_its_events_as_written_is_accepted(db):
    match = {
        "id": "as-written",
        "competition": "chains",
        "players": {
            "A": {"name": "Ann", "federation_id": None, "club": "Kyiv"},
            "B": {"name": "Bea"},
        },
        "balls": {"A": "white", "B": "yellow"},
        "ruleset": {"target": 30},
    }
    events = [
        {"type": "lag", "A": {"distance": 90, "fault": None}, "B": {"distance": 120}},
        {"type": "game_started", "game": 1, "breaker": "A"},
        {"type": "shot", "contacts": [{"ball": "white", "hit": "yellow"}]},
        {"type": "intermission"},
    ]
    record = chained(match, events)

    assert record_import(record).outcome == "created"
    assert record_export("as-written")["events"] == record["events"]


def test_a_record_whose_own_chain_breaks_is_refused_at_the_first_broken_event(db):
    record = chained(example()["match"], example_events())
    record["events"][43]["reason"] = "no reason"  # still legal, but not what was hashed

    error = refused(record)

    assert (error.seq, error.field) == (44, "hash")


@pytest.mark.parametrize("at", ["2026-11-29T10:00:00", "2026-11-29T10:00:00+02:00", "yesterday"])
def test_a_recording_time_not_in_utc_with_z_is_refused(db, at):
    record = example()
    record["events"][0]["at"] = at

    error = refused(record)

    assert (error.seq, error.field) == (1, "at")


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"date": "2026-13-45"}, "match.date"),
        ({"date": 20261129}, "match.date"),
        ({"referee": "petrenko"}, "match.referee"),
        ({"referee": {"username": "x" * 151}}, "match.referee.username"),
        ({"stage": "s" * 101}, "match.stage"),
        ({"players": {"A": {"name": "n" * 201}, "B": {"name": "Bea"}}}, "match.players.A.name"),
        ({"players": {"A": {"name": "Ann\ud800"}, "B": {"name": "Bea"}}}, "match.players.A.name"),
    ],
)
def test_a_header_that_cannot_be_stored_is_refused_by_field_and_nothing_is_stored(
    db, change, field
):
    record = example()
    record["match"].update(change)

    error = refused(record)

    assert error.field == field
