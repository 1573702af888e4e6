"""`python -m bench` (what `make bench` runs): the benchmark suite, a table and JSON.

It lives outside the apps: it measures the read side (`replay`) too, and `matches`
never imports `replay`. The benchmark makes its own database; the user's is never opened.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # imported where used: after Django is set up
    from bench.soak import SoakOptions

ROOT = Path(__file__).resolve().parent.parent
# What `--only` names: the archive's figures (import aside), each target's scenario, the rest.
SECTIONS = (
    "archive",
    "import",
    "recording_postgresql",
    "venue",
    "venue_embedded",
    "championship_venue",
    "fanout",
    "audience",
    "churn",
    "standings",
    "championship",
    "hall",
    "ratings",
    "soak",
)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m bench",
        description=(
            "The speed contract. Targets, each beside its baseline in the same run, each "
            "scenario run until two of at most three runs agree: the venue (50 tablets on "
            "PostgreSQL and Redis, 60 on the embedded default, and 50 recording a "
            "championship in stages), the live fan-out beside a bare websockets server, "
            "the hall beside a match board, "
            "a final's audience over server processes sharing Redis beside as many bare ones, "
            "a server's memory while websockets are opened and closed, recording alone on "
            "PostgreSQL, the projector's catch-up after a result or an amendment beside "
            "folding the match, the import beside checking alone, and the soak (the hall and "
            "boards over Redis for 20 minutes through a Redis and a server restart, run once). "
            "Reported, each the median of at least five samples beside the last run's "
            "(.bench/last.json): state on "
            "demand, the rebuild, the archive's and the replay's pages, recording on SQLite, "
            "the preview, the ratings. Exits 1 when a target is not held."
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
        "--only",
        action="append",
        metavar="SECTION",
        choices=SECTIONS,
        help=f"measure this section only, repeatable ({', '.join(SECTIONS)})",
    )
    parser.add_argument(
        "--no-fanout", action="store_true", help="skip the live fan-out (two to four minutes)"
    )
    parser.add_argument("--viewers", type=int, default=1000, help="viewers in the fan-out")
    parser.add_argument(
        "--no-audience",
        action="store_true",
        help="skip a final's audience across server processes (eight minutes or so a run)",
    )
    parser.add_argument(
        "--audience-viewers",
        type=int,
        default=2000,
        help="audience: viewers of the one match, spread evenly over the servers",
    )
    parser.add_argument(
        "--audience-servers",
        type=int,
        default=2,
        help="audience: uvicorn processes serving the viewers (and as many bare servers)",
    )
    parser.add_argument(
        "--audience-shots",
        type=int,
        default=100,
        help="audience: shots timed, one every 2 s (and as many bare messages)",
    )
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
        help="skip the venues: tablets recording while viewers watch (minutes each)",
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
    parser.add_argument(
        "--no-soak",
        action="store_true",
        help="skip the soak: the hall and boards over Redis through two restarts (20 minutes)",
    )
    parser.add_argument(
        "--soak-minutes",
        type=float,
        default=None,
        help="the soak: minutes of shots recorded (default 20; 0.1 with --quick)",
    )
    parser.add_argument(
        "--tablets", type=int, default=50, help="venue on PostgreSQL and in a championship: tablets"
    )
    parser.add_argument(
        "--embedded-tablets", type=int, default=60, help="venue on the embedded default: tablets"
    )
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
        help=(
            "a smoke run: every measurement once at its smallest (checks, not figures: "
            "no verdict, .bench/last.json neither read nor written)"
        ),
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

    from bench import verdict
    from bench.contract import reported_samples
    from bench.fanout import YARDSTICK
    from bench.steadiness import table as steadiness_table
    from bench.steadiness import timed_beside
    from bench.suite import _row as row

    scenarios = tuple(options.fanout_scenario or YARDSTICK)
    if unknown := sorted(set(scenarios) - set(YARDSTICK)):
        parser.error(f"--fanout-scenario: no scenario {', '.join(unknown)} (see --help)")
    try:
        last = {} if options.quick else verdict.last_run_read()
    except verdict.LastRunUnreadable as error:
        parser.error(str(error))

    with timed_beside() as steadiness:
        results, targets, skipped = _measure(options, scenarios)
    results["steadiness"] = steadiness.summary()
    figures = verdict.reported(reported_samples(results), last)
    results["verdict"] = {
        "targets": {
            target.name: {"held": target.held, "runs": [vars(c) for c in target.checks]}
            for target in targets
        },
        "not_measured": skipped,
        "reported": {figure.name: figure.kept() for figure in figures},
        "verdict": verdict.verdict(targets, skipped),
    }
    options.json.write_bytes(orjson.dumps(results, option=orjson.OPT_INDENT_2) + b"\n")
    for lines in _tables(results):
        print("\n".join(lines) + "\n")
    print("\n".join(steadiness_table(results["steadiness"], row)) + "\n")
    if options.quick:
        print("a smoke run: no verdict, no last run kept")
    else:
        print(verdict.table(targets, skipped, figures))
        verdict.last_run_write(figures, last, _now())
    print(f"\nresults written to {options.json}")
    if not options.quick and verdict.verdict(targets, skipped) == "FAIL":
        sys.exit(1)


def _measure(
    options: argparse.Namespace, scenarios: tuple[str, ...]
) -> tuple[dict[str, Any], list[Any], list[str]]:
    """Run each section the options ask for, a target's scenario until two runs agree;
    return the results by section (a target's first run; the others under `reruns`), the
    targets and what was not measured."""
    from django.conf import settings

    from bench import contract, verdict
    from bench.amendment import StandingsOptions, run_standings
    from bench.audience import AudienceOptions, run_audience
    from bench.championship import ChampionshipOptions, run_championship
    from bench.championship_venue import ChampionshipVenueOptions, run_championship_venue
    from bench.churn import FIRST, run_churn
    from bench.fanout import FanoutOptions, run_fanout
    from bench.hall import HallOptions, run_hall
    from bench.ratings import RatingsOptions, run_ratings
    from bench.recording import LONG, measure_recording_postgres
    from bench.soak import run_soak
    from bench.suite import RECORDED_SHOTS, Options, measure_import, run
    from bench.venue import VenueOptions, run_venue

    quick = options.quick
    postgresql = settings.DATABASE_URL if _is_postgresql(settings.DATABASE_URL) else None
    served_from = (options.served_from or ROOT).resolve()
    archive = Options(
        matches=options.matches,
        seed=options.seed,
        repeat=options.repeat,
        progress=not options.no_progress,
        keep_db=options.keep_db,
        quick=quick,
    )

    def venue(tablets: int, database_url: str | None) -> Callable[[], dict[str, Any]]:
        return lambda: run_venue(
            VenueOptions(
                tablets=2 if quick else tablets,
                seconds=3.0 if quick else options.venue_seconds,
                viewers=2 if quick else options.venue_viewers,
                quiet_samples=10 if quick else 200,
                database_url=database_url,
                served_from=served_from,
            ),
            log=sys.stderr,
        )

    shots, long_events = (20, 200) if quick else (RECORDED_SHOTS, LONG)
    # Each target's scenario: its section, whether it runs, why not, how, its checks.
    wanted = _wanted(options)
    targeted: list[tuple[str, str | None, Callable[[], Any], Callable[[Any], Any]]] = [
        ("import", None, lambda: measure_import(archive), contract.import_checks),
        (
            "recording_postgresql",
            None if postgresql else "recording on PostgreSQL: DATABASE_URL names no PostgreSQL",
            lambda: measure_recording_postgres(postgresql or "", shots, long_events),
            contract.recording_checks,
        ),
        (
            "venue",
            None if postgresql else "the venue on PostgreSQL: DATABASE_URL names no PostgreSQL",
            venue(options.tablets, postgresql),
            contract.venue_checks(f"venue, PostgreSQL + Redis, {options.tablets} tablets"),
        ),
        (
            "venue_embedded",
            None,
            venue(options.embedded_tablets, None),
            contract.venue_checks(f"venue, embedded default, {options.embedded_tablets} tablets"),
        ),
        (
            "championship_venue",
            None,
            lambda: run_championship_venue(
                ChampionshipVenueOptions(
                    tablets=4 if quick else options.tablets,
                    players=16 if quick else 64,
                    groups=2 if quick else 8,
                    seconds=4.0 if quick else options.venue_seconds,
                    pace_s=0.5 if quick else 2.0,
                    seed=options.seed,
                    database_url=postgresql,
                    served_from=served_from,
                ),
                log=sys.stderr,
            ),
            contract.venue_checks(
                f"venue in a championship, {options.tablets} tablets, "
                + ("PostgreSQL + Redis" if postgresql else "embedded default")
            ),
        ),
        (
            "fanout",
            None,
            lambda: run_fanout(
                FanoutOptions(
                    viewers=options.viewers,
                    shots=options.shots,
                    rounds=max(options.shots // 3, 1),
                    referee_shots=max(options.shots // 6, 1),
                    redis_url=settings.REDIS_URL,
                    scenarios=scenarios,
                ),
                sys.stderr,
            ),
            contract.fanout_checks,
        ),
        (
            "hall",
            None,
            lambda: run_hall(
                HallOptions(
                    tables=4 if quick else options.hall_tables,
                    viewers=20 if quick else options.hall_viewers,
                    rounds=2 if quick else HallOptions.rounds,
                    settle_s=0.5 if quick else HallOptions.settle_s,
                    redis_url=settings.REDIS_URL,
                ),
                log=sys.stderr,
            ),
            contract.hall_checks,
        ),
        (
            "audience",
            None
            if shutil.which("redis-server")
            else "a final's audience across processes: no redis-server on the PATH",
            lambda: run_audience(
                AudienceOptions(
                    viewers=20 if quick else options.audience_viewers,
                    servers=options.audience_servers,
                    shots=3 if quick else options.audience_shots,
                    pace_s=0.2 if quick else AudienceOptions.pace_s,
                    settle_s=0.5 if quick else AudienceOptions.settle_s,
                    database_url=postgresql,
                ),
                sys.stderr,
            ),
            contract.audience_checks,
        ),
        (
            "churn",
            None,
            lambda: run_churn(FIRST if quick else options.churn, sys.stderr),
            contract.churn_checks,
        ),
        (
            "standings",
            None,
            lambda: run_standings(
                StandingsOptions(
                    players=options.standings_players,
                    seed=options.seed,
                    progress=not options.no_progress,
                ),
                log=sys.stderr,
            ),
            contract.standings_checks,
        ),
        (
            "championship",
            None,
            lambda: run_championship(
                ChampionshipOptions(
                    players=16 if quick else 64,
                    groups=2 if quick else 8,
                    rounds=2 if quick else 7,
                    seed=options.seed,
                    progress=not options.no_progress,
                ),
                log=sys.stderr,
            ),
            contract.championship_checks,
        ),
    ]
    results: dict[str, Any] = {}
    if "archive" in wanted:
        results |= run(archive, log=sys.stderr)
    targets: list[verdict.Target] = []
    skipped: list[str] = []
    for section, missing, measure, checks in targeted:
        if section not in wanted:
            skipped.append(section)
            continue
        if missing:
            skipped.append(missing)
            continue

        def scenario(measure=measure, checks=checks):  # type: ignore[no-untyped-def]
            result = measure()
            return result, checks(result)

        runs, settled = verdict.settle(
            scenario,
            runs=1 if quick else verdict.RUNS,
            told=lambda line, section=section: print(f"{section}: {line}", file=sys.stderr),
        )
        results[section] = runs[0]
        if runs[1:]:
            results.setdefault("reruns", {})[section] = runs[1:]
        targets.extend(settled.values())
    if "ratings" in wanted:
        results["ratings"] = run_ratings(
            RatingsOptions(matches=1_000 if quick else 10_000, seed=options.seed),
            log=sys.stderr,
        )
    # Twenty minutes, run once (its verdict is that run's), and left out at will: skipped,
    # it leaves the verdict to the other targets.
    if "soak" in wanted and shutil.which("redis-server") is None:
        skipped.append("the soak: no redis-server on the PATH")
    elif "soak" in wanted:
        results["soak"] = run_soak(_soak_options(options, postgresql), log=sys.stderr)
        targets.extend(contract.soak_targets(results["soak"]))
    return results, targets, skipped


def _soak_options(options: argparse.Namespace, postgresql: str | None) -> SoakOptions:
    """Return the soak's options: the default, or a smoke run's smallest with `--quick`."""
    from bench.soak import SoakOptions

    if not options.quick:
        minutes = 20.0 if options.soak_minutes is None else options.soak_minutes
        return SoakOptions(minutes=minutes, database_url=postgresql)
    return SoakOptions(
        minutes=0.1 if options.soak_minutes is None else options.soak_minutes,
        tables=2,
        pace_s=0.5,
        board_viewers=1,
        hall_viewers=1,
        outage_s=1.0,
        head_seconds=2,
        database_url=postgresql,
    )


def _wanted(options: argparse.Namespace) -> set[str]:
    """Return the sections to measure: `--only`'s, else all but those `--no-…` skips."""
    if options.only:
        return set(options.only)
    skipped = {
        "fanout": options.no_fanout,
        "audience": options.no_audience,
        "churn": options.no_churn,
        "standings": options.no_standings,
        "championship": options.no_championship,
        "venue": options.no_venue,
        "venue_embedded": options.no_venue,
        "championship_venue": options.no_venue,
        "hall": options.no_hall,
        "ratings": options.no_ratings,
        "soak": options.no_soak,
    }
    return {section for section in SECTIONS if not skipped.get(section, False)}


def _tables(results: dict[str, Any]) -> list[list[str]]:
    """Return each measured section's lines, in the order `make bench` prints them."""
    from bench.amendment import standings_table
    from bench.audience import table as audience_table
    from bench.championship import championship_table
    from bench.championship_venue import table as championship_venue_table
    from bench.churn import table as churn_table
    from bench.fanout import table as fanout_table
    from bench.hall import table as hall_table
    from bench.ratings import ratings_table
    from bench.recording import table as recording_table
    from bench.soak_figures import table as soak_table
    from bench.suite import _row as row
    from bench.suite import import_table, table
    from bench.venue import table as venue_table

    printers: list[tuple[str, Callable[[Any], list[str]]]] = [
        ("import", import_table),
        ("archive", lambda _: table(results).splitlines()),
        ("recording_postgresql", lambda r: recording_table(r, row)),
        ("venue", venue_table),
        ("venue_embedded", venue_table),
        ("championship_venue", championship_venue_table),
        ("fanout", lambda r: fanout_table(r).splitlines()),
        ("audience", audience_table),
        ("churn", churn_table),
        ("standings", lambda r: standings_table(r, row)),
        ("championship", lambda r: championship_table(r, row)),
        ("hall", lambda r: hall_table(r).splitlines()),
        ("ratings", lambda r: ratings_table(r, row)),
        ("soak", soak_table),
    ]
    return [printer(results[name]) for name, printer in printers if name in results]


def _is_postgresql(url: str | None) -> bool:
    return bool(url) and str(url).startswith(("postgres://", "postgresql://"))


def _now() -> str:
    from datetime import UTC, datetime

    return datetime.now(UTC).isoformat(timespec="seconds")


if __name__ == "__main__":
    main()
