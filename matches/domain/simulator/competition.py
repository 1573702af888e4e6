"""A simulated competition: a round robin of simulated matches."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from datetime import timedelta
from typing import Any

from matches.domain.simulator.match import DEFAULT_PLAYERS, day_of, player_entry, simulate_match


def simulate_competition(
    seed: int,
    n_matches: int,
    players: Sequence[Mapping[str, Any] | str] | None = None,
    **options: Any,
) -> list[dict[str, Any]]:
    """Return `n_matches` records of a round robin (legs repeated, sides swapped, as needed)."""
    return list(iter_competition(seed, n_matches, players, **options))


def iter_competition(
    seed: int,
    n_matches: int,
    players: Sequence[Mapping[str, Any] | str] | None = None,
    *,
    competition: str | None = None,
    ruleset: Mapping[str, Any] | None = None,
    tables: int = 4,
    **options: Any,
) -> Iterator[dict[str, Any]]:
    """Yield the records of `simulate_competition` one match at a time."""
    entrants = [player_entry(p) for p in (players or DEFAULT_PLAYERS)]
    if len(entrants) < 2:
        raise ValueError("a competition needs at least two players")
    rng = random.Random(seed)
    competition = competition or f"sim-{seed}"
    first_day = day_of(rng)
    for number, (round_number, a, b) in enumerate(_round_robin(len(entrants), n_matches), 1):
        yield simulate_match(
            rng.getrandbits(64),
            ruleset=ruleset,
            players=[entrants[a], entrants[b]],
            match_id=f"{competition}-{number:04d}",
            competition=competition,
            stage=f"Round {round_number}",
            table=str((number - 1) % tables + 1),
            day=first_day + timedelta(days=round_number - 1),
            **options,
        )


def _round_robin(n_players: int, n_matches: int) -> list[tuple[int, int, int]]:
    """Return (round, player A, player B) by the circle method, legs alternating sides."""
    slots: list[int | None] = list(range(n_players)) + ([None] if n_players % 2 else [])
    pairings: list[tuple[int, int, int]] = []
    round_number = 0
    while len(pairings) < n_matches:
        leg = round_number // (len(slots) - 1)
        round_number += 1
        half = len(slots) // 2
        for a, b in zip(slots[:half], reversed(slots[half:]), strict=True):
            if a is not None and b is not None:
                pairings.append((round_number, b, a) if leg % 2 else (round_number, a, b))
        slots = [slots[0], slots[-1], *slots[1:-1]]
    return pairings[:n_matches]
