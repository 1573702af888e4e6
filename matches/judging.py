"""Judge one line of the `judge` command: own ball, shot facts, ruleset overrides."""

from __future__ import annotations

import json
from typing import Any

from matches.errors import Refused
from matches.notation import check_unicode, parse_shot
from matches.rules import CUE_BALLS, Ruleset, judge

LINE_KEYS = ("own", "shot", "ruleset", "no_score")
TOO_DEEP = "not JSON: nested too deeply"


def judge_line(line: str) -> dict[str, Any]:
    """Return the ruling of one JSON line, or {"error", "field"} when it is rejected."""
    try:
        request = json.loads(line)
    except json.JSONDecodeError as error:
        return {"error": f"not JSON: {error.msg} at column {error.colno}", "field": None}
    except RecursionError:
        return {"error": TOO_DEEP, "field": None}
    try:
        # A lone surrogate ("\ud800") is no text: UTF-8 can carry neither it nor the answer.
        check_unicode(request, None)
        return judge_request(request)
    except Refused as error:
        return error.as_dict()
    except RecursionError:
        return {"error": TOO_DEEP, "field": None}


def judge_request(request: Any) -> dict[str, Any]:
    """Return the ruling for a parsed request, raising Refused."""
    if not isinstance(request, dict):
        raise Refused("must be an object", None)
    for key in request:
        if key not in LINE_KEYS:
            raise Refused(f"unknown field {key!r}", key)
    own = request.get("own")
    if own not in CUE_BALLS:
        raise Refused('must be "white" or "yellow"', "own")
    ruleset = Ruleset.from_overrides(request.get("ruleset"))
    no_score = request.get("no_score", False)
    if not isinstance(no_score, bool):
        raise Refused("must be true or false", "no_score")
    if "shot" not in request:
        raise Refused("is required", "shot")
    shot = parse_shot(request["shot"], own)
    return judge(shot, own, ruleset, no_score=no_score).as_dict()
