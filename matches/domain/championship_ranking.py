"""A championship's final ranking (the README's "Final ranking"): every entrant's place,
by how far they went, and whether it can still change.

Pure Python: read-only functions of a `Championship` fold.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from matches.domain.competition_log import KNOCKOUT, Entrant, place_id
from matches.domain.rules.ranking import Totals
from matches.domain.stages import Stage

if TYPE_CHECKING:
    from matches.domain.championship import Championship


def final_ranking(championship: Championship) -> list[dict[str, Any]]:
    """Return every entrant's final place (the README's "Final ranking")."""
    keyed = [(_standing(championship, entrant), entrant) for entrant in championship.log.by_seed()]
    keyed.sort(key=lambda item: item[0].order, reverse=True)
    rows: list[dict[str, Any]] = []
    for index, (standing, entrant) in enumerate(keyed):
        shared = (
            rows and standing.shares is not None and keyed[index - 1][0].shares == standing.shares
        )
        place = rows[-1]["place"] if shared else index + 1
        rows.append(
            {
                "place": place,
                "player": entrant.name,
                "player_id": entrant.federation_id,
                "seed": entrant.seed,
                "out_in": standing.out_in,
                "provisional": standing.provisional,
            }
        )
    return rows


def _standing(championship: Championship, entrant: Entrant) -> Standing:
    """Return how far an entrant went: the deepest stage drawn with them in it."""
    for index in range(len(championship.stages) - 1, -1, -1):
        stage = championship.stages[index]
        if stage.id not in championship.log.draws:
            continue
        if stage.kind == KNOCKOUT:
            found = _knockout_standing(championship, index, stage, entrant)
        else:
            found = _group_standing(championship, index, stage, entrant)
        if found is not None:
            return found
    # Not drawn into any stage yet: by seed, below everyone drawn.
    return Standing((-1, 0, 0, 0, 0.0, 0.0, 0.0, -entrant.seed), None, True)


def _knockout_standing(
    championship: Championship, index: int, stage: Stage, entrant: Entrant
) -> Standing | None:
    plan = championship.knockout_places(stage.id)
    mine = championship.places_held(stage.id).get(entrant.key, [])
    if not mine:
        return None
    last_round = max(p.round for p in plan if p.number)
    deepest = max(mine, key=lambda p: (p.round, p.number == 0))
    outcome = championship.outcome(place_id(stage.id, deepest))
    won = outcome is not None and outcome.winner.key == entrant.key
    seed = -entrant.seed
    # A dispute open in the stage leaves every place reached in it open to a decision.
    disputed = bool(championship.disputes_by_stage().get(stage.id))
    if deepest.number == 0:  # the third-place match: 3 and 4, once it is decided
        level = last_round - 1
        order = (index, level, int(won), 0, 0.0, 0.0, 0.0, seed)
        return Standing(order, f"{stage.id}:{level}", outcome is None or disputed)
    if outcome is None:  # still in: playing, or waiting for the place's match
        order = (index, deepest.round, 0, 0, 0.0, 0.0, 0.0, seed)
        return Standing(order, None, True)
    if won and deepest.round == last_round:  # the champion
        order = (index, last_round + 1, 0, 0, 0.0, 0.0, 0.0, seed)
        return Standing(order, None, disputed)
    # Out in this round: beaten, or a winner whose next match staff kept as played by
    # another (a replayed semi-final's winner after the final stood), above its losers.
    order = (index, deepest.round, int(won), 0, 0.0, 0.0, 0.0, seed)
    shares = (index, deepest.round, int(won))
    return Standing(order, f"{stage.id}:{deepest.round}", disputed, shares)


def _place_in_group(
    championship: Championship, stage_id: str, group: str, key: str, ordered: list[str]
) -> int:
    """Return a player's place in a group: once it is settled, as amended (a place
    staff kept as played held by who played on from it), else as its table ranks him."""
    if championship.group_places(stage_id, group) is not None:
        amended, _ = championship.assigned(stage_id, group)
        found = next((n for n, held in amended.items() if held == key), None)
        if found is not None:
            return found
    return ordered.index(key) + 1


def _group_standing(
    championship: Championship, index: int, stage: Stage, entrant: Entrant
) -> Standing | None:
    group = championship.group_of(stage.id).get(entrant.key)
    if group is not None:
        ordered, table = championship.group_table(stage.id, group)
        place = _place_in_group(championship, stage.id, group, entrant.key, ordered)
        totals = table.totals.get(entrant.key, Totals())
        played = max(totals.played, 1)
        settled = championship.settled(stage)
        group_settled = championship.group_places(stage.id, group) is not None
        qualifies = stage.advance is not None and place <= stage.advance and not entrant.withdrawn
        return Standing(
            (
                index,
                -1,
                1 if qualifies else 0,
                -place,
                totals.match_points / played,
                (totals.games_won - totals.games_lost) / played,
                (totals.points_for - totals.points_against) / played,
                -entrant.seed,
            ),
            # Out once the group is settled: until then, every place can still change.
            stage.id if group_settled and not qualifies else None,
            not settled or qualifies,
            None,
        )
    return None


@dataclass(frozen=True)
class Standing:
    """An entrant's reach, as the final ranking orders it (higher first)."""

    order: tuple[int, int, int, int, float, float, float, int]
    out_in: str | None
    provisional: bool
    shares: tuple[int, int, int] | None = None  # players with equal `shares` share a place
