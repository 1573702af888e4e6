"""The constants a page's scripts share with Python, written once into the page as JSON.

`{% script_constants %}` writes them with Django's `json_script` (an element of type
application/json, which the Content-Security-Policy allows: it runs nothing), and
constants.js reads them: the table's geometry, the fouls a referee calls, and the
character classes of the player key's rule. No script keeps a copy of its own.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import json_script
from django.utils.safestring import SafeString

from matches.domain.notation import NOT_IN_AN_ID, SPACES
from matches.domain.rules import table
from matches.domain.rules.ruleset import DEFAULT_RULESET
from matches.domain.rules.shot import CALLED_FOULS

register = template.Library()

ELEMENT_ID = "carambole-constants"


def script_constants_data() -> dict[str, Any]:
    """Return the constants the scripts are given, as JSON-ready data."""
    return {
        "table": {
            "width": table.TABLE_WIDTH,
            "length": table.TABLE_LENGTH,
            "ball_diameter": table.BALL_DIAMETER,
            "balls": list(table.BALLS),
            "pins": list(table.PINS),
            "spots": {name: list(at) for name, at in table.SPOTS.items()},
            "pin_pitch": DEFAULT_RULESET.pin_pitch,
        },
        "called_fouls": list(CALLED_FOULS),
        # Regular-expression character classes that JavaScript reads as Python does.
        "player_key": {"not_in_an_id": NOT_IN_AN_ID, "spaces": SPACES},
    }


@register.simple_tag
def script_constants() -> SafeString:
    """Write the scripts' constants into the page (see the module's docstring)."""
    return json_script(script_constants_data(), ELEMENT_ID)
