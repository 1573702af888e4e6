"""The venue: many referees' tablets recording at once through the HTTP API, while viewers watch.

As the README serves carambole in production: with `DATABASE_URL` (PostgreSQL), two
uvicorn processes on a database of the bench's own on that server, a redis-server of its
own (never the user's data) and a Celery worker with its beat; without it, one uvicorn on
a throwaway SQLite file (the embedded default: standings recomputed eagerly). Each tablet
has a login of its own, is assigned one match, and records a shot every `pace_s`
seconds (staggered) through `POST /api/matches/{id}/events` on one of the servers, with an
`Idempotency-Key`, for `seconds`. Each match is watched by `viewers` thin websocket
clients split over the servers (`bench.viewers`), so that a shot recorded on one server
reaches viewers of the other through Redis.

Measured: the time to each answer (p50, p99, max), each shot's commit to its last viewer,
what was lost, doubled or out of order (in the store and at every viewer), the projector's
lag behind the log (sampled), this process's own CPU (the load generator: over 30% of a
core marks the run invalid) and the viewer processes'. Beside it, in the same run and
before the load: the raw insert and commit on the same database, and the
framework's floor (`GET /api/me`, a token and nothing else) on the same servers.
"""

from __future__ import annotations

import http.client
import json
import math
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TextIO

from bench import fanout, processes
from bench.database import raw_inserts, throwaway_postgres, throwaway_sqlite
from bench.fanout import OPENED_SEQ, QUIET, Watched, open_matches, percentile, shot_figures
from bench.processes import free_port, running, uvicorn_command
from bench.recording import P50_RAW_TIMES, P99_RAW_TIMES
from matches import services, store
from matches.models import Event
from replay.api.tokens import token_issue
from replay.projections import projector

P99_TARGET_MS = 100.0  # 50 tablets at a shot every 2 s each
LAG_TARGET_S = 2.0  # the projector's lag at p99
CPU_LIMIT = 0.30  # of one core: a load generator busier than that measures itself
SETTLE_S = 2.0  # after the last shot, for its last messages and catch-ups
SAMPLE_S = 0.25  # between two readings of the projector's lag
ANSWER_TIMEOUT_S = 30.0
WARM_UP = 20  # requests and inserts before the floor and the raw insert are timed


@dataclass(frozen=True)
class VenueOptions:
    tablets: int = 50
    pace_s: float = 2.0
    seconds: float = 60.0
    viewers: int = 100  # per match
    quiet_samples: int = 200  # floor and raw insert, before the load
    database_url: str | None = None  # PostgreSQL's; None: the embedded default
    served_from: Path = processes.ROOT  # the checkout the servers run (a before/after)


@dataclass
class Answer:
    match: str
    seq: int
    sent: float
    took: float
    status: int


@dataclass
class Tablet:
    """One referee's tablet: its match, its login's token, its server, its own connection.

    It records the events of its script in order, then stops; without one, quiet shots
    (legal for either player at any time) until it is told to stop.
    """

    match: str
    key: str
    port: int
    seq: int = OPENED_SEQ
    script: list[dict[str, Any]] | None = None
    answers: list[Answer] = field(default_factory=list)
    retries: int = 0
    recorded: int = 0  # events answered 201, all along
    opened_at: int = field(init=False)  # the match's seq before the tablet's first event
    _connection: http.client.HTTPConnection | None = None

    def __post_init__(self) -> None:
        self.opened_at = self.seq

    @property
    def done(self) -> bool:
        return self.script is not None and self.recorded >= len(self.script)

    def shot(self) -> None:
        """Record one event, resending it with the same key until it is answered."""
        event = {"type": "shot", **QUIET} if self.script is None else self.script[self.recorded]
        body = json.dumps({"expected_seq": self.seq, "event": event})
        headers = {
            "Content-Type": "application/json",
            "Authorization": f"Token {self.key}",
            "Idempotency-Key": uuid.uuid4().hex,
        }
        sent = time.perf_counter()
        while True:
            if self._connection is None:
                self._connection = http.client.HTTPConnection(
                    "127.0.0.1", self.port, timeout=ANSWER_TIMEOUT_S
                )
            try:
                self._connection.request("POST", f"/api/matches/{self.match}/events", body, headers)
                answer = self._connection.getresponse()
                answer.read()
                break
            except OSError:
                self._connection.close()
                self._connection = None
                self.retries += 1
                if time.perf_counter() - sent > 3 * ANSWER_TIMEOUT_S:
                    self.answers.append(Answer(self.match, self.seq + 1, sent, 0.0, 0))
                    return
        took = time.perf_counter() - sent
        self.answers.append(Answer(self.match, self.seq + 1, sent, took, answer.status))
        if answer.status == 201:
            self.seq += 1
            self.recorded += 1

    def record(self, start: float, until: float, pace_s: float) -> None:
        """Record a shot every `pace_s` from `start` (monotonic) until `until`.

        A referee taps once the last shot is answered: a slow answer delays the next
        shot, and a shot whose moment passed meanwhile is not made up for.
        """
        due = start
        while due < until and not self.done:
            pause = due - time.monotonic()
            if pause > 0:
                time.sleep(pause)
            self.shot()
            due = max(due + pace_s, time.monotonic())


def run_venue(options: VenueOptions, log: TextIO = sys.stderr) -> dict[str, Any]:
    """Serve carambole as in production, record from every tablet, watch; return the figures."""
    fanout._allow_files(options.tablets * options.viewers * 2 + 1024)
    with ExitStack() as stack:
        database_url, vendor = throwaway_database(stack, options.database_url)
        redis_url = own_redis(stack) if vendor == "postgresql" else None
        matches = open_matches("venue", options.tablets)
        keys = referees_assigned(matches)
        environ = processes.served_environ(database_url, redis_url, LOG_LEVEL="WARNING")
        ports = [
            stack.enter_context(server(environ, options.served_from))
            for _ in range(2 if redis_url else 1)
        ]
        if redis_url:
            stack.enter_context(worker(environ, options.served_from))
        tablets = [
            Tablet(match, key, ports[number % len(ports)])
            for number, (match, key) in enumerate(zip(matches, keys, strict=True))
        ]
        print(f"venue: one tablet alone, the floor and the raw insert ({vendor})", file=log)
        quiet = _quiet(tablets[0], database_url, vendor, options.quiet_samples)
        warm(tablets[1 : len(ports)])
        print(
            f"venue: {len(tablets) * options.viewers} viewers of {len(tablets)} matches",
            file=log,
        )
        after = {tablet.match: tablet.seq for tablet in tablets}
        viewers = _watching(stack, ports, after, options.viewers)
        viewer_pids = [process.pid for group in viewers for process in group.processes]
        print(
            f"venue: {options.tablets} tablets, a shot every {options.pace_s} s each, "
            f"for {options.seconds} s",
            file=log,
        )
        with lag_sampled() as lags, _cpu(viewer_pids) as cpu:
            record_all(tablets, options.pace_s, options.seconds)
            time.sleep(SETTLE_S)
        load = answers_figures(tablets)
        recorded_seqs = {t.match: list(range(after[t.match] + 1, t.seq + 1)) for t in tablets}
        time.sleep(SETTLE_S)
        reports = _reports(viewers)
        commits = _commit_times(ports)
        began = {
            (name, seq): commits[name][seq]
            for name, seqs in recorded_seqs.items()
            for seq in seqs
            if seq in commits.get(name, {})
        }
        watched = Watched(dict.fromkeys(matches, options.viewers), after)
        live = shot_figures(watched, reports, recorded_seqs, began)
        stored = stored_faults(tablets)
    figures = {
        **run_said(vendor, ports, redis_url, options),
        "quiet": quiet,
        "load": load,
        "load_cpu": cpu.figures(),
        "valid": cpu.share <= CPU_LIMIT,
        "live": live,
        "stored": stored,
        "projector_lag": lag_figures(lags),
    }
    figures["targets"] = {
        "p99_ms": P99_TARGET_MS,
        "p99_met": load["p99_ms"] <= P99_TARGET_MS and not stored["faults"],
        "lag_p99_s": LAG_TARGET_S,
        "lag_met": figures["projector_lag"]["p99_s"] <= LAG_TARGET_S,
    }
    return figures


# -- The setup -------------------------------------------------------------------------------


def run_said(vendor: str, ports: list[int], redis_url: str | None, options: Any) -> dict[str, Any]:
    """Return what a venue's figures say of the run: when, on what, and its options (the
    database's address left out, only whether one was named)."""
    return {
        "when": datetime.now(UTC).isoformat(timespec="seconds"),
        "database": vendor,
        "servers": len(ports),
        "worker": bool(redis_url),
        "options": {**asdict(options), "served_from": str(options.served_from)}
        | {"database_url": bool(options.database_url)},
    }


def throwaway_database(stack: ExitStack, database_url: str | None) -> tuple[str, str]:
    """Enter a throwaway database: PostgreSQL's beside `database_url`, or a SQLite file."""
    if database_url and database_url.startswith(("postgres://", "postgresql://")):
        return stack.enter_context(throwaway_postgres(database_url)), "postgresql"
    directory = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="carambole-venue-")))
    path = directory / "venue.sqlite3"
    stack.enter_context(throwaway_sqlite(path))
    return f"sqlite:///{path}", "sqlite"


def own_redis(stack: ExitStack) -> str:
    binary = shutil.which("redis-server")
    if binary is None:
        raise RuntimeError("the venue on PostgreSQL needs redis-server on the PATH")
    port = free_port()
    stack.enter_context(running(processes.redis_server_command(binary, port), {}, port))
    return f"redis://127.0.0.1:{port}/0"


def referees_assigned(matches: list[str]) -> list[str]:
    """Give each match a referee of its own; return their tokens' keys, in the same order."""
    keys = []
    for number, match in enumerate(matches):
        username = f"venue-referee-{number}"
        keys.append(token_issue(username).key)
        services.referee_assign(match_id=match, username=username, by="bench")
    return keys


@contextmanager
def server(environ: dict[str, str], served_from: Path) -> Iterator[int]:
    port = free_port()
    command = [*uvicorn_command(port, *fanout.SERVE), "bench.served:application"]
    with running(command, environ, port, cwd=served_from):
        yield port


@contextmanager
def worker(environ: dict[str, str], served_from: Path) -> Iterator[None]:
    with tempfile.TemporaryDirectory(prefix="carambole-venue-beat-") as directory:
        command = processes.celery_worker_command(Path(directory) / "schedule")
        worker = subprocess.Popen(
            command,
            cwd=served_from,
            env=environ,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            yield
        finally:
            processes.stop(worker)


def _watching(
    stack: ExitStack, ports: list[int], after: dict[str, int], per_match: int
) -> list[fanout.Viewers]:
    """Open every match's viewers after its seq, split over the servers (a process each)."""
    groups = []
    for number, port in enumerate(ports):
        share = {
            match: per_match // len(ports) + (number < per_match % len(ports)) for match in after
        }
        watched = Watched(share, after, client="thin")
        paths = watched.paths("/ws/matches/{name}/?after={after}")
        groups.append(stack.enter_context(fanout.viewers_of(port, paths, "thin", 1)))
    return groups


def _reports(groups: list[fanout.Viewers]) -> list[dict[str, Any]]:
    return [report for group in groups for report in group.report()]


# -- The measurements ------------------------------------------------------------------------


def _quiet(tablet: Tablet, database_url: str, vendor: str, samples: int) -> dict[str, Any]:
    """Time one tablet recording alone, the framework's floor and the raw insert + commit,
    interleaved, before the load."""
    connection = http.client.HTTPConnection("127.0.0.1", tablet.port, timeout=ANSWER_TIMEOUT_S)
    headers = {"Authorization": f"Token {tablet.key}"}
    floor, raw = [], []
    with raw_inserts(database_url, vendor) as insert:
        for number in range(WARM_UP + samples):
            started = time.perf_counter()
            connection.request("GET", "/api/me", headers=headers)
            answer = connection.getresponse()
            answer.read()
            if answer.status not in (200, 404):
                raise RuntimeError(f"GET /api/me answered {answer.status}")
            took = time.perf_counter() - started if answer.status == 200 else math.nan
            started = time.perf_counter()
            insert()
            inserted = time.perf_counter() - started
            tablet.shot()
            if number >= WARM_UP:  # the first few open connections and fill caches
                floor.append(took)
                raw.append(inserted)
    connection.close()
    alone = [a.took for a in tablet.answers[WARM_UP:] if a.status == 201]
    if len(alone) != samples:
        raise RuntimeError(f"recording alone: {samples - len(alone)} shots not answered 201")
    tablet.answers.clear()
    figures = {
        "samples": samples,
        "alone_p50_ms": ms(statistics.median(alone)),
        "alone_p99_ms": ms(percentile(alone, 99)),
        "floor_p50_ms": ms(statistics.median(floor)),
        "floor_p99_ms": ms(percentile(floor, 99)),
        "raw_p50_ms": ms(statistics.median(raw)),
        "raw_p99_ms": ms(percentile(raw, 99)),
    }
    figures["alone_p50_target_ms"] = round(
        figures["floor_p50_ms"] + P50_RAW_TIMES * figures["raw_p50_ms"], 1
    )
    figures["alone_p99_target_ms"] = round(
        figures["floor_p99_ms"] + P99_RAW_TIMES * figures["raw_p99_ms"], 1
    )
    figures["alone_p50_met"] = figures["alone_p50_ms"] <= figures["alone_p50_target_ms"]
    figures["alone_p99_met"] = figures["alone_p99_ms"] <= figures["alone_p99_target_ms"]
    return figures


def warm(tablets: list[Tablet]) -> None:
    """Record a few shots from a tablet of each other server, as `_quiet` did on the first.

    A server's first shots open what it keeps for hours (its pool's connections, the
    broker's, the threads that publish and enqueue): a venue's tablets meet it warm.
    """
    for tablet in tablets:
        for _ in range(WARM_UP):
            tablet.shot()
        if any(answer.status != 201 for answer in tablet.answers):
            raise RuntimeError(f"warming the server on port {tablet.port}: a shot not answered 201")
        tablet.answers.clear()


def record_all(tablets: list[Tablet], pace_s: float, seconds: float) -> None:
    """Every tablet records a shot every `pace_s`, staggered over one pace, for `seconds`."""
    start = time.monotonic() + 0.5
    until = start + seconds
    threads = [
        threading.Thread(
            target=tablet.record, args=(start + pace_s * n / len(tablets), until, pace_s)
        )
        for n, tablet in enumerate(tablets)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def answers_figures(tablets: list[Tablet]) -> dict[str, Any]:
    """Return the answers' figures: times (p50, p99, max), rate, errors and retries."""
    answers = [a for tablet in tablets for a in tablet.answers]
    return {
        "answers": len(answers),
        **_timing(answers),
        "retries": sum(tablet.retries for tablet in tablets),
    }


def _timing(answers: list[Answer]) -> dict[str, Any]:
    """Return the rate answered, the errors and the times to a 201 (p50, p99, max)."""
    ok = [a.took for a in answers if a.status == 201]
    span = max((a.sent + a.took for a in answers), default=0) - min(
        (a.sent for a in answers), default=0
    )
    return {
        "rate_per_s": round(len(ok) / span, 1) if span > 0 else 0.0,
        "errors": sum(1 for a in answers if a.status != 201),
        "p50_ms": ms(statistics.median(ok)) if ok else 0.0,
        "p99_ms": ms(percentile(ok, 99)) if ok else 0.0,
        "max_ms": ms(max(ok)) if ok else 0.0,
    }


@contextmanager
def lag_sampled() -> Iterator[list[float]]:
    """Sample the projector's lag behind the log (the age of its oldest unread event)."""
    lags: list[float] = []
    done = threading.Event()

    def sample() -> None:
        while not done.wait(SAMPLE_S):
            position = projector.position()
            oldest = (
                Event.objects.filter(id__gt=position).order_by("id").values_list("at", flat=True)
            ).first()
            now = datetime.now(UTC)
            lags.append(0.0 if oldest is None else (now - store.parse_time(oldest)).total_seconds())

    thread = threading.Thread(target=sample)
    thread.start()
    try:
        yield lags
    finally:
        done.set()
        thread.join()


def lag_figures(lags: list[float]) -> dict[str, Any]:
    return {
        "samples": len(lags),
        "p50_s": round(percentile(lags, 50), 2) if lags else 0.0,
        "p99_s": round(percentile(lags, 99), 2) if lags else 0.0,
        "max_s": round(max(lags), 2) if lags else 0.0,
    }


class _Cpu:
    """This process's CPU over a stretch of time, and the viewer processes', as shares of a core."""

    def __init__(self) -> None:
        self.share = 0.0
        self.seconds = 0.0
        self.viewers_share = 0.0

    def figures(self) -> dict[str, Any]:
        return {
            "seconds": round(self.seconds, 2),
            "share_of_a_core": round(self.share, 3),
            "viewers_share_of_a_core": round(self.viewers_share, 3),
            "limit": CPU_LIMIT,
        }


@contextmanager
def _cpu(viewer_pids: list[int]) -> Iterator[_Cpu]:
    cpu = _Cpu()
    before, started = resource.getrusage(resource.RUSAGE_SELF), time.monotonic()
    viewers_before = _cpu_seconds(viewer_pids)
    try:
        yield cpu
    finally:
        after = resource.getrusage(resource.RUSAGE_SELF)
        wall = max(time.monotonic() - started, 1e-9)
        cpu.seconds = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        cpu.share = cpu.seconds / wall
        cpu.viewers_share = (_cpu_seconds(viewer_pids) - viewers_before) / wall


def _cpu_seconds(pids: list[int]) -> float:
    """Return the CPU seconds these processes used so far (Linux's /proc)."""
    total = 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def _commit_times(ports: list[int]) -> dict[str, dict[int, float]]:
    times: dict[str, dict[int, float]] = {}
    for port in ports:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=ANSWER_TIMEOUT_S)
        connection.request("GET", "/bench/commits")
        for name, seqs in json.loads(connection.getresponse().read()).items():
            times.setdefault(name, {}).update({int(seq): t for seq, t in seqs.items()})
        connection.close()
    return times


def stored_faults(tablets: list[Tablet]) -> dict[str, Any]:
    """Check the store: every match's log is 1..n, one event per 201, nothing doubled."""
    lost = doubled = gaps = 0
    for tablet in tablets:
        seqs = list(
            Event.objects.filter(match_id=tablet.match).order_by("id").values_list("seq", flat=True)
        )
        gaps += seqs != list(range(1, len(seqs) + 1))
        lost += max(tablet.opened_at + tablet.recorded - len(seqs), 0)
        doubled += max(len(seqs) - tablet.opened_at - tablet.recorded, 0)
    return {"lost": lost, "doubled": doubled, "out_of_order": gaps, "faults": lost + doubled + gaps}


def ms(seconds: float) -> float:
    return round(seconds * 1000, 1)


# -- The table -------------------------------------------------------------------------------


def table(venue: dict[str, Any]) -> list[str]:
    """Return the venue's figures as the bench's table prints them."""
    options, load, quiet = venue["options"], venue["load"], venue["quiet"]
    targets, lag, live = venue["targets"], venue["projector_lag"], venue["live"]
    cpu = venue["load_cpu"]

    def met(ok: bool) -> str:
        return "meets target" if ok else "OVER TARGET"

    def within(ok: bool) -> str:
        return "within" if ok else "over"

    setup = (
        f"{venue['servers']} uvicorn, PostgreSQL, Redis, a Celery worker"
        if venue["database"] == "postgresql"
        else "1 uvicorn, SQLite, standings eager (the embedded default)"
    )
    lines = [
        f"(v) the venue: {options['tablets']} tablets, a shot every {options['pace_s']} s each, "
        f"{options['viewers']} viewers a match, {options['seconds']:.0f} s ({setup})",
        f"  time to answer         p50 {load['p50_ms']:>7.1f} ms  p99 {load['p99_ms']:>7.1f} ms  "
        f"max {load['max_ms']:>7.1f} ms  ({load['rate_per_s']} a second; target p99 <= "
        f"{targets['p99_ms']:.0f} ms: {met(targets['p99_met'])})",
        f"  commit to last viewer  p50 {live['last_p50_ms']:>7.1f} ms  "
        f"p99 {live['last_p99_ms']:>7.1f} ms  ({live['viewers']} viewers, {live['samples']} shots)",
        f"  projector lag          p50 {lag['p50_s']:>7.2f} s   p99 {lag['p99_s']:>7.2f} s   "
        f"max {lag['max_s']:>7.2f} s   (target p99 <= {targets['lag_p99_s']:.0f} s: "
        f"{met(targets['lag_met'])})",
        f"  one tablet alone       p50 {quiet['alone_p50_ms']:>7.1f} ms  "
        f"p99 {quiet['alone_p99_ms']:>7.1f} ms  (beside floor + {P50_RAW_TIMES}x raw = "
        f"{quiet['alone_p50_target_ms']:.1f} ms, {within(quiet['alone_p50_met'])}; "
        f"floor + {P99_RAW_TIMES}x raw = {quiet['alone_p99_target_ms']:.1f} ms, "
        f"{within(quiet['alone_p99_met'])}: over HTTP, section (d)'s targets in-process)",
        f"  floor GET /api/me      p50 {quiet['floor_p50_ms']:>7.1f} ms  "
        f"p99 {quiet['floor_p99_ms']:>7.1f} ms  (quiet, before the load)",
        f"  raw insert + commit    p50 {quiet['raw_p50_ms']:>7.2f} ms  "
        f"p99 {quiet['raw_p99_ms']:>7.2f} ms  ({venue['database']})",
    ]
    faults = venue["stored"]["faults"] + sum(
        live[k] for k in ("lost", "doubled", "out_of_order", "closed")
    )
    lines.append(
        f"  lost, doubled, out of order: {faults} (store and viewers); errors {load['errors']}, "
        f"resent {load['retries']}"
    )
    lines.append(
        f"  load generator CPU: {cpu['share_of_a_core'] * 100:.0f}% of a core "
        + ("(valid)" if venue["valid"] else f"(INVALID: over {CPU_LIMIT * 100:.0f}%)")
        + f"; the viewer processes {cpu['viewers_share_of_a_core'] * 100:.0f}%"
    )
    return lines
