"""A competition's stages in the page's language: rounds, slots and where a player went out.

Built from the ids and slot names `competitions.md` settles (`groups:A1`, `W:ko-1-3`,
`L:ko-2-1`, `ko:S5`, `BYE`), never from a match's free-text `stage`.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from replay.presentation.standings_words import place


def round_name(round_number: int, rounds: int) -> str:
    """Return a knockout round's name: the final, the semi-finals, … round 1."""
    from_the_end = rounds - round_number
    if from_the_end == 0:
        return _("Final")
    if from_the_end == 1:
        return _("Semi-finals")
    if from_the_end == 2:
        return _("Quarter-finals")
    return _("Round %(number)d") % {"number": round_number}


def slot_words(slot: str, rounds: int = 0) -> str:
    """Return what a slot names: "Winner of group A", "Winner of 1-3", "Seed 5", "Bye"."""
    if slot == "BYE":
        return _("Bye")
    if slot[:2] in ("W:", "L:"):
        match = slot[2:].split("-", 1)[1]
        if slot[0] == "W":
            return _("Winner of match %(match)s") % {"match": match}
        return _("Loser of match %(match)s") % {"match": match}
    _stage, _colon, where = slot.partition(":")
    if where.startswith("S"):
        return _("Seed %(seed)s") % {"seed": where[1:]}
    return _("%(place)s of group %(group)s") % {"place": place(int(where[1:])), "group": where[0]}


def stage_of_match(stage_id: str, group: str, slot: str, rounds: int = 0) -> str:
    """Return a match's place in its stage in words: "groups · group B", "ko · Final"."""
    if group:
        return _("%(stage)s · group %(group)s") % {"stage": stage_id, "group": group}
    if slot == "3rd":
        return _("%(stage)s · third-place match") % {"stage": stage_id}
    round_number = int(slot.split("-", 1)[0]) if slot else 0
    return f"{stage_id} · {_one_match_round(round_number, rounds)}"


def _one_match_round(round_number: int, rounds: int) -> str:
    """Return the round of one match: the final, a semi-final, a quarter-final, round 2."""
    from_the_end = rounds - round_number if rounds else -1
    if from_the_end == 0:
        return _("Final")
    if from_the_end == 1:
        return _("Semi-final")
    if from_the_end == 2:
        return _("Quarter-final")
    return _("round %(number)d") % {"number": round_number}


def dressed(stage: dict[str, Any]) -> dict[str, Any]:
    """Return a stage as `GET …/stages` gives it, with the words its page shows.

    Each knockout round gets its name; each of its matches two lines, a player's name
    or what the unsettled slot names, the winner's marked.
    """
    if stage["kind"] != "knockout":
        return stage
    rounds = len(stage["rounds"])
    named = []
    for number, matches in enumerate(stage["rounds"], start=1):
        shown = []
        for match in matches:
            lines = []
            for side, slot in enumerate(match["slots"]):
                holder = match["holders"][side]
                lines.append(
                    {
                        "text": holder or slot_words(slot),
                        "held": holder is not None,
                        "bye": slot == "BYE",
                        "won": holder is not None and holder == match["winner"],
                    }
                )
            title = _("Third-place match") if match["slot"] == "3rd" else match["slot"]
            shown.append({**match, "lines": lines, "title": title})
        named.append({"name": round_name(number, rounds), "matches": shown})
    return {**stage, "named_rounds": named}


def out_words(out_in: str | None, stages: list[dict[str, Any]]) -> str:
    """Return where a player went out in words: "groups", "ko · Semi-finals"; "—" if still in."""
    if out_in is None:
        return "—"
    stage_id, _colon, round_text = out_in.partition(":")
    if not round_text:
        return stage_id
    rounds = next((len(s.get("rounds") or []) for s in stages if s["id"] == stage_id), 0)
    return f"{stage_id} · {round_name(int(round_text), rounds)}"
