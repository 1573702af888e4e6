"""Competitions in stages for the stages pages: an open knockout of sixteen, drawn, with
round one half played; a cup of two groups drawn, its knockout not yet."""

from __future__ import annotations

from matches import services
from tests.support.league import RULESET, win

NAMES = [
    "Maximiliano Wojciechowski",
    "Olena Kovalenko",
    "Marco Marchetti",
    "Lucía Fernández",
    "Tomasz Nowak",
    "Ana Popescu",
    "Dmytro Shevchuk",
    "Giulia Rossi",
    "Pablo Gómez",
    "Anna Bianchi",
    "Bohdan Melnyk",
    "Chiara Conti",
    "Ivan Petrenko",
    "Jean Dubois",
    "Karel Novák",
    "Lena Schmidt",
]


def sixteen(competition: str = "open") -> None:
    """A knockout of 16 from the entries, drawn, with round one half played."""
    services.competition_create(
        id=competition,
        name="Open",
        ruleset=RULESET,
        stages=[{"id": "ko", "kind": "knockout", "third_place": True}],
    )
    for seed, name in enumerate(NAMES, start=1):
        services.player_enter(
            competition_id=competition, player={"name": name}, seed=seed, by="director"
        )
    services.stage_draw(competition_id=competition, stage_id="ko", by="director")
    for number in range(1, 5):
        win(f"{competition}-ko-1-{number}", "A")


def two_groups() -> str:
    """A cup of two groups of four, drawn, and a knockout after them, not drawn yet."""
    services.competition_create(
        id="cup",
        name="Cup",
        ruleset=RULESET,
        stages=[
            {"id": "groups", "kind": "groups", "groups": 2, "advance": 2},
            {"id": "ko", "kind": "knockout", "from": "groups"},
        ],
    )
    for seed, name in enumerate(NAMES[:8], start=1):
        services.player_enter(competition_id="cup", player={"name": name}, seed=seed, by="director")
    services.stage_draw(competition_id="cup", stage_id="groups", by="director")
    return "cup"
