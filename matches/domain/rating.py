"""The Glicko-2 rating of players across competitions, as pure functions of results.

Glickman's system ("Example of the Glicko-2 system", Boston University, 2013), step by
step as the paper numbers it: a rating `r`, a rating deviation `RD` (how uncertain `r`
is) and a volatility `σ` (how erratic the player's form is) per player, all updated once
per rating period from the results of that period together. Here a rating period is one
calendar day. A player who plays nobody in a period keeps `r` and `σ`, and their `RD`
grows (step 6 alone): a long absence makes a rating less certain. Those periods are
applied when next needed (`idle`: k idle days at once, as k periods one by one would),
so that a day costs its games, not every player ever rated; an `RD` never grows past a
new player's 350, as Glickman's Glicko does.

The parameters are the paper's: a new player starts at 1500, RD 350, σ 0.06; the system
constant τ (how much σ may change in a period) is 0.5, within the 0.3 to 1.2 the paper
recommends; the volatility is found to a tolerance of 1e-6 by the Illinois algorithm the
paper gives. A match counts 1 for its winner and 0 for its loser (five-pins matches have
no draws).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass
from typing import Generic, TypeVar

SCALE = 173.7178  # Glicko-2's scale: μ = (r − 1500) / SCALE, φ = RD / SCALE
START_RATING = 1500.0
START_DEVIATION = 350.0
START_VOLATILITY = 0.06
TAU = 0.5
TOLERANCE = 0.000001

Key = TypeVar("Key", bound=Hashable)  # a player's key


@dataclass(frozen=True)
class Rating:
    """A player's rating, its deviation and volatility, and the matches it counts."""

    rating: float = START_RATING
    deviation: float = START_DEVIATION
    volatility: float = START_VOLATILITY
    matches: int = 0

    def as_json(self) -> dict[str, float | int]:
        return {
            "rating": round(self.rating, 2),
            "deviation": round(self.deviation, 2),
            "volatility": round(self.volatility, 6),
            "matches": self.matches,
        }


@dataclass(frozen=True)
class Outcome(Generic[Key]):
    """One counted match of a rating period: its two players' keys and who won."""

    a: Key
    b: Key
    a_won: bool


def rate(player: Rating, games: Iterable[tuple[Rating, float]], tau: float = TAU) -> Rating:
    """Return a player's rating after one period: each game an opponent (as rated before
    the period) and the player's score against them (1 a win, 0 a loss)."""
    played = list(games)
    mu, phi, sigma = (
        (player.rating - START_RATING) / SCALE,
        player.deviation / SCALE,
        player.volatility,
    )
    if not played:  # step 6 alone: only the deviation grows
        return Rating(player.rating, SCALE * math.sqrt(phi**2 + sigma**2), sigma, player.matches)
    # Steps 3 and 4: the estimated variance from the games alone, and the improvement.
    inverse_variance = 0.0
    improvement = 0.0
    for opponent, score in played:
        mu_j, phi_j = (opponent.rating - START_RATING) / SCALE, opponent.deviation / SCALE
        weight = _g(phi_j)
        expected = _expected(mu, mu_j, weight)
        inverse_variance += weight**2 * expected * (1 - expected)
        improvement += weight * (score - expected)
    variance = 1 / inverse_variance
    delta = variance * improvement
    # Step 5: the new volatility; steps 6 and 7: the new deviation and rating.
    sigma = _volatility(delta, phi, variance, sigma, tau)
    phi_star = math.sqrt(phi**2 + sigma**2)
    phi = 1 / math.sqrt(1 / phi_star**2 + 1 / variance)
    mu = mu + phi**2 * improvement
    # Step 8: back to the Glicko scale.
    return Rating(SCALE * mu + START_RATING, SCALE * phi, sigma, player.matches + len(played))


def rate_period(
    ratings: Mapping[Key, Rating], outcomes: Iterable[Outcome[Key]], tau: float = TAU
) -> dict[Key, Rating]:
    """Return the rating after one period of each player who played in it, each game
    against the opponent as rated before the period (a newcomer as a new player)."""
    games: dict[Key, list[tuple[Rating, float]]] = {}
    for outcome in outcomes:
        a, b = ratings.get(outcome.a, Rating()), ratings.get(outcome.b, Rating())
        games.setdefault(outcome.a, []).append((b, 1.0 if outcome.a_won else 0.0))
        games.setdefault(outcome.b, []).append((a, 0.0 if outcome.a_won else 1.0))
    return {key: rate(ratings.get(key, Rating()), played, tau) for key, played in games.items()}


def idle(rating: Rating, periods: int) -> Rating:
    """Return a rating after `periods` periods without a game: step 6 alone, each time
    (the deviation grows, never past a new player's 350)."""
    if periods <= 0:
        return rating
    phi, sigma = rating.deviation / SCALE, rating.volatility
    grown = min(SCALE * math.sqrt(phi**2 + periods * sigma**2), START_DEVIATION)
    return Rating(rating.rating, grown, sigma, rating.matches)


@dataclass(frozen=True)
class Rated:
    """A player's rating after the last day they played, and that day (its ordinal)."""

    rating: Rating
    day: int


def rate_day(
    rated: Mapping[Key, Rated], day: int, outcomes: Iterable[Outcome[Key]], tau: float = TAU
) -> dict[Key, Rated]:
    """Return the players of one day (a date's ordinal) as rated after it: each rated
    from where the days they did not play left them."""
    played = list(outcomes)
    keys = {outcome.a for outcome in played} | {outcome.b for outcome in played}
    before = {
        key: idle(rated[key].rating, day - rated[key].day - 1) for key in keys if key in rated
    }
    return {key: Rated(rating, day) for key, rating in rate_period(before, played, tau).items()}


def as_of(rated: Rated, day: int) -> Rating:
    """Return a player's rating at the end of a day (an ordinal) on or after they last played."""
    return idle(rated.rating, day - rated.day)


def ratings_by_day(
    days: Iterable[tuple[int, Iterable[Outcome[Key]]]],
    start: Mapping[Key, Rated] | None = None,
    tau: float = TAU,
) -> Iterable[tuple[int, dict[Key, Rated]]]:
    """Yield each day with a counted match (ordinals, in order) with the players of that
    day as rated after it, starting from `start`."""
    rated = dict(start or {})
    for day, outcomes in days:
        today = rate_day(rated, day, outcomes, tau)
        rated.update(today)
        yield day, today


def _g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi**2 / math.pi**2)


def _expected(mu: float, mu_j: float, weight: float) -> float:
    return 1 / (1 + math.exp(-weight * (mu - mu_j)))


def _volatility(delta: float, phi: float, variance: float, sigma: float, tau: float) -> float:
    """Return σ′, the root of the paper's f(x) found by the Illinois algorithm (step 5)."""
    a = math.log(sigma**2)

    def f(x: float) -> float:
        ex = math.exp(x)
        return (
            ex * (delta**2 - phi**2 - variance - ex) / (2 * (phi**2 + variance + ex) ** 2)
            - (x - a) / tau**2
        )

    # The paper's A and B bracket the root; each step keeps the root between them.
    side_a = a
    if delta**2 > phi**2 + variance:
        side_b = math.log(delta**2 - phi**2 - variance)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        side_b = a - k * tau
    f_a, f_b = f(side_a), f(side_b)
    while abs(side_b - side_a) > TOLERANCE:
        c = side_a + (side_a - side_b) * f_a / (f_b - f_a)
        f_c = f(c)
        if f_c * f_b <= 0:
            side_a, f_a = side_b, f_b
        else:
            f_a = f_a / 2
        side_b, f_b = c, f_c
    return math.exp(side_a / 2)
