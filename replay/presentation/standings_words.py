"""What a standings version changed, in a sentence of the page's language.

"Amendment to shot 23 (game 2) of Kovalenko v Marchetti, by petrenko “video review”:
Marchetti now wins 2–1 (before: Kovalenko 2–1); Marchetti 3rd → 2nd". Built from a
StandingsChange's `changes` (the event that made the version and why, the match result
before and after, who moved), so the history reads the same after a rebuild.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import get_language
from django.utils.translation import gettext as _

from replay.models import StandingsChange
from replay.presentation.sentences import shot_name

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
    """Return what a version changed and why, in one sentence, with the result it replaced."""
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
    cause = changes.get("cause") or {}
    said = "; ".join(p for p in parts if p)
    if cause.get("reason"):
        # Each language quotes the reason its own way.
        return _("%(cause)s “%(reason)s”: %(said)s") % {
            "cause": _cause(cause),
            "reason": cause["reason"],
            "said": said,
        }
    return f"{_cause(cause)}: {said}"


def _cause(cause: dict[str, Any]) -> str:
    names = cause.get("players") or ["?", "?"]
    shot = _shot(cause)
    words = {"a": names[0], "b": names[1], "by": cause.get("by", ""), "shot": shot}
    kind = cause.get("type")
    if kind == "shot_amended":
        return _("Amendment to %(shot)s of %(a)s v %(b)s, by %(by)s") % words
    if kind == "shot_retracted":
        return _("Retraction of %(shot)s of %(a)s v %(b)s, by %(by)s") % words
    if kind == "match_forfeited":
        return _("%(a)s v %(b)s: the match forfeited, recorded by %(by)s") % words
    if kind == "game_forfeited":
        return _("%(a)s v %(b)s: a game forfeited, recorded by %(by)s") % words
    return _("%(a)s v %(b)s") % words


def _shot(cause: dict[str, Any]) -> str:
    """Return the shot a correction names by its number; a change kept before changes kept
    numbers names it by its event, never by a seq that would read as a number."""
    if cause.get("number"):
        return shot_name(cause["number"], cause.get("game"))
    if cause.get("shot"):
        return _("the shot of event %(seq)s") % {"seq": cause["shot"]}
    return "?"


def _won(result: dict[str, Any]) -> str:
    """Return a counted result as the standings write it, the winner's games first: 2–1."""
    games = result.get("games") or [0, 0]
    return f"{max(games)}–{min(games)}"


def _outcome(result: dict[str, Any]) -> str:
    before, after = result.get("before") or {}, result.get("after") or {}
    was = (
        _("%(winner)s %(score)s") % {"winner": before["winner"], "score": _won(before)}
        if before.get("counted")
        else ""
    )
    if after.get("counted"):
        words = {"winner": after["winner"], "score": _won(after), "was": was}
        if was:
            return _("%(winner)s now wins %(score)s (before: %(was)s)") % words
        return _("%(winner)s wins %(score)s") % words
    if was:
        return _("the result no longer counts until the review is resolved (before: %(was)s)") % {
            "was": was
        }
    if after:
        return _("the match has started")
    return ""
