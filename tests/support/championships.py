"""A championship in stages to build on: the euro, eight seeded players in two groups and a
knockout with a match for third place; its group matches played."""

from __future__ import annotations

from matches import services
from matches.models import Match
from tests.support.league import RULESET, win

STAGES = [
    {"id": "groups", "kind": "groups", "groups": 2, "advance": 2},
    {"id": "ko", "kind": "knockout", "from": "groups", "third_place": True},
]
NAMES = [
    *("Rossi", "Kovalenko", "Fernández", "Marchetti", "Petrenko", "Bianchi", "Dubois", "Novak"),
    *("Sato", "Weber", "Horvat", "Lindqvist"),
]


def championship(competition: str = "euro", stages: list | None = None, players: int = 8) -> None:
    services.competition_create(
        id=competition, name="Euro", ruleset=RULESET, stages=stages or STAGES
    )
    for seed, name in enumerate(NAMES[:players], start=1):
        services.player_enter(
            competition_id=competition, player={"name": name}, seed=seed, by="director"
        )


def play_groups(competition: str = "euro") -> None:
    """Play every group match, side A winning: the higher seed of each pair, by the plan."""
    for match in Match.objects.filter(competition_id=competition, stage_id="groups"):
        win(match.pk, "A")
