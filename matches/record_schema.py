"""The JSON Schema of a match record (`carambole.match/1`), served at /schemas/match-record.json.

Built from the notation's own names and limits, so it cannot drift from what an import
accepts. A schema says what a record looks like; whether its events are legal in the
game (a shot by the player who is due, a hash that chains) is for an import to check.
"""

from __future__ import annotations

import re
from typing import Any

from matches.domain import notation
from matches.domain.notation import (
    CONFIRMED,
    ENVELOPE,
    LONGEST,
    LONGEST_INTERMISSION,
    MAX_EVENTS,
    RECORD_FORMAT,
)
from matches.domain.rules import (
    BALLS,
    CALLED_FOULS,
    LAG_FAULTS,
    MAX_GAMES,
    PINS,
    PLACEMENT_REASONS,
    PLAYERS,
    TABLE_LENGTH,
    TABLE_WIDTH,
)
from matches.domain.rules.ruleset import POINTS_RANGE, RANGES, Ruleset
from matches.domain.state import CONFIRMING_ROLES

SCHEMA_ID = "/schemas/match-record.json"


def json_pattern(regex: re.Pattern[str], end: str = "$") -> str:
    """Return a notation pattern as JSON Schema writes it: its final `\\Z` as `end`.

    JSON Schema's regexps (ECMA-262) have no `\\Z`; their `$`, without the multiline flag,
    is the end of the text, as `\\Z` is in Python.
    """
    if not regex.pattern.endswith("\\Z"):
        raise ValueError(f"a notation pattern ends at \\Z: {regex.pattern}")
    return regex.pattern.removesuffix("\\Z") + end


SLUG = json_pattern(notation.SLUG)
UTC_TIME = json_pattern(notation.UTC_TIME)
UTC_MILLISECONDS = json_pattern(notation.UTC_MILLISECONDS)
HASH = json_pattern(notation.HASH)
# The importer's own pattern ("" allowed: no id). Python's `$` (a validator in Python)
# also matches before a final newline: `(?!\n)` refuses that, and is true at the end.
FEDERATION_ID = json_pattern(notation.FEDERATION_ID, "$(?!\\n)")


def _text(longest: int) -> dict[str, Any]:
    return {"type": "string", "maxLength": longest}


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    """Return a schema that also allows null (a record may write an absent value so)."""
    return {"anyOf": [schema, {"type": "null"}]}


def _object(properties: dict[str, Any], required: tuple[str, ...] = ()) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": properties,
        "required": list(required),
        "additionalProperties": False,
    }


def _event(kind: str, properties: dict[str, Any], required: tuple[str, ...] = ()) -> dict[str, Any]:
    """Return one kind of event: its own fields and the envelope any event may carry."""
    stamps = {k: {"$ref": f"#/$defs/{k}"} for k in (CONFIRMED, *ENVELOPE)}
    return _object({"type": {"const": kind}, **properties, **stamps}, ("type", *required))


def _ruleset() -> dict[str, Any]:
    properties: dict[str, Any] = {}
    for name, default in Ruleset().as_dict().items():
        if isinstance(default, bool):
            properties[name] = {"type": "boolean", "default": default}
            continue
        low, high = RANGES.get(name, POINTS_RANGE)
        kind = "number" if isinstance(default, float) else "integer"
        properties[name] = {"type": kind, "minimum": low, "maximum": high, "default": default}
    # An export writes the full ruleset in force; an import may give only what differs.
    return _object(properties)


def record_schema() -> dict[str, Any]:
    """Return the JSON Schema (draft 2020-12) of a match record."""
    player = {"enum": list(PLAYERS)}
    position = {
        "type": "array",
        "prefixItems": [
            {"type": "number", "minimum": 0, "maximum": TABLE_WIDTH},
            {"type": "number", "minimum": 0, "maximum": TABLE_LENGTH},
        ],
        "minItems": 2,
        "maxItems": 2,
        "description": "millimetres: x across the table, y from the bottom cushion",
    }
    reason = _text(LONGEST["reason"])
    contact = _object(
        {
            "ball": {"enum": list(BALLS)},
            "hit": {"enum": [*BALLS, "pins", "cushion", "off"]},
            "pins": {"type": "array", "items": {"enum": list(PINS)}, "uniqueItems": True},
            "same_time": {"type": "boolean"},
        },
        ("ball", "hit"),
    )
    facts = {
        "struck": {"enum": list(BALLS)},
        "contacts": {"type": "array", "items": contact},
        "called": {"type": "array", "items": {"enum": list(CALLED_FOULS)}, "uniqueItems": True},
        "rest": _object({ball: position for ball in BALLS}),
    }
    lag_result = _object(
        {
            "distance": _nullable({"type": "number", "minimum": 0, "maximum": TABLE_LENGTH}),
            "fault": {"enum": [*LAG_FAULTS, None]},
        }
    )
    measured = {"required": ["distance"], "properties": {"distance": {"type": "number"}}}
    events = [
        {
            **_event(
                "lag",
                {
                    "A": lag_result,
                    "B": lag_result,
                    "collision": {"type": "boolean"},
                    "winner": {"enum": [*PLAYERS, None]},
                },
            ),
            # The winner the referee gave, or both distances measured.
            "anyOf": [
                {"required": ["winner"], "properties": {"winner": player}},
                {"required": list(PLAYERS), "properties": {"A": measured, "B": measured}},
            ],
            "description": "each player's result; a winner given alone makes the distances "
            "optional (faults, a collision and two distances that decide otherwise are refused)",
        },
        _event(
            "game_started",
            {"game": {"type": "integer", "minimum": 1, "maximum": MAX_GAMES}, "breaker": player},
            ("game", "breaker"),
        ),
        _event(
            "ball_placed",
            {"ball": {"enum": list(BALLS)}, "pos": position, "reason": {"enum": PLACEMENT_REASONS}},
            ("ball", "pos", "reason"),
        ),
        # Older records wrote a placement's position under "at" (and so carry no time).
        {
            **_event(
                "ball_placed",
                {"ball": {"enum": list(BALLS)}, "reason": {"enum": PLACEMENT_REASONS}},
                ("ball", "at", "reason"),
            ),
            "properties": {
                **_event("ball_placed", {"ball": {"enum": list(BALLS)}})["properties"],
                "reason": {"enum": PLACEMENT_REASONS},
                "at": position,
            },
            "description": "the older spelling: the position under at; write pos instead",
        },
        _event("shot", {"player": player, **facts}),
        _event(
            "shot_amended",
            {"shot": {"$ref": "#/$defs/seq"}, "facts": _object(facts), "reason": reason},
            ("shot", "facts", "reason"),
        ),
        _event(
            "shot_retracted",
            {"shot": {"$ref": "#/$defs/seq"}, "reason": reason},
            ("shot", "reason"),
        ),
        _event("balls_respotted", {"reason": reason}),
        _event(
            "foul",
            {"player": player, "code": {"enum": list(CALLED_FOULS)}, "reason": reason},
            ("player", "code"),
        ),
        _event(
            "intermission",
            {"minutes": {"type": "number", "exclusiveMinimum": 0, "maximum": LONGEST_INTERMISSION}},
        ),
        _event("game_forfeited", {"player": player, "reason": reason}, ("player",)),
        _event("match_forfeited", {"player": player, "reason": reason}, ("player",)),
        {
            **_event(
                "result_confirmed",
                {"role": {"enum": list(CONFIRMING_ROLES)}, "confirms": {"$ref": "#/$defs/seq"}},
                ("role", "confirms"),
            ),
            "description": "the result as it stood at event `confirms`, signed off by the "
            "referee or a player (a player's PIN checked, never written); an amendment after it "
            "makes the result one to confirm again",
        },
    ]
    # The header keeps what else a record says of its match and its players (the seal
    # covers the players as written): only the events refuse keys they do not know.
    entrant = {
        **_object(
            {
                "name": _text(LONGEST["name"]),
                "federation_id": _nullable(
                    {
                        **_text(LONGEST["federation_id"]),
                        "pattern": FEDERATION_ID,
                        "description": f"{notation.FEDERATION_ID_RULE}; none: null or absent",
                    }
                ),
            },
            ("name",),
        ),
        "additionalProperties": True,
    }
    cue_ball = {"enum": ["white", "yellow"]}
    match = {
        **_object(
            {
                "id": {"type": "string", "pattern": SLUG},
                "competition": _nullable({"type": "string", "pattern": SLUG}),
                "stage": _nullable({"type": ["string", "integer"], "maxLength": LONGEST["stage"]}),
                "table": _nullable({"type": ["string", "integer"], "maxLength": LONGEST["table"]}),
                # A match of a competition in stages: its stage, group (groups only), slot.
                "stage_id": _nullable(_text(LONGEST["stage_id"])),
                "group": _nullable(_text(1)),
                "slot": _nullable(_text(LONGEST["slot"])),
                "date": _nullable({"type": "string", "format": "date"}),
                "referee": _nullable(
                    _object(
                        {
                            "name": _nullable(_text(LONGEST["name"])),
                            "username": _nullable(_text(LONGEST["username"])),
                        }
                    )
                ),
                "players": _object({"A": entrant, "B": entrant}, PLAYERS),
                "balls": _object({"A": cue_ball, "B": cue_ball}, PLAYERS),
                "ruleset": _ruleset(),
            },
            ("players",),
        ),
        "additionalProperties": True,
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "carambole match record",
        "description": (
            f"A five-pins carom billiards match as an ordered log of events ({RECORD_FORMAT}). "
            "The hash chain, the seqs and the legality of each event are checked on import."
        ),
        "type": "object",
        "properties": {
            "format": {"const": RECORD_FORMAT},
            "match": match,
            "events": {"type": "array", "maxItems": MAX_EVENTS, "items": {"$ref": "#/$defs/event"}},
        },
        "required": ["format", "match"],
        "$defs": {
            "seq": {"type": "integer", "minimum": 1, "maximum": MAX_EVENTS},
            "at": {"type": "string", "pattern": UTC_TIME},
            CONFIRMED: {
                "type": "string",
                "pattern": UTC_MILLISECONDS,
                "description": "when the referee confirmed the event at the table, when it "
                "differs from at (a submission that waited offline); never later than at",
            },
            "by": _text(LONGEST["username"]),
            "hash": {"type": "string", "pattern": HASH},
            "event": {
                "type": "object",
                "required": ["type"],
                "properties": {
                    "type": {
                        "enum": list(
                            dict.fromkeys(e["properties"]["type"]["const"] for e in events)
                        )
                    }
                },
                "oneOf": events,
            },
        },
    }
