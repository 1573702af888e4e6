"""The spec's example record (tests/fixtures/records/match.json), whole or cut short."""

import json
from pathlib import Path

RECORD = Path(__file__).resolve().parent.parent / "fixtures" / "records" / "match.json"


MATCH_ID = "example-1"


def example(events=None):
    """Return the spec's example record, with only its first `events` events when given."""
    record = json.loads(RECORD.read_text(encoding="utf-8"))
    if events is not None:
        record["events"] = record["events"][:events]
    return record
