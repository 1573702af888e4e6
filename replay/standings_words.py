"""What a standings version changed, in a sentence of the page's language.

"Amendment to shot 41 of Kovalenko v Marchetti, by petrenko: Marchetti now wins 2–1;
Marchetti 3rd → 2nd". Built from a StandingsChange's `changes` (the event that made
the version, the match result before and after, who moved), so the history reads
the same after a rebuild.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import get_language
from django.utils.translation import gettext as _

from replay.models import StandingsChange

EN_ENDINGS = {1: "st", 2: "nd", 3: "rd"}
UK_ENDINGS = {1: "ше", 2: "ге", 3: "тє", 7: "ме", 8: "ме"}  # місце: перше, друге, третє


def place(rank: int) -> str:
    """Return a rank as an ordinal of the current language: 3rd; 3-тє."""
    if (get_language() or "en").startswith("uk"):
        if 10 <= rank % 100 <= 19:
            return f"{rank}-те"
        if rank % 100 == 40:
            return f"{rank}-ве"
        return f"{rank}-{UK_ENDINGS.get(rank % 10, 'те')}"
    if 10 <= rank % 100 <= 19:
        return f"{rank}th"
    return f"{rank}{EN_ENDINGS.get(rank % 10, 'th')}"


def counts(change: StandingsChange) -> bool:
    """Return whether a version changed a counted result (not only that a match started)."""
    result = change.changes.get("result") or {}
    before, after = result.get("before") or {}, result.get("after") or {}
    return bool(before.get("counted") or after.get("counted"))


def sentence(change: StandingsChange) -> str:
    """Return what a version changed and why, in one sentence."""
    changes = change.changes
    parts = [_outcome(changes.get("result") or {})]
    for move in changes.get("moves", []):
        if move.get("from") is not None:
            parts.append(
                _("%(player)s %(before)s → %(after)s")
                % {
                    "player": move["player"],
                    "before": place(move["from"]),
                    "after": place(move["to"]),
                }
            )
    return f"{_cause(changes.get('cause') or {})}: {'; '.join(p for p in parts if p)}"


def _cause(cause: dict[str, Any]) -> str:
    names = cause.get("players") or ["?", "?"]
    words = {"a": names[0], "b": names[1], "by": cause.get("by", ""), "shot": cause.get("shot")}
    kind = cause.get("type")
    if kind == "shot_amended":
        return _("Amendment to shot %(shot)s of %(a)s v %(b)s, by %(by)s") % words
    if kind == "shot_retracted":
        return _("Shot %(shot)s of %(a)s v %(b)s retracted, by %(by)s") % words
    if kind == "match_forfeited":
        return _("%(a)s v %(b)s: the match forfeited, recorded by %(by)s") % words
    if kind == "game_forfeited":
        return _("%(a)s v %(b)s: a game forfeited, recorded by %(by)s") % words
    return _("%(a)s v %(b)s") % words


def _outcome(result: dict[str, Any]) -> str:
    before, after = result.get("before") or {}, result.get("after") or {}
    if after.get("counted"):
        games = after.get("games") or [0, 0]
        score = f"{max(games)}–{min(games)}"
        if before.get("counted"):
            return _("%(winner)s now wins %(score)s") % {"winner": after["winner"], "score": score}
        return _("%(winner)s wins %(score)s") % {"winner": after["winner"], "score": score}
    if before.get("counted"):
        return _("the result no longer counts until the review is resolved")
    if after:
        return _("the match has started")
    return ""
