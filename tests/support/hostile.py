"""Hostile input for the property tests of bad input: any JSON value, any JSON text, any record.

Shared by `tests/matches/test_hostile_input.py` (no database) and the store's tests. The
values lean on the names the notation knows, so that they get past the first check and
reach the field parsers, the rules and the store.
"""

from __future__ import annotations

import json
import math
import sys
from dataclasses import fields
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from matches.domain.events import KINDS
from matches.domain.notation import CONTACT_TARGETS, ENVELOPE, MAX_DEPTH, RECORD_FORMAT, SHOT_FACTS
from matches.domain.rules import (
    BALLS,
    CALLED_FOULS,
    LAG_FAULTS,
    PINS,
    PLACEMENT_REASONS,
    PLAYERS,
    Ruleset,
)

RECORD = Path(__file__).resolve().parents[1] / "fixtures" / "records" / "match.json"
# Longer than any error message may quote: a message that holds it quoted it whole.
MEGABYTE = 1_000_000
SHORT_MESSAGE = 400  # characters: what an error message may be at most, field included


def example_record() -> dict[str, Any]:
    """Return the spec's example record (44 events), a fresh copy."""
    return json.loads(RECORD.read_text(encoding="utf-8"))


def nested(depth: int) -> list[Any]:
    """Return a list nested `depth` levels deep, built without recursion."""
    value: list[Any] = []
    for _ in range(depth - 1):
        value = [value]
    return value


WORDS = sorted(
    {
        *KINDS,
        *(name for kind in KINDS.values() for name in kind.fields),
        *ENVELOPE,
        *SHOT_FACTS,
        *BALLS,
        *CONTACT_TARGETS,
        *PINS,
        *CALLED_FOULS,
        *LAG_FAULTS,
        *PLACEMENT_REASONS,
        *PLAYERS,
        *(parameter.name for parameter in fields(Ruleset)),
        *("format", RECORD_FORMAT, "match", "events", "id", "competition", "players", "name"),
        *("federation_id", "balls", "ruleset", "stage", "table", "date", "referee", "username"),
        *("own", "shot", "no_score", "distance", "fault", "ball", "hit", "same_time", "pos"),
    }
)
# Text of every kind: NUL, lone surrogates, line and paragraph separators, anything at all.
ANY_TEXT = st.text(st.characters(codec=None), max_size=12)
AWKWARD_TEXT = st.sampled_from(
    ["", " ", "\x00", "a\x00b", "\ud800", "x\udfff", "\u2028", "\x85", "\r", "é" * 201]
)
TEXTS = st.sampled_from(WORDS) | ANY_TEXT | AWKWARD_TEXT
# Federation ids that once broke a page, or that a page's key could confuse with another
# player's (`id-5`, `~5`: the keys of a player without one, before and now) ...
AWKWARD_IDS = [
    *("UA/7", "/", "UA/../7", "id-5", "~5", "~", "~u007e5", "~u002f", ".", "..", "..."),
    *("%2F", "100%", "?x=1#y", "a b", "a\\b", "+&=;:@$", "Ünïcödé-日本-😀", "x" * 100),
]
# ... and ids the rule refuses that an archive kept from before it may hold.
IDS_FROM_BEFORE = ["UA\t7", "UA\n7", "\r\n", " UA-7", "UA-7 ", "\u3000", "\x85", "\u2028", " "]

# Numbers past every limit: a float's (10**309), Python's 4,300 digits, NaN and the infinities,
# and the edges of the ranges (lag distance 2840, minutes 120, pin pitch 61.5 to 200 ...).
# (Drawn as exponents: hypothesis shows its strategies, and 10**4301 cannot even be shown.)
POWERS = st.sampled_from([16, 19, 309, 400, 4301]).map(lambda digits: 10**digits)
HUGE = POWERS | POWERS.map(lambda number: -number) | st.sampled_from([10**15 + 1, 2**63])
EDGES = st.sampled_from(
    [math.nan, math.inf, -math.inf, -0.0, 0, 1, 5, 15, 16, 61.5, 120, 121, 200, 1000, 2840, 2841.5]
)
NUMBERS = st.integers() | st.integers(-3000, 3000) | st.floats() | HUGE | EDGES
LEAVES = st.none() | st.booleans() | NUMBERS | TEXTS
# Deeper than the notation allows, up to deeper than Python's recursion limit.
DEEP = st.sampled_from([MAX_DEPTH + 1, 500, 970, 1000, 5000]).map(nested)

SHALLOW_VALUES = st.recursive(
    LEAVES,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(TEXTS, children, max_size=4),
    max_leaves=24,
)
JSON_VALUES = SHALLOW_VALUES | DEEP


def plausible(name: str) -> st.SearchStrategy[Any]:
    """Return values that a field of this name could hold, and any other value too."""
    position = st.lists(NUMBERS, min_size=2, max_size=2) | st.tuples(NUMBERS, NUMBERS)
    contact = st.fixed_dictionaries(
        {"ball": st.sampled_from(BALLS), "hit": st.sampled_from(CONTACT_TARGETS)},
        optional={
            "pins": st.lists(st.sampled_from(PINS), max_size=3),
            "same_time": st.booleans() | JSON_VALUES,
        },
    )
    facts = st.fixed_dictionaries(
        {},
        optional={
            "contacts": st.lists(contact | JSON_VALUES, max_size=4),
            "called": st.lists(st.sampled_from(CALLED_FOULS) | TEXTS, max_size=2),
            "rest": st.dictionaries(st.sampled_from(BALLS) | TEXTS, position, max_size=3),
            "struck": st.sampled_from(BALLS) | TEXTS,
            # What a command may not set: what the event is, who played, its envelope.
            "type": st.sampled_from(sorted(KINDS)),
            "player": st.sampled_from(PLAYERS),
            "seq": st.integers(0, 6),
            "at": st.just("2026-01-01T00:00:00Z"),
            "by": TEXTS,
            "hash": st.just("0" * 64),
        },
    )
    lag = st.fixed_dictionaries(
        {"distance": NUMBERS}, optional={"fault": st.sampled_from(LAG_FAULTS) | TEXTS}
    )
    choices: dict[str, st.SearchStrategy[Any]] = {
        "player": st.sampled_from(PLAYERS),
        "breaker": st.sampled_from(PLAYERS),
        "A": lag,
        "B": lag,
        "a": lag,
        "b": lag,
        "collision": st.booleans(),
        "game": st.integers(-1, 17) | HUGE,
        "shot": st.integers(-1, 6) | HUGE,
        "ball": st.sampled_from(BALLS),
        "pos": position,
        "reason": st.sampled_from(PLACEMENT_REASONS) | TEXTS | st.just("r" * 1001),
        "code": st.sampled_from(CALLED_FOULS),
        "minutes": NUMBERS,
        "facts": facts,
        "contacts": st.lists(contact, max_size=4),
        "rest": st.dictionaries(st.sampled_from(BALLS), position, max_size=3),
        "distance": NUMBERS,
        "rating": NUMBERS,
        **{parameter.name: NUMBERS | st.booleans() for parameter in fields(Ruleset)},
    }
    return choices.get(name, st.nothing()) | JSON_VALUES


@st.composite
def _events(draw: st.DrawFn) -> dict[str, Any]:
    kind = draw(st.sampled_from(sorted(KINDS)))
    event: dict[str, Any] = {"type": kind}
    for name in KINDS[kind].fields:
        if draw(st.integers(0, 3)):  # most fields given: the checks reach the later ones
            event[name] = draw(plausible(name))
    for name in draw(st.lists(st.sampled_from(ENVELOPE) | TEXTS, max_size=2, unique=True)):
        event[name] = draw(plausible(name))
    return event


def events() -> st.SearchStrategy[Any]:
    """Events as a caller could send them: a kind and most of its fields, or anything at all."""
    return _events() | _events() | JSON_VALUES


def _containers(value: Any) -> list[Any]:
    found, pending = [], [value]
    while pending:
        item = pending.pop()
        if isinstance(item, dict):
            found.append(item)
            pending.extend(item.values())
        elif isinstance(item, list):
            found.append(item)
            pending.extend(item)
    return found


@st.composite
def records(draw: st.DrawFn) -> Any:
    """Draw the spec's example record, cut short and with one to three values replaced."""
    record = example_record()
    record["events"] = record["events"][: draw(st.integers(0, len(record["events"])))]
    for _ in range(draw(st.integers(1, 3))):
        node = draw(st.sampled_from(_containers(record)))
        if isinstance(node, dict):
            key = draw(st.sampled_from(sorted(node)) | TEXTS) if node else draw(TEXTS)
            if key in node and draw(st.booleans()):
                del node[key]
            else:
                node[key] = draw(plausible(key))
        elif node:
            node[draw(st.integers(0, len(node) - 1))] = draw(JSON_VALUES)
        else:
            node.append(draw(JSON_VALUES))
    return draw(st.just(record) | JSON_VALUES)


def json_text(value: Any, ascii: bool = False) -> str:
    """Return the JSON text of a value, integers of any length written out, NaN as NaN.

    A value nested too deep for `json.dumps` is written as lists nested as deep. With
    `ascii`, every other character is escaped: a lone surrogate too, as a file can hold it.
    """
    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        return json.dumps(value, ensure_ascii=ascii)
    except RecursionError:
        return "[" * 5000 + "]" * 5000
    finally:
        sys.set_int_max_str_digits(limit)


NUMBER_TEXTS = st.from_regex(
    r"\A-?(0|[1-9][0-9]{0,20})(\.[0-9]{1,6})?([eE][-+]?[0-9]{1,3})?\Z"
) | st.sampled_from(
    ["NaN", "Infinity", "-Infinity", "1e400", "-1e400", "-0", "1" + "0" * 400, "9" * 4301]
)
STRING_TEXTS = TEXTS.map(json.dumps) | TEXTS.map(lambda text: json.dumps(text, ensure_ascii=False))
WRITTEN = st.recursive(
    st.sampled_from(["null", "true", "false"]) | NUMBER_TEXTS | STRING_TEXTS,
    lambda children: (
        st.lists(children, max_size=4).map(lambda items: "[" + ", ".join(items) + "]")
        | st.lists(st.tuples(STRING_TEXTS, children), max_size=4).map(
            lambda pairs: "{" + ", ".join(f"{key}: {value}" for key, value in pairs) + "}"
        )
    ),
    max_leaves=24,
)
DEEP_TEXTS = st.sampled_from([MAX_DEPTH + 1, 970, 1000, 100_000]).flatmap(
    lambda depth: st.sampled_from(["[" * depth + "]" * depth, '{"a":' * depth + "1" + "}" * depth])
)
# Any JSON text, and any text at all: cut short, deep, with every kind of number and string.
JSON_TEXTS = (
    WRITTEN
    | WRITTEN.flatmap(lambda text: st.integers(0, len(text)).map(lambda cut: text[:cut]))
    | SHALLOW_VALUES.map(json_text)
    | records().map(json_text)
    | DEEP_TEXTS
    | ANY_TEXT
)


def without_lone_surrogates(text: str) -> str:
    """Return text a UTF-8 file can hold: any lone surrogate replaced."""
    return text.encode("utf-8", "replace").decode("utf-8")


# What a file can hold: any JSON text (a lone surrogate replaced), any record written with
# escapes (its lone surrogates escaped, as a hostile writer would send them), any bytes.
FILE_TEXTS = (
    JSON_TEXTS.map(without_lone_surrogates)
    | records().map(lambda record: json_text(record, ascii=True))
    | st.binary()
)
