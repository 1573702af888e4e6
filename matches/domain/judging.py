"""Judge one line of the `judge` command: own ball, shot facts, ruleset overrides."""

from __future__ import annotations

from typing import Any

from matches.domain.errors import Refused, excerpt
from matches.domain.notation import check_json, load_json, parse_shot
from matches.domain.rules import CUE_BALLS, Ruleset, judge

LINE_KEYS = ("own", "shot", "ruleset", "no_score")


def judge_line(line: str) -> dict[str, Any]:
    """Return the ruling of one JSON line, or {"error", "field"} when it is rejected."""
    try:
        return judge_request(load_json(line))
    except Refused as error:
        return {"error": error.message, "field": error.field}


def judge_lines(text: str) -> list[str]:
    """Return the lines of a JSON Lines text: split on newlines only, as JSON Lines says.

    U+2028, U+0085 and the like may stand inside a JSON string; they end no line.
    """
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()  # the newline that ends the last line
    return [line.removesuffix("\r") for line in lines]


def judge_request(request: Any) -> dict[str, Any]:
    """Return the ruling for a parsed request, raising Refused."""
    check_json(request, None)
    if not isinstance(request, dict):
        raise Refused.because("not_object")
    for key in request:
        if key not in LINE_KEYS:
            raise Refused.because("unknown_field", key[:40], name=excerpt(key))
    own = request.get("own")
    if own not in CUE_BALLS:
        raise Refused('must be "white" or "yellow"', "own")
    ruleset = Ruleset.from_overrides(request.get("ruleset"))
    no_score = request.get("no_score", False)
    if not isinstance(no_score, bool):
        raise Refused.because("not_boolean", "no_score")
    if "shot" not in request:
        raise Refused.because("required", "shot")
    shot = parse_shot(request["shot"], own)
    return judge(shot, own, ruleset, no_score=no_score).as_dict()
