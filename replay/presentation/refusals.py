"""A refusal in the active language: its code's text translated, its parameters filled in.

The API answers with `refusal_dict`: the record's error shape (`error`, `field`, `seq`)
with `error` said in the request's language, and `code` and `params` as raised. A
parameter that is a word (a ball, a half of the table, what an unknown value was meant
to be) is said in that language too. A refusal without a code is said as its English
text, translated when the catalogue holds that very sentence.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, pgettext_lazy

from matches.domain.errors import Refused
from matches.domain.refusals import TEXTS
from replay.presentation.drawing import ball_name

HALVES = {
    "upper": pgettext_lazy("a half of the table, as in: placed in the upper half", "upper"),
    "lower": pgettext_lazy("a half of the table, as in: placed in the upper half", "lower"),
}
WHAT = "what an unknown value was meant to be"
KINDS = {
    "ball": pgettext_lazy(WHAT, "ball"),
    "contact": pgettext_lazy(WHAT, "contact"),
    "event type": pgettext_lazy(WHAT, "event type"),
    "foul code": pgettext_lazy(WHAT, "foul code"),
    "lag fault": pgettext_lazy(WHAT, "lag fault"),
    "pin": pgettext_lazy(WHAT, "pin"),
    "placement reason": pgettext_lazy(WHAT, "placement reason"),
    "player": pgettext_lazy(WHAT, "player"),
    "role": pgettext_lazy(WHAT, "role"),
}


def _said(name: str, value: str | int) -> str | int:
    """Return a parameter as the active language says it: a word translated, else as it is."""
    if name in ("ball", "hit"):
        return ball_name(str(value))
    words = {"zone": HALVES, "what": KINDS}.get(name, {})
    return str(words[value]) if isinstance(value, str) and value in words else value


def refusal_text(error: Refused) -> str:
    """Return what `error` says, in the active language."""
    if error.code is None or error.code not in TEXTS:
        return gettext(error.message) if error.message else error.message
    params = {name: _said(name, value) for name, value in error.params.items()}
    return gettext(TEXTS[error.code]) % params


def refusal_dict(error: Refused) -> dict[str, Any]:
    """Return `error.as_dict()` with its text in the active language."""
    return {**error.as_dict(), "error": refusal_text(error)}
