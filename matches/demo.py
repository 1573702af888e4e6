"""The demo's live side: a referee and a staff login, and a match under way to referee.

For a development machine only: the logins' passwords are published here and printed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from matches import services
from matches.models import Competition, Match
from matches.selectors import assigned_referee

COMPETITION = "demo-live"
MATCH = "demo-live-1"
BY = "demo-staff"  # who the demo's own events and assignment are recorded by


@dataclass(frozen=True)
class Login:
    """A demo login: its published password, and what it may do."""

    username: str
    password: str
    staff: bool
    may: str


REFEREE = Login("demo-referee", "demo-referee-pass", False, f"records match {MATCH}")
STAFF = Login("demo-staff", "demo-staff-pass", True, "records and amends any match, finished too")
PLAYERS = {
    "A": {"name": "Olena Kovalenko", "federation_id": "UA-101"},
    "B": {"name": "Marco Marchetti", "federation_id": "IT-202"},
}
# Game 1 as far as the demo plays it: A breaks with white; shots alternate strictly.
# Each moved ball comes to rest somewhere, so the board has every ball to draw.
OPENING: list[tuple[str, dict[str, Any]]] = [
    ("lag", {"a": {"distance": 90}, "b": {"distance": 150}}),
    ("game", {"game": 1, "breaker": "A"}),
    ("place", {"ball": "white", "pos": [500, 600], "reason": "break"}),
    # A ricochet and the red pin alone: 3 + 8 = 11 to A.
    (
        "shot",
        {
            "contacts": [
                {"ball": "white", "hit": "yellow"},
                {"ball": "yellow", "hit": "red"},
                {"ball": "red", "hit": "pins", "pins": ["center"]},
            ],
            "rest": {"white": [430, 2300], "yellow": [980, 2560], "red": [860, 1150]},
        },
    ),
    # B's yellow on white, which knocks two white pins: 4 to B.
    (
        "shot",
        {
            "contacts": [
                {"ball": "yellow", "hit": "white"},
                {"ball": "white", "hit": "pins", "pins": ["left", "top"]},
            ],
            "rest": {"yellow": [300, 1750], "white": [600, 900]},
        },
    ),
    # A's kiss carom: white on yellow, then on the red: 4 to A.
    (
        "shot",
        {
            "contacts": [{"ball": "white", "hit": "yellow"}, {"ball": "white", "hit": "red"}],
            "rest": {"white": [1100, 1650], "yellow": [250, 2050], "red": [1150, 2400]},
        },
    ),
    # B's yellow on white and nothing more: no points.
    (
        "shot",
        {
            "contacts": [{"ball": "yellow", "hit": "white"}],
            "rest": {"yellow": [400, 800], "white": [1000, 1950]},
        },
    ),
]


def logins_ensure() -> list[Login]:
    """Create the demo logins, or give them back their published passwords and rights.

    A login that has them already is left as it is: setting even the same password anew
    would end its sessions, and a referee whose server restarts must stay logged in.
    """
    for login in (REFEREE, STAFF):
        services.login_ensure(
            login.username, staff=login.staff, password=login.password, exactly=True
        )
    return [REFEREE, STAFF]


def live_match_ensure() -> Match:
    """Store the demo match with its opening played, once; keep it assigned to the referee."""
    if not Competition.objects.filter(pk=COMPETITION).exists():
        services.competition_create(id=COMPETITION, name="Demo: a match to referee")
    match = Match.objects.filter(pk=MATCH).first()
    if match is None:
        match = services.match_create(
            id=MATCH,
            competition=COMPETITION,
            players=PLAYERS,
            stage="Final",
            table="1",
            referee_name="Demo Referee",
        )
        _play_opening()
        _hall_ensure()
    assigned = assigned_referee(match)
    if assigned is None or assigned.get_username() != REFEREE.username:
        services.referee_assign(match_id=MATCH, username=REFEREE.username, by=BY)
    return match


# The demo's hall: four tables; the match to referee at table 1, another under way at 2,
# one called next to 3, and one waiting for a table (staff call it from the hall page).
TABLES = ["1", "2", "3", "4"]
OTHERS = [
    ("demo-live-2", "Anna Kowalska", "Jan de Vries", "2", True),
    ("demo-live-3", "Sofia Rossi", "Lukas Berger", "3", False),
    ("demo-live-4", "Maria Garcia", "Petr Novak", None, False),
]


def _hall_ensure() -> None:
    services.tables_set(competition_id=COMPETITION, names=TABLES, by=BY)
    services.match_assign_table(match_id=MATCH, table="1", by=BY)
    for match_id, a, b, table, started in OTHERS:
        services.match_create(
            id=match_id,
            competition=COMPETITION,
            players={"A": {"name": a}, "B": {"name": b}},
            stage="Semi-final" if started else "Final",
        )
        if table is not None and started:
            services.match_assign_table(match_id=match_id, table=table, by=BY)
            _play_opening(match_id)
        elif table is not None:
            services.match_call(competition_id=COMPETITION, table=table, match_id=match_id, by=BY)


def _play_opening(match_id: str = MATCH) -> None:
    record: dict[str, Callable[..., object]] = {
        "lag": services.lag_record,
        "game": services.game_start,
        "place": services.ball_place,
        "shot": services.shot_record,
    }
    for seq, (kind, fields) in enumerate(OPENING):
        given = {"facts": fields} if kind == "shot" else fields
        record[kind](match_id=match_id, expected_seq=seq, by=BY, **given)
