"""Golden match records: each fixture replayed and compared with the state checked by hand.

A record `NAME.json` has one or more expectations `NAME[.LABEL].expected.json`. An
expectation holds the parts of the state it checks, optionally with `upto` (the
state after that event) and `view` (`amended` or `live`); `shots_by_seq` checks
chosen shots of `shots` by their `seq`. Dicts are compared on the keys the
expectation names, lists item by item and in full.
"""

import json
import re
from pathlib import Path
from typing import Any

import pytest

from matches.domain.events import parse_record
from matches.domain.fold import check_log, fold

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "matches"
EXPECTED = re.compile(r"^(?P<record>[^.]+)(?:\.(?P<label>[^.]+))?\.expected\.json$")


def expectations() -> list[Path]:
    return sorted(FIXTURES.glob("*.expected.json"))


def records() -> list[Path]:
    return sorted(p for p in FIXTURES.glob("*.json") if not p.name.endswith(".expected.json"))


def load(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def subset_mismatches(expected: Any, actual: Any, where: str = "") -> list[str]:
    """Return where `actual` differs from `expected` (dicts: only the expected keys)."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return [f"{where}: expected an object, got {actual!r}"]
        problems = []
        for key, value in expected.items():
            if key not in actual:
                problems.append(f"{where}.{key}: missing")
            else:
                problems += subset_mismatches(value, actual[key], f"{where}.{key}")
        return problems
    if isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            return [f"{where}: expected {expected!r}, got {actual!r}"]
        problems = []
        for index, (want, got) in enumerate(zip(expected, actual, strict=True)):
            problems += subset_mismatches(want, got, f"{where}[{index}]")
        return problems
    if expected != actual or type(expected) is not type(actual):
        return [f"{where}: expected {expected!r}, got {actual!r}"]
    return []


def test_every_record_has_an_expectation_and_every_expectation_a_record():
    names = {p.name[: -len(".json")] for p in records()}
    expected_for = {EXPECTED.match(p.name)["record"] for p in expectations()}

    assert len(names) >= 6
    assert names == expected_for


@pytest.mark.parametrize("expected_path", expectations(), ids=lambda p: p.name)
def test_golden_record_replays_to_the_state_checked_by_hand(expected_path: Path):
    name = EXPECTED.match(expected_path.name)
    assert name, f"{expected_path.name} is not NAME[.LABEL].expected.json"
    record = parse_record(load(FIXTURES / f"{name['record']}.json"))
    events = check_log(record.header, record.events)
    expected = load(expected_path)
    upto = expected.pop("upto", None)
    view = expected.pop("view", "amended")
    by_seq = expected.pop("shots_by_seq", {})

    state = fold(record.header, events, upto=upto, view=view)

    problems = subset_mismatches(expected, state)
    shots = {shot["seq"]: shot for shot in state["shots"]}
    for seq, want in by_seq.items():
        if int(seq) not in shots:
            problems.append(f"shots[seq {seq}]: missing")
        else:
            problems += subset_mismatches(want, shots[int(seq)], f"shots[seq {seq}]")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("record_path", records(), ids=lambda p: p.name)
def test_golden_record_state_has_every_key_notation_requires(record_path: Path):
    record = parse_record(load(record_path))

    state = fold(record.header, check_log(record.header, record.events))

    assert {"status", "winner", "games_won", "games", "next", "positions", "shots", "stats"} <= set(
        state
    )
    assert set(state["stats"]) == {"A", "B"}
