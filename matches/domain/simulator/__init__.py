"""A seeded match simulator: random but legal five-pins matches, for benchmarks and demo data.

Pure Python: no Django, no I/O. Every event is put to the fold (`fold.decide`)
before it is kept, exactly as the services check a referee's entry, so a simulated
record always imports. The same seed always gives the same record.

The play is plausible rather than physical: shots are contact sequences drawn
from weights tuned so that a game to 60 takes roughly 25 to 50 shots, with the
usual share of misses, red-first and pins-first fouls, cue ball on the pins,
balls off the table and called fouls; balls come to rest inside the table
without overlapping, and every ball in hand is placed in the half the rules allow.
"""

from matches.domain.simulator.competition import iter_competition, simulate_competition
from matches.domain.simulator.match import DEFAULT_PLAYERS, SimulationError, simulate_match

__all__ = [
    "DEFAULT_PLAYERS",
    "SimulationError",
    "iter_competition",
    "simulate_competition",
    "simulate_match",
]
