"""The tests' builders: a competition "cup", a match of A and B, shots that are always legal.

Plain functions; the fixtures that name what they make are in `tests/support/fixtures.py`.
"""

from __future__ import annotations

from typing import Any

from matches import services
from matches.models import Competition, Match

BY = "petrenko"
PLAYERS = {
    "A": {"name": "Olena Kovalenko", "federation_id": "UA-101"},
    "B": {"name": "Marco Marchetti", "federation_id": "IT-202"},
}
# Cue ball on the opponent's ball and nothing else: legal for either player, scores nothing,
# leaves no ball in hand, so a game can go on shot after shot.
QUIET = {"contacts": [{"ball": "white", "hit": "yellow"}]}
# White on yellow then on red: a kiss carom, 4 points for A (white).
CAROM_A = {"contacts": [{"ball": "white", "hit": "yellow"}, {"ball": "white", "hit": "red"}]}
# White on nothing: a miss, ball in hand for B.
MISS = {"contacts": [{"ball": "white", "hit": "cushion"}]}
LOWER_HALF = [700, 400]
UPPER_HALF = [700, 2000]


def cup(competition: str = "cup") -> None:
    """Create the competition "cup" (or another), with nothing in it."""
    services.competition_create(id=competition, name="Cup")


def new_match(match_id: str = "cup-a-1", competition: str = "cup", **ruleset: Any) -> Match:
    """Create a competition (unless it exists) and a match between A (white) and B (yellow)."""
    if not Competition.objects.filter(pk=competition).exists():
        cup(competition)
    return services.match_create(
        id=match_id, competition=competition, players=PLAYERS, ruleset=ruleset, referee_username=BY
    )


def open_game(match_id: str) -> int:
    """Record a lag won by A, game 1 broken by A and the break placement; return the seq."""
    services.lag_record(
        match_id=match_id, expected_seq=0, by=BY, a={"distance": 90}, b={"distance": 150}
    )
    services.game_start(match_id=match_id, expected_seq=1, by=BY, game=1, breaker="A")
    services.ball_place(
        match_id=match_id, expected_seq=2, by=BY, ball="white", pos=LOWER_HALF, reason="break"
    )
    return 3


def play(match_id: str, expected_seq: int, facts: dict[str, Any] = QUIET, **key: Any) -> int:
    """Record a shot by whoever is due; return its seq."""
    return services.shot_record(
        match_id=match_id, expected_seq=expected_seq, by=BY, facts=facts, **key
    ).seq


def seven_events_and_another(match_id: str = "cup-a-1") -> Match:
    """Store a match of seven events (four shots after the break) and a second, sound one."""
    match = new_match(match_id)
    seq = open_game(match.id)
    for _ in range(4):
        seq = play(match.id, seq)
    other = new_match("cup-a-2")
    play(other.id, open_game(other.id))
    return match
