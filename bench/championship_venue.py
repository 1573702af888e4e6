"""The venue in a championship: tablets record its matches while the projector makes the next.

The bench's championship (`bench.championship`: 64 players, 8 groups of 8, a knockout of
16) is drawn, and every group match is simulated and imported whole but one per tablet
(50), spread over the groups, which are imported short of their last events. Served as
`bench.venue` serves (with `DATABASE_URL` two uvicorn processes on PostgreSQL, a
redis-server and a Celery worker; without, one uvicorn on SQLite), each tablet records
its match's remaining events through the HTTP API, one every `pace_s`. A group's held
matches are held shorter the earlier the group, so the groups end one after another
through the run. Once every group has ended, the knockout is drawn (as staff would) and
its first round's matches, imported short of their ends in turn, are recorded by as many
tablets: as each pair of them ends, the projector makes the next round's match.

Measured, over both parts: the time to each answer (target p99 at most 100 ms), the
projector's lag behind the log (target p99 at most 2 s), what was lost, doubled or out of
order in the store (must be nothing), and how many knockout matches the projector made.
"""

from __future__ import annotations

import sys
import time
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from bench import processes
from bench.amendment import unannounced
from bench.championship import RULESET, STAGES, simulated
from bench.fanout import open_matches
from bench.venue import (
    LAG_TARGET_S,
    P99_TARGET_MS,
    Tablet,
    answers_figures,
    lag_figures,
    lag_sampled,
    own_redis,
    record_all,
    referees_assigned,
    run_said,
    server,
    stored_faults,
    throwaway_database,
    warm,
    worker,
)
from matches import services, store
from matches.models import Match
from matches.records import record_import
from replay.projections import projector

COMPETITION = "bench-venue-championship"
BY = "bench"
# Each held match: its seq as imported, and the events left for its tablet to record.
Held = dict[str, tuple[int, list[dict[str, Any]]]]
CAUGHT_UP_S = 30.0  # after the last event, for the projector to make the last matches


@dataclass(frozen=True)
class ChampionshipVenueOptions:
    tablets: int = 50
    pace_s: float = 2.0
    seconds: float = 60.0  # the last group's held matches take about this long
    players: int = 64
    groups: int = 8
    seed: int = 1
    database_url: str | None = None  # PostgreSQL's; None: the embedded default
    served_from: Path = processes.ROOT


def run_championship_venue(
    options: ChampionshipVenueOptions, log: TextIO = sys.stderr
) -> dict[str, Any]:
    """Serve carambole, record the held group matches from every tablet; return the figures."""
    with ExitStack() as stack:
        database_url, vendor = throwaway_database(stack, options.database_url)
        redis_url = own_redis(stack) if vendor == "postgresql" else None
        print(f"championship venue: drawing and importing the groups ({vendor})", file=log)
        held = _held_groups(options)
        projector.catch_up()
        environ = processes.served_environ(database_url, redis_url, LOG_LEVEL="WARNING")
        ports = [
            stack.enter_context(server(environ, options.served_from))
            for _ in range(2 if redis_url else 1)
        ]
        if redis_url:
            stack.enter_context(worker(environ, options.served_from))
        # Each server's first shots open its connections and threads, and the worker's
        # first task starts it: a venue's tablets meet them warm (as `bench.venue`'s).
        warming = open_matches("championship-venue-warm", len(ports))
        keys = referees_assigned(warming)
        warm([Tablet(*each) for each in zip(warming, keys, ports, strict=True)])
        _caught_up(CAUGHT_UP_S)
        print(f"championship venue: {len(held)} tablets on the group matches", file=log)
        with lag_sampled() as lags:
            tablets = _recorded(held, ports, options.pace_s)
            caught_up = _caught_up(CAUGHT_UP_S)
            with unannounced():  # the servers' projector reads it with the next event
                services.stage_draw(competition_id=COMPETITION, stage_id="ko", by=BY)
            drawn = _knockout_matches()
            print(f"championship venue: {drawn} tablets on the knockout's first round", file=log)
            first = _held_knockout(options)
            projector.catch_up()  # the imports, read before any tablet records
            tablets += _recorded(first, ports, options.pace_s)
            caught_up = _caught_up(CAUGHT_UP_S) and caught_up
        load = answers_figures(tablets)
        stored = stored_faults(tablets)
        unended = sum(not tablet.done for tablet in tablets)
        knockout = _knockout_matches()
    first_round = options.groups * STAGES[0]["advance"] // 2
    second_round = first_round // 2
    figures = {
        **run_said(vendor, ports, redis_url, options),
        "load": load,
        "stored": stored,
        "unended": unended,
        "caught_up": caught_up,
        "knockout_matches": knockout,
        "knockout_made_by_projector": knockout - drawn,
        "knockout_first_round": drawn,
        "projector_lag": lag_figures(lags),
    }
    figures["targets"] = {
        "p99_ms": P99_TARGET_MS,
        "p99_met": load["p99_ms"] <= P99_TARGET_MS and not stored["faults"] and not unended,
        "lag_p99_s": LAG_TARGET_S,
        "lag_met": figures["projector_lag"]["p99_s"] <= LAG_TARGET_S and caught_up,
        "knockout_made": drawn == first_round and knockout - drawn >= second_round,
    }
    return figures


def _held_groups(options: ChampionshipVenueOptions) -> Held:
    """Draw the groups and import their matches, one a tablet held short; return each held
    match's seq as imported and the events left for its tablet to record."""
    qualifiers = options.groups * STAGES[0]["advance"]
    stages = [{**STAGES[0], "groups": options.groups}, {**STAGES[1], "size": qualifiers}]
    services.competition_create(
        id=COMPETITION, name="Bench venue championship", ruleset=RULESET, stages=stages
    )
    for seed in range(1, options.players + 1):
        player = {"name": f"Player {seed:02d}", "federation_id": f"BV-{seed:03d}"}
        services.player_enter(competition_id=COMPETITION, player=player, seed=seed, by=BY)
    services.stage_draw(competition_id=COMPETITION, stage_id="groups", by=BY)
    by_group: dict[str, list[Match]] = {}
    for match in Match.objects.filter(competition_id=COMPETITION, stage_id="groups").order_by("pk"):
        by_group.setdefault(match.group, []).append(match)
    groups = sorted(by_group)
    if options.tablets > sum(len(matches) for matches in by_group.values()):
        raise ValueError(f"tablets: {options.tablets} is more than the group matches")
    # One match of each group in turn, so the tablets spread over every group.
    spread = [m for row in zip(*(by_group[g] for g in groups), strict=False) for m in row]
    chosen = {match.pk for match in spread[: options.tablets]}
    events_each = max(round(options.seconds / options.pace_s), 1)
    held: Held = {}
    with unannounced():
        for n, match in enumerate(m for g in groups for m in by_group[g]):
            # The earlier the group, the sooner its matches end: groups end one by one.
            place = groups.index(match.group) + 1
            left = max(round(events_each * place / len(groups)), 1) if match.pk in chosen else 0
            held[match.pk] = _imported_short(match, options.seed + n, left)
    return {match_id: rest for match_id, rest in held.items() if rest[1]}


def _held_knockout(options: ChampionshipVenueOptions) -> Held:
    """Import the knockout's first round, each match short of its end by a few more events
    than the one before (so they end in turn); return what is left to record."""
    events_each = max(round(options.seconds / options.pace_s), 1)
    drawn = list(Match.objects.filter(competition_id=COMPETITION, stage_id="ko").order_by("pk"))
    with unannounced():
        return {
            match.pk: _imported_short(
                match, options.seed + 1000 + n, max(events_each * (n + 1) // len(drawn), 1)
            )
            for n, match in enumerate(drawn)
        }


def _imported_short(match: Match, seed: int, left: int) -> tuple[int, list[dict[str, Any]]]:
    """Import a simulated record of the match but its last `left` events; return its seq
    and those events, as a tablet sends them."""
    record = simulated(match, seed)
    kept = record["events"][: len(record["events"]) - left]
    record_import({**record, "events": kept}, by=BY)
    rest = record["events"][len(kept) :]
    return len(kept), [{k: v for k, v in e.items() if k not in ("at", "by")} for e in rest]


def _recorded(held: Held, ports: list[int], pace_s: float) -> list[Tablet]:
    """Give each held match a referee's tablet; record every tablet's events; return them."""
    keys = referees_assigned(list(held))
    tablets = [
        Tablet(match, key, ports[number % len(ports)], seq=seq, script=events)
        for number, ((match, (seq, events)), key) in enumerate(zip(held.items(), keys, strict=True))
    ]
    longest = max(len(tablet.script or ()) for tablet in tablets)
    record_all(tablets, pace_s, longest * pace_s * 3)
    return tablets


def _knockout_matches() -> int:
    return Match.objects.filter(competition_id=COMPETITION, stage_id="ko").count()


def _caught_up(seconds: float) -> bool:
    """Wait until the projector has read the whole log; return whether it did in time."""
    until = time.monotonic() + seconds
    while projector.position() < store.log_head():
        if time.monotonic() > until:
            return False
        time.sleep(0.25)
    return True


def table(results: dict[str, Any]) -> list[str]:
    """Return the championship venue's figures as the bench's table prints them."""
    options, load, lag = results["options"], results["load"], results["projector_lag"]
    targets = results["targets"]

    def met(ok: bool) -> str:
        return "meets target" if ok else "OVER TARGET"

    met_made = "made" if targets["knockout_made"] else "NOT MADE"
    return [
        f"(k) the venue in a championship: {options['tablets']} tablets on its group matches, "
        f"an event every {options['pace_s']} s each ({results['database']}, "
        f"{results['servers']} servers)",
        f"  time to answer         p50 {load['p50_ms']:>7.1f} ms  p99 {load['p99_ms']:>7.1f} ms  "
        f"max {load['max_ms']:>7.1f} ms  (target p99 <= {targets['p99_ms']:.0f} ms: "
        f"{met(targets['p99_met'])})",
        f"  projector lag          p50 {lag['p50_s']:>7.2f} s   p99 {lag['p99_s']:>7.2f} s   "
        f"max {lag['max_s']:>7.2f} s   (target p99 <= {targets['lag_p99_s']:.0f} s: "
        f"{met(targets['lag_met'])})",
        f"  knockout matches made by the projector during the run: "
        f"{results['knockout_made_by_projector']} (beside its first round's "
        f"{results['knockout_first_round']}, drawn by staff once the groups ended; {met_made})",
        f"  lost, doubled, out of order: {results['stored']['faults']} (store); "
        f"errors {load['errors']}, resent {load['retries']}, matches not ended "
        f"{results['unended']}",
    ]
