"""`python -m bench` (what `make bench` runs): the benchmark suite, a table and JSON.

It lives outside the apps: it measures the read side (`replay`) too, and `matches`
never imports `replay`. The benchmark makes its own database; the user's is never opened.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m bench",
        description=(
            "Simulate and import an archive into a throwaway SQLite database, then measure "
            "import, rebuild and state on demand against raw sqlite3 + orjson reads, and "
            "the live fan-out of a recorded shot beside a bare websockets server, a server's "
            "memory while websockets are opened and closed, a competition's standings after "
            "one amendment, incremental against a full recompute, the same for a championship in "
            "stages after one group match ends, and a hall of 16 tables watched by 500 "
            "viewers beside one match board."
        ),
    )
    parser.add_argument("--matches", type=int, default=200, help="matches in the archive")
    parser.add_argument("--seed", type=int, default=1, help="seed of the simulated archive")
    parser.add_argument("--repeat", type=int, default=7, help="full rebuilds to time")
    parser.add_argument(
        "--json",
        type=Path,
        default=ROOT / "bench-results.json",
        help="where to write the results (default: bench-results.json)",
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bars")
    parser.add_argument("--keep-db", action="store_true", help="keep the throwaway database")
    parser.add_argument(
        "--no-fanout", action="store_true", help="skip the live fan-out (two to four minutes)"
    )
    parser.add_argument("--viewers", type=int, default=1000, help="viewers in the fan-out")
    parser.add_argument(
        "--churn",
        type=int,
        default=20_000,
        help="websocket churn: sockets opened and closed while the server's memory is read",
    )
    parser.add_argument(
        "--no-churn", action="store_true", help="skip the websocket churn (a minute or two)"
    )
    parser.add_argument(
        "--no-standings",
        action="store_true",
        help="skip the standings after one amendment (a 64-player round robin, minutes)",
    )
    parser.add_argument(
        "--standings-players",
        type=int,
        default=64,
        help="players in the standings' round robin (64: 2,016 matches)",
    )
    parser.add_argument(
        "--no-championship",
        action="store_true",
        help="skip the championship in stages (64 players, 8 groups, a knockout of 16; a minute)",
    )
    parser.add_argument(
        "--no-venue",
        action="store_true",
        help="skip the venue: tablets recording while viewers watch (two minutes)",
    )
    parser.add_argument(
        "--no-ratings",
        action="store_true",
        help="skip the ratings of a 10,000-match archive, full and after one old amendment",
    )
    parser.add_argument(
        "--no-hall",
        action="store_true",
        help="skip the hall: 16 tables, 500 viewers, beside one match board (two to five minutes)",
    )
    parser.add_argument("--hall-tables", type=int, default=16, help="hall: tables, a match each")
    parser.add_argument(
        "--hall-viewers", type=int, default=500, help="hall: viewers (and of the match board)"
    )
    parser.add_argument("--tablets", type=int, default=50, help="venue: tablets, a match each")
    parser.add_argument(
        "--venue-seconds", type=float, default=60.0, help="venue: how long the tablets record"
    )
    parser.add_argument(
        "--venue-viewers", type=int, default=100, help="venue: viewers of each match"
    )
    parser.add_argument(
        "--served-from",
        type=Path,
        default=None,
        help="venue: serve the code of another checkout (a before/after comparison)",
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help="a smoke run: every measurement once at its smallest (checks, not figures)",
    )
    parser.add_argument(
        "--shots",
        type=int,
        default=100,
        help="fan-out: shots timed on one match (a third as many rounds on ten matches)",
    )
    parser.add_argument(
        "--fanout-scenario",
        action="append",
        metavar="NAME",
        help=(
            "fan-out: measure this scenario only, repeatable (one_match, ten_matches, "
            "ten_matches_20_referees, one_match_thin_clients; default: all four)"
        ),
    )
    options = parser.parse_args(argv)

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "carambole.settings")
    import django

    django.setup()
    import orjson

    from bench.amendment import standings_table
    from bench.championship import championship_table
    from bench.fanout import YARDSTICK
    from bench.hall import table as hall_table
    from bench.ratings import ratings_table
    from bench.steadiness import table as steadiness_table
    from bench.steadiness import timed_beside
    from bench.suite import _row as row
    from bench.suite import table
    from bench.venue import table as venue_table

    scenarios = tuple(options.fanout_scenario or YARDSTICK)
    if unknown := sorted(set(scenarios) - set(YARDSTICK)):
        parser.error(f"--fanout-scenario: no scenario {', '.join(unknown)} (see --help)")

    with timed_beside() as steadiness:
        results = _measure(options, scenarios)
    results["steadiness"] = steadiness.summary()
    options.json.write_bytes(orjson.dumps(results, option=orjson.OPT_INDENT_2) + b"\n")
    print(table(results))
    if "hall" in results:
        print("\n" + hall_table(results["hall"]))
    if "standings" in results:
        print("\n" + "\n".join(standings_table(results["standings"], row)))
    if "championship" in results:
        print("\n" + "\n".join(championship_table(results["championship"], row)))
    if "ratings" in results:
        print("\n" + "\n".join(ratings_table(results["ratings"], row)))
    if "venue" in results:
        print("\n" + "\n".join(venue_table(results["venue"])))
    print("\n" + "\n".join(steadiness_table(results["steadiness"], row)))
    print(f"\nresults written to {options.json}")


def _measure(options: argparse.Namespace, scenarios: tuple[str, ...]) -> dict[str, Any]:
    """Run each section the options ask for; return their results by name."""
    from django.conf import settings

    from bench.amendment import StandingsOptions, run_standings
    from bench.championship import ChampionshipOptions, run_championship
    from bench.churn import FIRST
    from bench.fanout import FanoutOptions
    from bench.hall import HallOptions, run_hall
    from bench.ratings import RatingsOptions, run_ratings
    from bench.suite import Options, run
    from bench.venue import VenueOptions, run_venue

    results = run(
        Options(
            matches=options.matches,
            seed=options.seed,
            repeat=options.repeat,
            progress=not options.no_progress,
            keep_db=options.keep_db,
            quick=options.quick,
            churn=None if options.no_churn else FIRST if options.quick else options.churn,
            fanout=None
            if options.no_fanout
            else FanoutOptions(
                viewers=options.viewers,
                shots=options.shots,
                rounds=max(options.shots // 3, 1),
                referee_shots=max(options.shots // 6, 1),
                redis_url=settings.REDIS_URL,
                scenarios=scenarios,
            ),
        ),
        log=sys.stderr,
    )
    if not options.no_hall:
        results["hall"] = run_hall(
            HallOptions(
                tables=4 if options.quick else options.hall_tables,
                viewers=20 if options.quick else options.hall_viewers,
                rounds=2 if options.quick else HallOptions.rounds,
                settle_s=0.5 if options.quick else HallOptions.settle_s,
                redis_url=settings.REDIS_URL,
            ),
            log=sys.stderr,
        )
    if not options.no_standings:
        results["standings"] = run_standings(
            StandingsOptions(
                players=options.standings_players,
                seed=options.seed,
                progress=not options.no_progress,
            ),
            log=sys.stderr,
        )
    if not options.no_championship:
        results["championship"] = run_championship(
            ChampionshipOptions(
                players=16 if options.quick else 64,
                groups=2 if options.quick else 8,
                rounds=2 if options.quick else 7,
                seed=options.seed,
                progress=not options.no_progress,
            ),
            log=sys.stderr,
        )
    if not options.no_ratings:
        results["ratings"] = run_ratings(
            RatingsOptions(matches=1_000 if options.quick else 10_000, seed=options.seed),
            log=sys.stderr,
        )
    if not options.no_venue:
        results["venue"] = run_venue(
            VenueOptions(
                tablets=2 if options.quick else options.tablets,
                seconds=3.0 if options.quick else options.venue_seconds,
                viewers=2 if options.quick else options.venue_viewers,
                quiet_samples=10 if options.quick else 200,
                database_url=settings.DATABASE_URL,
                served_from=(options.served_from or ROOT).resolve(),
            ),
            log=sys.stderr,
        )
    return results


if __name__ == "__main__":
    main()
