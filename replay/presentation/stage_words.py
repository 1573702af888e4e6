"""A competition's stages in the page's language: stages, rounds, slots, where a player went out.

Built from the ids and slot names the README settles (`groups:A1`, `W:ko-1-3`,
`L:ko-2-1`, `ko:S5`, `BYE`) and from what each stage is (`Terms`), never from a match's
free-text `stage`, and never showing a stage's id unless two stages would read alike.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from matches.domain.stages import Stage
from replay.presentation.standings_words import place


@dataclass(frozen=True)
class Terms:
    """What a stage's words need: its kind, its groups or rounds, and whether another stage
    of the competition would read alike."""

    id: str
    kind: str  # "groups" or "knockout"
    groups: int = 0  # a groups stage's groups (0 before its draw)
    rounds: int = 0  # a knockout's rounds (0 before its draw)
    alike: bool = False


def terms_of(stages: Sequence[Mapping[str, Any]]) -> dict[str, Terms]:
    """Return each stage's terms, from the stages as `GET …/stages` gives them."""
    found = [
        Terms(
            stage["id"],
            stage["kind"],
            groups=len(stage.get("groups") or []),
            rounds=len(stage.get("rounds") or []),
        )
        for stage in stages
    ]
    return alike_marked(found)


def terms_of_shapes(shapes: Sequence[Mapping[str, Any]]) -> dict[str, Terms]:
    """Return each stage's terms from its shape (`stage_shapes`: counts, not views)."""
    found = [
        Terms(shape["id"], shape["kind"], groups=shape["groups"], rounds=shape["rounds"])
        for shape in shapes
    ]
    return alike_marked(found)


def alike_marked(found: list[Terms]) -> dict[str, Terms]:
    """Return the terms by stage id, each marked when another stage reads alike."""
    names = [_kind_name(terms) for terms in found]
    return {
        terms.id: Terms(terms.id, terms.kind, terms.groups, terms.rounds, names.count(name) > 1)
        for terms, name in zip(found, names, strict=True)
    }


def _kind_name(terms: Terms) -> str:
    if terms.kind == "knockout":
        return _("Knockout")
    return _("Round robin") if terms.groups == 1 else _("Group stage")


def stage_name(terms: Terms) -> str:
    """Return a stage's name: "Group stage", "Knockout", "Round robin" (with its id when
    another stage of the competition has the same name)."""
    name = _kind_name(terms)
    return f"{name} ({terms.id})" if terms.alike else name


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
    """Return what a slot names: "Winner of group A", "Winner of semi-final 2", "Seed 5"."""
    if slot == "BYE":
        return _("Bye")
    if slot[:2] in ("W:", "L:"):
        round_text, _dash, number_text = slot[2:].split("-", 1)[1].partition("-")
        return _from_a_match(slot[0] == "W", int(round_text), int(number_text), rounds)
    _stage, _colon, where = slot.partition(":")
    if where.startswith("S"):
        return _("Seed %(seed)s") % {"seed": where[1:]}
    return _("%(place)s of group %(group)s") % {"place": place(int(where[1:])), "group": where[0]}


def _from_a_match(winner: bool, round_number: int, number: int, rounds: int) -> str:
    """Return "Winner of semi-final 2", "Loser of quarter-final 1", "Winner of match 3 of
    round 1"."""
    from_the_end = rounds - round_number if rounds else -1
    words = {"number": number, "round": round_number}
    if from_the_end == 1:
        return (
            _("Winner of semi-final %(number)d") if winner else _("Loser of semi-final %(number)d")
        ) % words
    if from_the_end == 2:
        return (
            _("Winner of quarter-final %(number)d")
            if winner
            else _("Loser of quarter-final %(number)d")
        ) % words
    return (
        _("Winner of match %(number)d of round %(round)d")
        if winner
        else _("Loser of match %(number)d of round %(round)d")
    ) % words


def match_place(terms: Terms | None, group: str, slot: str) -> str:
    """Return a match's place in its stage: "Group stage · group B", "Knockout · Final"."""
    if terms is None:
        return ""
    stage = stage_name(terms)
    if group:
        return _("%(stage)s · group %(group)s") % {"stage": stage, "group": group}
    if slot == "3rd":
        return _("%(stage)s · third-place match") % {"stage": stage}
    round_number = int(slot.split("-", 1)[0]) if slot else 0
    return f"{stage} · {_one_match_round(round_number, terms.rounds)}"


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


def dressed(stage: dict[str, Any], terms: Terms) -> dict[str, Any]:
    """Return a stage as `GET …/stages` gives it, with the words its page shows.

    Its name; each knockout round its name; each of a round's matches two lines, a
    player's name or what the unsettled slot names, the winner's marked, and the
    players it holds (for the path of a player through the rounds).
    """
    named_stage = {**stage, "name": stage_name(terms)}
    if stage["kind"] != "knockout":
        return named_stage
    rounds = len(stage["rounds"])
    named = []
    for number, matches in enumerate(stage["rounds"], start=1):
        shown = []
        for match in matches:
            lines = []
            disputed = {d["side"]: d for d in match.get("disputes") or []}
            for side, slot in enumerate(match["slots"]):
                # A match made is shown with who plays it, as the schedule has it; one to
                # come with who the draw goes on with, or what its slot names while it waits.
                holder = match["players"][side] if match["players"] else None
                dispute = disputed.get("AB"[side])
                lines.append(
                    {
                        "text": holder or slot_words(slot, rounds),
                        "held": holder is not None,
                        "bye": slot == "BYE",
                        "won": holder is not None and holder == match["winner"],
                        "dispute": dispute,
                    }
                )
            feeds = [slot[2:] for slot in match["slots"] if slot[:2] in ("W:", "L:")]
            shown.append({**match, "lines": lines, "fed_by": " ".join(feeds)})
        # The match for third place is played beside the final, but is not the final: a
        # column (a phone's tab) of its own, after it.
        third = [match for match in shown if match["slot"] == "3rd"]
        shown = [match for match in shown if match["slot"] != "3rd"]
        named.append({"number": number, "name": round_name(number, rounds), "matches": shown})
        if third:
            named.append({"number": number + 1, "name": _("Third-place match"), "matches": third})
    return {**named_stage, "named_rounds": named}


def out_words(out_in: str | None, terms: Mapping[str, Terms]) -> str:
    """Return where a player went out: "Group stage", "Knockout · Semi-finals"; "—" if still in."""
    if out_in is None:
        return "—"
    stage_id, _colon, round_text = out_in.partition(":")
    found = terms.get(stage_id)
    stage = stage_name(found) if found else stage_id
    if not round_text:
        return stage
    rounds = found.rounds if found else 0
    return f"{stage} · {round_name(int(round_text), rounds)}"


def setup_words(
    stage: Stage, competition_ruleset: Mapping[str, Any] | None, names: Mapping[str, str]
) -> str:
    """Return a stage's set-up as stored, in a sentence: how it is played and who goes on.

    "2 groups; the first 2 of each go on; games to 60 points, best of 3." — what the
    form that created it was given, shown back (`names`: each stage's name by id).
    """
    parts = []
    if stage.kind == "groups":
        parts.append(
            ngettext("%(count)s group", "%(count)s groups", stage.groups) % {"count": stage.groups}
        )
        if stage.advance:
            # One or several, not a plural of a count: "the first 21" is no singular.
            parts.append(
                _("the winner of each goes on")
                if stage.advance == 1
                else _("the first %(count)s of each go on") % {"count": stage.advance}
            )
    else:
        if stage.source:
            source = names.get(stage.source, stage.source)
            parts.append(_("the qualifiers of %(stage)s") % {"stage": source})
            if stage.direct:
                parts.append(
                    _("seed 1 joins without playing %(stage)s") % {"stage": source}
                    if stage.direct == 1
                    else _("seeds 1 to %(count)s join without playing %(stage)s")
                    % {"count": stage.direct, "stage": source}
                )
        if stage.size:
            parts.append(
                ngettext("%(size)s place in round one", "%(size)s places in round one", stage.size)
                % {"size": stage.size}
            )
        else:
            parts.append(_("round one as large as the players need"))
        parts.append(
            _("a match for third place") if stage.third_place else _("no match for third place")
        )
    ruleset = stage.ruleset_under(competition_ruleset)
    parts.append(games_in_words(ruleset.target, ruleset.best_of))
    return "; ".join(parts) + "."


def games_in_words(target: int, best_of: int) -> str:
    """Return "games to 60 points, best of 3", each count with its noun in the right form."""
    to_points = ngettext("games to %(target)s point", "games to %(target)s points", target) % {
        "target": target
    }
    return f"{to_points}, {best_of_words(best_of)}"


def best_of_words(best_of: int) -> str:
    """Return "best of 3": «до 1 партії», «до 5 партій» in Ukrainian."""
    # The same English for one and many, but not in Ukrainian: a plural all the same.
    return ngettext("best of %(best_of)s", "best of %(best_of)s", best_of) % {"best_of": best_of}
