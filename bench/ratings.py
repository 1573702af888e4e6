"""The ratings of a 10,000-match archive: rebuilt whole, and again after one old amendment.

In a throwaway SQLite database, 200 players and 10,000 finished matches over three years
are synthesised (results without events: a hidden strength per player decides each, so
the ratings have something to find), stored as the projector stores the matches the
rating counts. Then, timed:

- full: every rating worked out again from the first day (`ratings_recompute`), the
  rebuild's cost;
- incremental: after one match a year before the last day turns round (an amendment's
  effect), the ratings from its day on, as the projector works them out;
- the pure fold alone: the same 10,000 results rated in memory (`matches.domain.rating`), to
  show what the database adds.

No target: reported (the incremental path's cost is the days after the match, so a
match a year old costs about a third of the full rebuild of three years).
"""

from __future__ import annotations

import random
import statistics
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, timedelta
from itertools import groupby
from pathlib import Path
from typing import Any, TextIO

from bench.database import throwaway_sqlite
from matches.domain.rating import Outcome, ratings_by_day
from matches.models import Competition, Match, Player
from replay.models import PlayerRating, RatedMatch
from replay.projections.ratings_writer import ratings_recompute

FIRST_DAY = date(2024, 1, 1)
DAYS = 3 * 365


@dataclass(frozen=True)
class RatingsOptions:
    matches: int = 10_000
    players: int = 200
    repeat: int = 5  # the least a reported figure is measured
    seed: int = 1


def run_ratings(options: RatingsOptions, log: TextIO) -> dict[str, Any]:
    """Synthesise the archive, then time the full and the incremental recompute."""
    directory = Path(tempfile.mkdtemp(prefix="carambole-bench-ratings-"))
    try:
        with throwaway_sqlite(directory / "ratings.sqlite3"):
            return _run(options, log)
    finally:
        for child in directory.iterdir():
            child.unlink()
        directory.rmdir()


def _run(options: RatingsOptions, log: TextIO) -> dict[str, Any]:
    log.write(f"ratings: synthesising {options.matches:,} results of {options.players} players\n")
    rows = _synthesised(options)
    full = [_timed(lambda: ratings_recompute(FIRST_DAY)) for _ in range(options.repeat)]
    written = PlayerRating.objects.count()
    old = rows[_index_a_year_before_the_end(rows)]
    incremental = []
    for _ in range(options.repeat):
        old.a_won = not old.a_won
        RatedMatch.objects.filter(pk=old.pk).update(a_won=old.a_won)
        incremental.append(_timed(lambda: ratings_recompute(old.day)))
    outcomes = [
        (row.day.toordinal(), Outcome(row.player_a_id, row.player_b_id, row.a_won)) for row in rows
    ]
    days = [
        (day, [outcome for _, outcome in group])
        for day, group in groupby(outcomes, key=lambda pair: pair[0])
    ]
    pure = [_timed(lambda: list(ratings_by_day(days))) for _ in range(options.repeat)]
    full_s, incremental_s = statistics.median(full), statistics.median(incremental)
    return {
        "matches": len(rows),
        "players": options.players,
        "days": len(days),
        "rows_written": written,
        "amended_day": old.day.isoformat(),
        "full_ms": round(full_s * 1000, 1),
        "incremental_ms": round(incremental_s * 1000, 1),
        "pure_fold_ms": round(statistics.median(pure) * 1000, 1),
        "ratio_full_to_incremental": round(full_s / incremental_s, 2),
        "samples": {
            "full_vs_pure": [f / p for f, p in zip(full, pure, strict=True)],
            "incremental_vs_pure": [i / p for i, p in zip(incremental, pure, strict=True)],
        },
    }


def _synthesised(options: RatingsOptions) -> list[RatedMatch]:
    chance = random.Random(options.seed)
    competition = Competition.objects.create(id="bench-ratings", name="Bench ratings")
    players = Player.objects.bulk_create(
        Player(name=f"Player {n:03d}", federation_id=f"BR-{n:03d}")
        for n in range(1, options.players + 1)
    )
    strength = {player.pk: chance.gauss(0, 1) for player in players}
    pairs, days = [], sorted(chance.randrange(DAYS) for _ in range(options.matches))
    for number, day in enumerate(days):
        a, b = chance.sample(players, 2)
        won = chance.random() < 1 / (1 + 10 ** (strength[b.pk] - strength[a.pk]))
        pairs.append((f"bench-ratings-{number:05d}", FIRST_DAY + timedelta(days=day), a, b, won))
    Match.objects.bulk_create(
        Match(
            id=match_id,
            competition=competition,
            players={"A": {"name": a.name}, "B": {"name": b.name}},
            player_a=a,
            player_b=b,
            date=day,
            ruleset={},
            status=Match.Status.FINISHED,
        )
        for match_id, day, a, b, _ in pairs
    )
    return RatedMatch.objects.bulk_create(
        RatedMatch(match_id=match_id, day=day, player_a=a, player_b=b, a_won=won)
        for match_id, day, a, b, won in pairs
    )


def _index_a_year_before_the_end(rows: list[RatedMatch]) -> int:
    last = rows[-1].day
    return next(n for n, row in enumerate(rows) if row.day >= last - timedelta(days=365))


def _timed(case: Callable[[], Any]) -> float:
    started = time.perf_counter()
    case()
    return time.perf_counter() - started


def ratings_table(results: dict[str, Any], row: Callable[[str, str, str], str]) -> list[str]:
    """Return the lines `make bench` prints for the ratings."""
    return [
        f"(r) ratings: {results['matches']:,} matches of {results['players']} players over "
        f"{results['days']} days ({results['rows_written']:,} rows of ratings)",
        row("full: every rating worked out again", f"{results['full_ms']:.1f} ms", ""),
        row(
            f"incremental: a match of {results['amended_day']} turned round",
            f"{results['incremental_ms']:.1f} ms",
            f"{results['ratio_full_to_incremental']}x faster than full",
        ),
        row("the pure fold alone, in memory", f"{results['pure_fold_ms']:.1f} ms", ""),
    ]
