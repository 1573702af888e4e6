"""A championship's stages as `GET …/stages` answers them: each stage's groups with their
tables and matches, each knockout's rounds with their places' holders and disputes.

Pure Python: read-only functions of a `Championship` fold.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from matches.domain.competition_log import (
    GROUPS,
    Dispute,
    Played,
    original_id,
    place_id,
    place_name,
)
from matches.domain.rules.ranking import Totals, row
from matches.domain.stages import Stage

if TYPE_CHECKING:
    from matches.domain.championship import Championship


def stage_views(championship: Championship) -> list[dict[str, Any]]:
    """Return every stage as `GET …/stages` answers it."""
    return [_view(championship, stage) for stage in championship.stages]


def _view(championship: Championship, stage: Stage) -> dict[str, Any]:
    view: dict[str, Any] = {
        "id": stage.id,
        "kind": stage.kind,
        "ruleset": stage.ruleset,
        "drawn": stage.id in championship.log.draws,
        "settled": championship.settled(stage),
    }
    if stage.kind == GROUPS:
        view["groups"] = _groups_view(championship, stage) if view["drawn"] else []
    else:
        view["rounds"] = _rounds_view(championship, stage) if view["drawn"] else []
    return view


def _name(championship: Championship, key: str | None) -> str | None:
    """Return the name of an entrant's key: None for no one, the key if none enters it."""
    if not key:
        return None
    found = championship.log.entrants.get(key)
    return found.name if found is not None else key


def _groups_view(championship: Championship, stage: Stage) -> list[dict[str, Any]]:
    return [
        championship.group_view(stage, group)
        for group in championship.log.draws[stage.id]["groups"]
    ]


def group_view_made(championship: Championship, stage: Stage, group: str) -> dict[str, Any]:
    """Return a group's view, made now: its standings and its matches (the fold's
    `group_view` asks it once per group)."""
    ordered, table = championship.group_table(stage.id, group)
    entrants = championship.log.entrants
    standings = []
    for number, key in enumerate(ordered, start=1):
        entrant = entrants[key]
        line = row(
            number,
            key,
            (entrant.name, entrant.federation_id),
            table.totals.get(key, Totals()),
        )
        line["seed"] = entrant.seed
        line["withdrawn"] = entrant.withdrawn
        standings.append(line)
    matches = []
    names = {key: entrant.name for key, entrant in entrants.items()}
    disputes: dict[str, list[Dispute]] = {}
    for dispute in championship.disputes_by_stage().get(stage.id, []):
        for match_id, _ in championship.position_matches(dispute.slot):
            disputes.setdefault(match_id, []).append(dispute)
    for match_id, a, b, round_number in championship.group_matches(stage.id, group):
        played = championship.played_of(match_id)
        # Once begun, as made, whatever came since; before, as its places are held now
        # (a place left empty by a withdrawal is no one's, whoever the match was made for).
        if played is not None and played.started:
            a, b = (str(key) for key in played.result.players)
        own = [dispute.view(names) for dispute in disputes.get(match_id, [])]
        matches.append(
            {
                "slot": original_id(match_id).rsplit("-", 1)[1],
                "round": round_number,
                "slots": None,
                "players": [_name(championship, a), _name(championship, b)],
                "match": match_id if played is not None else None,  # once made
                "replaces": championship.replaced_chain(original_id(match_id))[:-1],
                "status": played.status if played else "scheduled",
                "winner": _winner_name(championship, played),
                "disputed": own[0] if own else None,
                "disputes": own,
            }
        )
    return {
        "name": group,
        "settled": championship.group_places(stage.id, group) is not None,
        "entries": [_name(championship, key) for key in championship.members(stage.id, group)],
        "standings": standings,
        "matches": matches,
    }


def _winner_name(championship: Championship, played: Played | None) -> str | None:
    if played is None or not played.decided:
        return None
    key = played.result.players[0 if played.winner == "A" else 1]
    found = championship.log.entrants.get(str(key))
    return found.name if found else None


def _rounds_view(championship: Championship, stage: Stage) -> list[list[dict[str, Any]]]:
    rounds: list[list[dict[str, Any]]] = []
    names = {key: entrant.name for key, entrant in championship.log.entrants.items()}
    disputes: dict[str, list[Dispute]] = {}
    for dispute in championship.disputes():
        disputes.setdefault(dispute.match, []).append(dispute)
    amended_in_round = _amended_in_rounds(championship, stage)
    for planned in championship.knockout_places(stage.id):
        while len(rounds) < planned.round:
            rounds.append([])
        a, b = (championship.holder(slot) for slot in planned.slots)
        amended = amended_in_round[planned.slots]
        match_id = championship.current(planned.id) if planned.id else None
        played = championship.played_of(match_id) if match_id else None
        if planned.id is None:
            status = "bye"
        elif played is not None:
            status = played.status
        elif championship.free_to_play(stage.id, planned, a, b):
            status = "scheduled"
        else:
            status = "waiting"
        outcome = championship.outcome(place_id(stage.id, planned))
        holders = [_name(championship, key) for key in amended]
        if played is not None:  # who plays it or is to, as made, whatever came since
            players: list[str | None] | None = [
                names.get(str(key), str(key)) for key in played.result.players
            ]
        else:
            players = (
                [_name(championship, a.key), _name(championship, b.key)]
                if a.settled and b.settled and status != "waiting"
                else None
            )
        own = [dispute.view(names) for dispute in disputes.get(match_id or "", [])]
        rounds[planned.round - 1].append(
            {
                "slot": place_name(planned),
                "round": planned.round,
                "slots": list(planned.slots),
                "players": players,
                "holders": holders,
                "match": match_id if played is not None else None,
                "replaces": championship.replaced_chain(planned.id)[:-1] if planned.id else [],
                "status": status,
                "winner": _name(championship, outcome.winner.key) if outcome else None,
                "disputed": own[0] if own else None,
                "disputes": own,
            }
        )
    return rounds


def _amended_in_rounds(
    championship: Championship, stage: Stage
) -> dict[tuple[str, str], list[str | None]]:
    """Return each place's holders as amended, by its slots, but where that would put a
    player into two matches of one round or against himself: those places are left with
    their holders as the draw goes on (a dispute says who holds them as amended)."""
    found: dict[tuple[str, str], list[str | None]] = {}
    rounds: dict[int, list[tuple[str, str]]] = {}
    for planned in championship.knockout_places(stage.id):
        found[planned.slots] = [championship.amended_holder(slot).key for slot in planned.slots]
        rounds.setdefault(planned.round, []).append(planned.slots)
    for places in rounds.values():
        named = [key for slots in places for key in found[slots] if key is not None]
        twice = {key for key in named if named.count(key) > 1}
        for slots in places:
            found[slots] = [
                championship.holder(slot).key if key in twice else key
                for slot, key in zip(slots, found[slots], strict=True)
            ]
    return found
