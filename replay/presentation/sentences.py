"""Rulings in words, for the first paint of the board and the overlay.

The twin of `replay/static/replay/words.js` and `scoreboard.js`: the same sentences
(the same msgids, so one translation serves both), so a page reads the same before
and after its script takes over, and reads at all without one.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from matches.domain.rules import receiver


def foul_name(code: str) -> str:
    """Return the name of a foul code in the active language."""
    words = {
        "wrong_ball": _("wrong ball"),
        "miss": _("miss"),
        "red_first": _("red ball first"),
        "pins_first": _("pins first"),
        "cue_pins": _("pins with the cue ball"),
        "off_table": _("ball off the table"),
        "balls_moving": _("balls still moving"),
        "not_tip": _("not with the tip"),
        "double_hit": _("double hit"),
        "cleaning": _("touched to clean"),
        "displaced": _("ball or pin displaced"),
        "contact_push": _("ball in contact pushed"),
        "feet": _("foot off the floor"),
        "placement": _("ball touched before it was placed"),
        "jump": _("jumped over the pins"),
        "touched": _("ball or pin touched"),
        "push_shot": _("push shot"),
    }
    return words.get(code, code)


def pins_in_words(pins: list[str]) -> str:
    """Return the pins that fell in words, or ""."""
    whites = len([pin for pin in pins if pin != "center"])
    red = "center" in pins
    if red and whites == 4:
        return _("the whole figure")
    if red and whites == 0:
        return _("the red pin alone")
    if red:
        return ngettext("the red pin and %s white pin", "the red pin and %s white pins", whites) % (
            whites,
        )
    if whites:
        return ngettext("%s white pin", "%s white pins", whites) % (whites,)
    return ""


def carom_in_words(carom: str | None) -> str:
    """Return the carom in words, or ""."""
    if carom == "kiss":
        return _("kiss carom")
    if carom == "ricochet":
        return _("ricochet")
    return ""


def obtained_in_words(ruling: Mapping[str, Any]) -> str:
    """Return what a shot obtained (carom and pins) in words, or ""."""
    carom = carom_in_words(ruling.get("carom"))
    pins = pins_in_words(list(ruling.get("pins") or []))
    if carom and pins:
        return _("%(carom)s and %(pins)s") % {"carom": carom, "pins": pins}
    return carom or pins


def done_in_words(ruling: Mapping[str, Any]) -> str:
    """Return what a shot did without the points it would have scored (a void shot scores none)."""
    obtained = obtained_in_words(ruling)
    fouls = list(ruling.get("fouls") or [])
    if fouls:
        listed = ", ".join(foul_name(code) for code in fouls)
        if obtained:
            return _("Foul (%(fouls)s) with %(obtained)s") % {"fouls": listed, "obtained": obtained}
        return _("Foul (%(fouls)s)") % {"fouls": listed}
    return obtained[:1].upper() + obtained[1:] if obtained else _("Valid shot, no points")


def ruling_in_words(
    ruling: Mapping[str, Any] | None, names: Mapping[str, str], player: str | None
) -> str:
    """Return a ruling in words: "Ricochet and the red pin alone: 11 to Kovalenko"."""
    if not ruling:
        return ""
    what = done_in_words(ruling)
    fouls = list(ruling.get("fouls") or [])
    if not fouls and not obtained_in_words(ruling):
        return what
    scorer = receiver(player, ruling.get("scorer"), ruling.get("points"))
    name = names.get(scorer or "") or scorer
    if not ruling.get("points") or not name:
        sentence = _("%(what)s: no points") % {"what": what}
    else:
        sentence = _("%(what)s: %(points)s to %(name)s") % {
            "what": what,
            "points": ruling["points"],
            "name": name,
        }
    if fouls and ruling.get("ball_in_hand"):
        sentence = _("%s, with ball in hand") % (sentence,)
    return sentence


def shot_name(number: int, game: int | None = None) -> str:
    """Return how every page names a shot by its number ("shot 1" is the match's first):
    "shot 48", or "shot 48 (game 2)" beside its game."""
    if game is None:
        return _("shot %(number)s") % {"number": number}
    return _("shot %(number)s (game %(game)s)") % {"number": number, "game": game}


def shot_numbers(shots: Iterable[Mapping[str, Any]]) -> dict[int, int]:
    """Return each shot's number by its seq, from a match state's `shots` (every shot in
    log order, retracted and void ones too): its place among them, the first 1."""
    return {shot["seq"]: number for number, shot in enumerate(shots, start=1)}


def event_name(seq: int) -> str:
    """Return how a page names an event by its seq, beside a shot's number where a link or
    the API needs the seq: "event 4"."""
    return _("event %(seq)s") % {"seq": seq}


def is_void_game(game: Mapping[str, Any]) -> bool:
    """Return whether a game is void: started after an amendment decided the match earlier."""
    return "void_game" in game.get("flags", ())


def in_void_game(shot: Mapping[str, Any], games: Sequence[Mapping[str, Any]]) -> bool:
    """Return whether a shot is void because its game started after the match was decided."""
    return any(game["game"] == shot.get("game") and is_void_game(game) for game in games)


def shot_in_words(
    shot: Mapping[str, Any], names: Mapping[str, str], games: Sequence[Mapping[str, Any]] = ()
) -> str:
    """Return a shot of the match state in words, marking a void, retracted or amended one.

    A void shot scored nothing: its words claim no points and say why it is void, from
    its game in `games` (the state's): the match was already decided, or the game won.
    """
    if shot.get("void") and not shot.get("retracted"):
        done = done_in_words(shot.get("ruling") or {})
        if in_void_game(shot, games):
            return _("%s (void: the match was already decided)") % (done,)
        return _("%s (void: the game was already won)") % (done,)
    words = ruling_in_words(shot.get("ruling"), names, shot.get("player"))
    if shot.get("retracted"):
        return _("%s (retracted)") % (words,)
    if shot.get("amended"):
        return _("%s (amended)") % (words,)
    return words
