"""A correction's consequences in sentences of the page's language, naming players, never
with a pronoun: "Rossi now 2nd in group B"; "Rossi, not Fernández, meets Kovalenko in the
quarter-final"; "the quarter-final Kovalenko v Fernández has started and would be
disputed". For the preview of an event and for the competition's history.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _

from replay.presentation.sentences import shot_name
from replay.presentation.stage_words import Terms, stage_name
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
                    _("%(player)s would rank %(place)s in group %(group)s")
                    % {"player": player, "place": place(number), "group": after["group"]}
                )
    match = preview.get("match") or {}
    players = match.get("players") or []
    if (match.get("after") or {}).get("status") == "review" and len(players) == 2:
        said.append(
            _("%(match)s would be under review: its group open until it is decided")
            % {"match": _("%(a)s v %(b)s") % {"a": players[0], "b": players[1]}}
        )
    slots = preview.get("slots") or {}
    for move in slots.get("moves", []):
        said.append(
            move_sentence(
                move["before"],
                move["after"],
                move["round"],
                move["rounds"],
                third_place(move.get("place") or ""),
            )
        )
    for dispute in slots.get("disputes", []):
        said.append(
            _("%(match)s has started and would be disputed")
            % {
                "match": match_words(
                    dispute.get("players") or [],
                    dispute.get("round", 0),
                    dispute.get("rounds", 0),
                    third_place(dispute.get("match") or ""),
                )
            }
        )
    return [capitalised(line) for line in said]


def capitalised(sentence: str) -> str:
    """Return a sentence that may begin with a lower-case word ("the semi-final …") capitalised."""
    return sentence[:1].upper() + sentence[1:]


def third_place(where: str) -> bool:
    """Return whether a place (`ko-2-0`), a match (`euro-ko-3rd`, `-3rd-r2`) or a slot
    (`3rd`) is the third-place match's: it is played in the final's round, never the final."""
    return where == "3rd" or where.endswith("-0") or "-3rd" in where


def move_sentence(
    before: list[Any],
    after: list[Any],
    round_number: int,
    rounds: int,
    third: bool = False,
    group: str = "",
) -> str:
    """Return who meets whom instead of whom: "Rossi, not Fernández, meets Kovalenko in the
    quarter-final" (or both sides, when both change); `group`, a match of that group of a
    stage drawn from another's: "… in group B"."""
    at = (
        _("in group %(group)s") % {"group": group}
        if group
        else in_round(round_number, rounds, third)
    )
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


def in_round(round_number: int, rounds: int, third: bool = False) -> str:
    """Return where a knockout match is played, to end a sentence: "in the quarter-final"."""
    if third:
        return _("in the third-place match")
    from_the_end = rounds - round_number if rounds else -1
    if from_the_end == 0:
        return _("in the final")
    if from_the_end == 1:
        return _("in the semi-final")
    if from_the_end == 2:
        return _("in the quarter-final")
    return _("in round %(number)d") % {"number": round_number}


def match_words(
    players: list[Any], round_number: int, rounds: int, third: bool = False, group: str = ""
) -> str:
    """Return a knockout match by its round and players: "the quarter-final Kovalenko v
    Fernández"; `third`, the third-place match (in the final's round); `group`, a match of
    that group: "the group B match Kovalenko v Fernández"."""
    versus = _("%(a)s v %(b)s") % {"a": players[0], "b": players[1]} if len(players) == 2 else ""
    if group:
        return _("the group %(group)s match %(match)s") % {"group": group, "match": versus}
    if third:
        return _("the third-place match %(match)s") % {"match": versus}
    from_the_end = rounds - round_number if rounds else -1
    if from_the_end == 0:
        return _("the final %(match)s") % {"match": versus}
    if from_the_end == 1:
        return _("the semi-final %(match)s") % {"match": versus}
    if from_the_end == 2:
        return _("the quarter-final %(match)s") % {"match": versus}
    return _("the round %(number)d match %(match)s") % {"number": round_number, "match": versus}


def log_sentence(event: Mapping[str, Any], terms: Mapping[str, Terms]) -> str:
    """Return one event of a competition's log as its history says it."""
    kind = event["type"]
    if kind == "player_entered":
        return _("%(player)s entered, seed %(seed)s") % {
            "player": event["player"]["name"],
            "seed": event["seed"],
        }
    if kind == "players_seeded":
        order = ", ".join(
            f"{seeded['seed']}. {seeded['player']['name']}" for seeded in event["seeds"]
        )
        if event.get("source") == "rating":
            return _("Seeded by the rating of %(day)s: %(order)s") % {
                "day": event.get("as_of", ""),
                "order": order,
            }
        return _("Seeded: %(order)s") % {"order": order}
    if kind == "player_withdrawn":
        return _("%(player)s withdrawn: %(reason)s") % {
            "player": event["player"]["name"],
            "reason": event.get("reason", ""),
        }
    if kind in ("stage_drawn", "draw_undone"):
        found = terms.get(event["stage"])
        stage = stage_name(found) if found else event["stage"]
        if kind == "stage_drawn":
            return _("%(stage)s drawn") % {"stage": stage}
        return _("The draw of %(stage)s undone") % {"stage": stage}
    if kind == "players_moved":
        return _moved(event, terms)
    if kind == "dispute_decided":
        return _decided(event, terms)
    return str(kind)


def _moved(event: Mapping[str, Any], terms: Mapping[str, Terms]) -> str:
    cause = event.get("cause") or {}
    was = [event["was"][side]["name"] for side in "AB"]
    now = [event["now"][side]["name"] for side in "AB"]
    slot = event.get("slot") or "0-0"
    round_text = slot.split("-")[0]
    rounds = next((t.rounds for t in terms.values() if t.kind == "knockout"), 0)
    moved = move_sentence(
        was,
        now,
        int(round_text) if round_text.isdigit() else rounds,
        rounds,
        third_place(slot),
        group=slot[0] if slot[0].isalpha() and slot != "3rd" else "",
    )
    return _("%(cause)s: %(moved)s") % {"cause": cause_words(cause), "moved": moved}


def cause_words(cause: Mapping[str, Any]) -> str:
    """Return the event a change came from: "Amendment to shot 1 of Kovalenko v Fernández"."""
    if cause.get("type") == "dispute_decided":
        return _("A decision on a dispute")
    players = cause.get("players") or ["", ""]
    match = _("%(a)s v %(b)s") % {"a": players[0], "b": players[1]}
    kind = cause.get("type")
    if kind in ("shot_amended", "shot_retracted"):
        # Named as every page names a shot, by its number; a move logged before moves noted
        # numbers names it by its event, never by a seq that would read as a number.
        shot = (
            shot_name(cause["number"])
            if cause.get("number")
            else _("the shot of event %(seq)s") % {"seq": cause.get("shot")}
        )
        words = {"shot": shot, "match": match}
        if kind == "shot_amended":
            return _("Amendment to %(shot)s of %(match)s") % words
        return _("Retraction of %(shot)s of %(match)s") % words
    return _("Event %(seq)s of %(match)s") % {"seq": cause.get("seq"), "match": match}


def _decided(event: Mapping[str, Any], terms: Mapping[str, Terms]) -> str:
    stage_id, _dash, numbers = (event.get("place") or "").partition("-")
    round_text = numbers.split("-")[0]
    found = terms.get(stage_id)
    match = match_words(
        event.get("players") or [],
        int(round_text) if round_text.isdigit() else 0,
        found.rounds if found else 0,
        third_place(event.get("place") or ""),
        group=numbers if numbers.isalpha() else "",
    )
    words = {"match": match, "reason": event.get("reason", "")}
    if event["keep"]:
        said = _("Decision on %(match)s: the match stands as played (%(reason)s)") % words
    else:
        said = (
            _(
                "Decision on %(match)s: the match is void, to be played again by the players as "
                "amended (%(reason)s)"
            )
            % words
        )
    return capitalised(said)
