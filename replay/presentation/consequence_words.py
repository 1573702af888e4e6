"""A correction's consequences in sentences of the page's language, naming players, never
with a pronoun: "Rossi now 2nd in group B"; "Rossi, not Fernández, meets Kovalenko in the
quarter-final"; "the quarter-final Kovalenko v Fernández has started and would be
disputed". For the preview of an event and for the competition's history.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _

from replay.presentation.standings_words import place


def consequence_sentences(preview: Mapping[str, Any]) -> list[str]:
    """Return what a preview says would change, a sentence each."""
    said = []
    for before, after in zip(
        (preview.get("groups") or {}).get("before", []),
        (preview.get("groups") or {}).get("after", []),
        strict=True,
    ):
        was = {player: number for number, player in enumerate(before["places"], start=1)}
        for number, player in enumerate(after["places"], start=1):
            if was.get(player) != number:
                said.append(
                    _("%(player)s now %(place)s in group %(group)s")
                    % {"player": player, "place": place(number), "group": after["group"]}
                )
    slots = preview.get("slots") or {}
    for move in slots.get("moves", []):
        said.append(move_sentence(move["before"], move["after"], move["round"], move["rounds"]))
    for dispute in slots.get("disputes", []):
        said.append(
            _("%(match)s has started and would be disputed")
            % {
                "match": match_words(
                    dispute.get("players") or [], dispute.get("round", 0), dispute.get("rounds", 0)
                )
            }
        )
    return said


def move_sentence(before: list[Any], after: list[Any], round_number: int, rounds: int) -> str:
    """Return who meets whom instead of whom: "Rossi, not Fernández, meets Kovalenko in the
    quarter-final" (or both sides, when both change)."""
    at = in_round(round_number, rounds)
    changed = [side for side in (0, 1) if before[side] != after[side]]
    if len(changed) == 1:
        side = changed[0]
        return _("%(player)s, not %(instead)s, meets %(opponent)s %(round)s") % {
            "player": after[side],
            "instead": before[side],
            "opponent": after[1 - side],
            "round": at,
        }
    return _("%(a)s and %(b)s, not %(was_a)s and %(was_b)s, meet %(round)s") % {
        "a": after[0],
        "b": after[1],
        "was_a": before[0],
        "was_b": before[1],
        "round": at,
    }


def in_round(round_number: int, rounds: int) -> str:
    """Return where a knockout match is played, to end a sentence: "in the quarter-final"."""
    from_the_end = rounds - round_number if rounds else -1
    if from_the_end == 0:
        return _("in the final")
    if from_the_end == 1:
        return _("in the semi-final")
    if from_the_end == 2:
        return _("in the quarter-final")
    return _("in round %(number)d") % {"number": round_number}


def match_words(players: list[Any], round_number: int, rounds: int) -> str:
    """Return a knockout match by its round and players: "the quarter-final Kovalenko v
    Fernández"."""
    versus = _("%(a)s v %(b)s") % {"a": players[0], "b": players[1]} if len(players) == 2 else ""
    from_the_end = rounds - round_number if rounds else -1
    if from_the_end == 0:
        return _("the final %(match)s") % {"match": versus}
    if from_the_end == 1:
        return _("the semi-final %(match)s") % {"match": versus}
    if from_the_end == 2:
        return _("the quarter-final %(match)s") % {"match": versus}
    return _("the round %(number)d match %(match)s") % {"number": round_number, "match": versus}
