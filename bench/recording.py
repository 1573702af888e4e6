"""Recording a shot through the API, beside the raw insert of one row and the framework's floor.

The request goes through the whole stack in this process (middleware, DRF, the token,
the service's check and the append, the commit, what the commit sets off), without
sockets. In the same run, interleaved so that each sees the same machine at the same
moment: the raw insert (one `INSERT` and its commit with `sqlite3`, on the same file),
the framework's floor (`GET /api/me`: the same middleware and token, nothing else), and
a shot recorded into a match of 2,000 events beside one into a match of 20. Then a few
shots into the long match with nothing kept folded by this process (the first append
after a restart, or after another process appended: the whole log is folded once).
"""

from __future__ import annotations

import gc
import logging
import secrets
import statistics
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.sessions.models import Session
from django.db import transaction
from django.test import Client
from django.utils import timezone

from bench.database import raw_inserts, throwaway_postgres
from carambole.celery import app
from matches import services
from matches.models import Competition
from matches.services import running
from matches.signals import events_appended
from replay.api.tokens import token_issue
from replay.tasks import COMMITTED_UID, committed

QUIET = {"contacts": [{"ball": "white", "hit": "yellow"}]}  # legal for either player
PLAYERS = {"A": {"name": "Bench A"}, "B": {"name": "Bench B"}}
OPENED = 3  # events before the first shot: the lag, game 1, the break's placement
SHORT, LONG = 20, 2000  # events in the matches recorded into
SHOTS_PER_SHORT = 10  # then the next short match: each stays near 20 events
COLD = 10  # shots timed with nothing kept folded
RAW_NAMES = {"sqlite": "sqlite3", "postgresql": "psycopg"}
# The targets of recording one shot, against the floor and the raw insert of the same run.
P50_RAW_TIMES, P99_RAW_TIMES, LENGTH_TARGET = 4, 10, 1.3


@contextmanager
def eager(value: bool = True) -> Iterator[None]:
    """Run tasks in-process (the embedded default) or not, whatever the environment names.

    The recording scenario is the embedded one (its SQLite file, its recompute in the
    request); with `REDIS_URL` set, each shot's recompute would go to that broker
    instead, and its threads would share this process with the timed inserts.
    """
    was, trace = app.conf.task_always_eager, logging.getLogger("celery.app.trace")
    level = trace.level
    app.conf.task_always_eager = value
    if value:  # a line for each task run in-process, as the embedded settings quiet it
        trace.setLevel(max(level, logging.WARNING))
    try:
        yield
    finally:
        app.conf.task_always_eager = was
        trace.setLevel(level)


def measure_recording(path: Path, shots: int, long_events: int = LONG) -> dict[str, Any]:
    """Time `shots` shots recorded through the API, with as many raw inserts and floors."""
    with eager():
        return _measured(f"sqlite:///{path}", "sqlite", shots, long_events)


def measure_recording_postgres(url: str, shots: int, long_events: int = LONG) -> dict[str, Any]:
    """The same on a PostgreSQL database of the bench's own beside the one `url` names, as
    production runs: each recompute enqueued off the request's path when a broker is named
    (REDIS_URL), else run in the request as embedded."""
    with throwaway_postgres(url) as own, eager(settings.REDIS_URL is None):
        return {**_measured(own, "postgresql", shots, long_events), "database": "postgresql"}


def _measured(raw_url: str, vendor: str, shots: int, long_events: int) -> dict[str, Any]:
    token = token_issue("bench-referee").key
    shorts = [opened_match(f"bench-short-{n}", SHORT) for n in range(-(-shots // SHOTS_PER_SHORT))]
    long_match = opened_match("bench-long", long_events)
    client = Client(HTTP_AUTHORIZATION=f"Token {token}")
    seqs = dict.fromkeys([*shorts, long_match], 0)
    for match_id in seqs:
        seqs[match_id] = _record(client, match_id, SHORT if match_id in shorts else long_events)

    def shot(match_id: str) -> Callable[[], None]:
        def record() -> None:
            seqs[match_id] = _record(client, match_id, seqs[match_id])

        return record

    def floor() -> None:
        answer = client.get("/api/me", secure=True)
        if answer.status_code != 200:
            raise RuntimeError(f"GET /api/me answered {answer.status_code}")

    timed: dict[str, list[float]] = {"api": [], "long": [], "raw": [], "floor": [], "orm": []}
    with raw_inserts(raw_url, vendor) as raw:
        gc.collect()
        for number in range(shots):
            short = shorts[number // SHOTS_PER_SHORT]
            for name, case in (
                ("api", shot(short)),
                ("long", shot(long_match)),
                ("raw", raw),
                ("floor", floor),
                ("orm", orm_insert),
            ):
                started = time.perf_counter()
                case()
                timed[name].append(time.perf_counter() - started)
    cold = []
    for _ in range(COLD):
        running.STATES.clear()  # as if the server had just started
        started = time.perf_counter()
        shot(long_match)()
        cold.append(time.perf_counter() - started)
    return figures(timed, cold, shots, long_events)


def orm_insert() -> None:
    """Insert one row through the ORM and commit it (a session's, the simplest table): what
    any write through Django costs before a rule is checked."""
    with transaction.atomic():
        Session.objects.create(
            session_key=secrets.token_hex(16), session_data="{}", expire_date=timezone.now()
        )


def figures(
    timed: dict[str, list[float]], cold: list[float], shots: int, long_events: int = LONG
) -> dict[str, Any]:
    """Return the percentiles, the ratios and each target met or not."""
    p50 = {name: statistics.median(times) for name, times in timed.items()}
    p99 = {name: _p99(times) for name, times in timed.items()}
    p50_target = p50["floor"] + P50_RAW_TIMES * p50["raw"]
    p99_target = p99["floor"] + P99_RAW_TIMES * p99["raw"]
    length_ratio = p50["long"] / p50["api"]
    return {
        "shots": shots,
        "short_events": SHORT,
        "long_events": long_events,
        **{f"{name}_p50_ms": _ms(p50[name]) for name in timed},
        **{f"{name}_p99_ms": _ms(p99[name]) for name in timed},
        "cold_long_p50_ms": _ms(statistics.median(cold)),
        "p50_ratio": round(p50["api"] / p50["raw"], 1),
        "p50_target_ms": _ms(p50_target),
        "p99_target_ms": _ms(p99_target),
        "p50_meets_target": p50["api"] <= p50_target,
        "p99_meets_target": p99["api"] <= p99_target,
        "long_vs_short_p50": round(length_ratio, 2),
        "long_meets_target": length_ratio <= LENGTH_TARGET,
        # Each shot beside the ORM insert made right after it: the reported figure's samples.
        "samples": {
            "api_vs_orm": [
                api / orm for api, orm in zip(timed["api"], timed.get("orm", []), strict=False)
            ]
        },
    }


def _record(client: Client, match_id: str, seq: int) -> int:
    """Record a quiet shot after `seq` through the API; return the new seq."""
    answer = client.post(
        f"/api/matches/{match_id}/events",
        {"expected_seq": seq, "event": {"type": "shot", **QUIET}},
        content_type="application/json",
        secure=True,
    )
    if answer.status_code != 201:
        raise RuntimeError(f"recording answered {answer.status_code}: {answer.content!r}")
    return seq + 1


def opened_match(match_id: str, events: int) -> str:
    """Create a match of `events` events (quiet shots after the opening) for the referee."""
    if not Competition.objects.filter(pk="bench-live").exists():
        services.competition_create(id="bench-live", name="Bench")
    services.match_create(competition="bench-live", id=match_id, players=PLAYERS)
    by = "bench-referee"
    services.referee_assign(match_id=match_id, username=by, by="bench")
    # Stored without the projector hearing of each: the first timed shot's catch-up is not
    # timed (`measure_recording` records one before).
    events_appended.disconnect(dispatch_uid=COMMITTED_UID)
    try:
        services.lag_record(
            match_id=match_id, expected_seq=0, by=by, a={"distance": 90}, b={"distance": 150}
        )
        services.game_start(match_id=match_id, expected_seq=1, by=by, game=1, breaker="A")
        services.ball_place(
            match_id=match_id, expected_seq=2, by=by, ball="white", pos=[700, 400], reason="break"
        )
        for seq in range(OPENED, events):
            services.shot_record(match_id=match_id, expected_seq=seq, by=by, facts=QUIET)
    finally:
        events_appended.connect(committed, dispatch_uid=COMMITTED_UID)
    return match_id


def _p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 2)


def table(recording: dict[str, Any], row: Callable[[str, str, str], str]) -> list[str]:
    """Return the recording figures as the bench's table prints them."""

    def met(ok: bool) -> str:
        # Targets on PostgreSQL; on SQLite, whose insert costs next to nothing, the same
        # bounds are shown beside the figures reported.
        if recording.get("database") == "postgresql":
            return "meets target" if ok else "OVER TARGET"
        return ("within" if ok else "over") + " (a target on PostgreSQL)"

    bound = "target" if recording.get("database") == "postgresql" else "bound"
    return [
        f"(d) recording a shot through the API on {recording.get('database', 'sqlite')}, "
        f"{recording['shots']} shots "
        "(request to response in-process: middleware, token, check, append, commit)",
        row(
            f"POST /api/matches/ID/events, {recording['short_events']}-event match",
            f"p50 {recording['api_p50_ms']:.2f} ms",
            f"p99 {recording['api_p99_ms']:.2f} ms",
        ),
        row(
            f"  the same into a {recording['long_events']:,}-event match",
            f"p50 {recording['long_p50_ms']:.2f} ms",
            f"p99 {recording['long_p99_ms']:.2f} ms",
        ),
        row(
            "  the same, nothing kept folded (a restart)",
            f"p50 {recording['cold_long_p50_ms']:.2f} ms",
            f"of {COLD} shots",
        ),
        row(
            "floor: GET /api/me (middleware and token)",
            f"p50 {recording['floor_p50_ms']:.2f} ms",
            f"p99 {recording['floor_p99_ms']:.2f} ms",
        ),
        row(
            f"raw: {RAW_NAMES[recording.get('database', 'sqlite')]} INSERT of one row + commit",
            f"p50 {recording['raw_p50_ms']:.2f} ms",
            f"p99 {recording['raw_p99_ms']:.2f} ms",
        ),
        row(
            "  an ORM insert of one row + commit",
            f"p50 {recording['orm_p50_ms']:.2f} ms",
            f"p99 {recording['orm_p99_ms']:.2f} ms",
        ),
        row(
            f"{bound} p50 <= floor + {P50_RAW_TIMES}x raw",
            f"{recording['p50_target_ms']:.2f} ms",
            met(recording["p50_meets_target"]),
        ),
        row(
            f"{bound} p99 <= floor + {P99_RAW_TIMES}x raw",
            f"{recording['p99_target_ms']:.2f} ms",
            met(recording["p99_meets_target"]),
        ),
        row(
            f"{recording['long_events']:,} events / {recording['short_events']} (p50)",
            f"{recording['long_vs_short_p50']}x",
            f"{bound} <= {LENGTH_TARGET}x: {met(recording['long_meets_target'])}",
        ),
        row("ratio API / raw insert (p50)", f"{recording['p50_ratio']}", ""),
    ]
