"""A short league to play in the standings tests: games to 4, one game a match.

One carom wins a match, so a result is two or three shots away, and amending the
first shot of a match B won into a carom of A's makes A the winner: a flip.
"""

from __future__ import annotations

from matches import services
from matches.models import Match
from tests.support.builders import BY, CAROM_A, QUIET, open_game

RULESET = {"target": 4, "best_of": 1}
CAROM_B = {"contacts": [{"ball": "yellow", "hit": "white"}, {"ball": "yellow", "hit": "red"}]}
ENTRANTS = [
    {"name": "Olena Kovalenko", "federation_id": "UA-101"},
    {"name": "Marco Marchetti", "federation_id": "IT-202"},
    {"name": "Ivan Petrenko", "federation_id": "UA-102"},
    {"name": "Anna Bianchi"},
]


def league(competition: str = "cup", entrants: list[dict] = ENTRANTS) -> list[str]:
    """Create a competition, enter the players, schedule its round robin; return the matches."""
    services.competition_create(id=competition, name="Cup", ruleset=RULESET)
    for player in entrants:
        services.player_enter(competition_id=competition, player=player, by="federation")
    created = services.round_robin_create(competition_id=competition, by="federation")
    return [match.pk for match in created]


def dated_league(competition: str = "cup") -> list[str]:
    """The same league of four, its six matches on three days from 1 May 2026."""
    services.competition_create(id=competition, name="Cup", ruleset=RULESET)
    for player in ENTRANTS:
        services.player_enter(competition_id=competition, player=player, by="federation")
    made = services.round_robin_create(
        competition_id=competition, by="federation", first_date="2026-05-01"
    )
    return [match.pk for match in made]


def names(match_id: str) -> tuple[str, str]:
    """Return the names of a match's players, A's and B's."""
    players = Match.objects.get(pk=match_id).players
    return players["A"]["name"], players["B"]["name"]


def win(match_id: str, winner: str) -> int:
    """Play a match to the end, won by `winner`; return its last seq (A's first shot is 4)."""
    seq = open_game(match_id)
    if winner == "A":
        return shot(match_id, seq, CAROM_A)
    seq = shot(match_id, seq, QUIET)
    return shot(match_id, seq, CAROM_B)


def shot(match_id: str, seq: int, facts: dict) -> int:
    return services.shot_record(match_id=match_id, expected_seq=seq, by=BY, facts=facts).seq


def flip(match_id: str, seq: int, by: str = BY) -> int:
    """Amend A's first shot of a match B won into a carom: A now wins. Return the seq."""
    return services.ruling_amend(
        match_id=match_id,
        expected_seq=seq,
        by=by,
        shot=4,
        facts=CAROM_A,
        reason="video review: white touched the red",
    ).seq
