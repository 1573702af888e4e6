"""A match record imported to replay (the spec's example unless given another), and the
move the replay page shows."""

from __future__ import annotations

import json
from pathlib import Path

from selenium.webdriver.common.by import By

from matches.records import record_import
from matches.selectors import match_get
from replay.projections.timeline import match_timeline

RECORD = Path(__file__).resolve().parent.parent / "fixtures" / "matches" / "spec_example.json"


def imported(record: dict | None = None) -> tuple[str, dict]:
    """Import a record (default: the spec's example); return its id and its timeline."""
    record = record or json.loads(RECORD.read_text(encoding="utf-8"))
    match_id = record_import(record, by="golden").match_id
    return match_id, match_timeline(match_get(match_id))


def shown_seq(driver) -> int:
    return int(driver.find_element(By.ID, "replay").get_attribute("data-seq") or -1)
