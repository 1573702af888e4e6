"""The record's JSON Schema writes the notation's own patterns, so the two cannot drift."""

import re
from collections.abc import Iterator
from typing import Any

import pytest

from matches.domain import notation
from matches.record_schema import json_pattern, record_schema

NOTATION_PATTERNS = [value for value in vars(notation).values() if isinstance(value, re.Pattern)]


def patterns_in(schema: Any, path: str = "") -> Iterator[tuple[str, str]]:
    """Yield (where, pattern) for every `pattern` a schema writes, however deep."""
    if isinstance(schema, dict):
        for key, value in schema.items():
            if key == "pattern" and isinstance(value, str):
                yield path, value
            else:
                yield from patterns_in(value, f"{path}/{key}")
    elif isinstance(schema, list):
        for index, value in enumerate(schema):
            yield from patterns_in(value, f"{path}/{index}")


def test_every_pattern_the_schema_writes_is_one_of_the_notations_own():
    written = list(patterns_in(record_schema()))
    own = {json_pattern(regex, end) for regex in NOTATION_PATTERNS for end in ("$", "$(?!\\n)")}

    assert len(written) >= 5
    assert [(where, pattern) for where, pattern in written if pattern not in own] == []


@pytest.mark.parametrize(
    ("where", "regex"),
    [
        (("properties", "match", "properties", "id"), notation.SLUG),
        (("properties", "match", "properties", "competition", "anyOf", 0), notation.SLUG),
        (("$defs", "at"), notation.UTC_TIME),
        (("$defs", notation.CONFIRMED), notation.UTC_MILLISECONDS),
        (("$defs", "hash"), notation.HASH),
    ],
    ids=["match-id", "competition", "at", "confirmed_at", "hash"],
)
def test_each_field_of_the_schema_has_the_pattern_the_notation_checks_it_by(where, regex):
    schema: Any = record_schema()
    for key in where:
        schema = schema[key]

    assert schema["pattern"] == regex.pattern.removesuffix("\\Z") + "$"


@pytest.mark.parametrize(
    ("regex", "text"),
    [
        (notation.SLUG, "cup-2026.a_1"),
        (notation.SLUG, "-cup"),
        (notation.UTC_TIME, "2026-11-29T14:03:07Z"),
        (notation.UTC_TIME, "2026-11-29T14:03:07.123456Z"),
        (notation.UTC_TIME, "2026-11-29 14:03:07Z"),
        (notation.HASH, "ab" * 32),
        (notation.HASH, "AB" * 32),
    ],
)
def test_a_schema_pattern_accepts_just_what_the_notation_does(regex, text):
    assert bool(re.search(json_pattern(regex), text)) == bool(regex.match(text))


def test_a_pattern_that_does_not_end_at_the_end_of_the_text_is_not_taken():
    with pytest.raises(ValueError, match="ends at"):
        json_pattern(re.compile(r"^[a-z]+$"))
