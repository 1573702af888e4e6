"""A final's audience across processes: one match's viewers spread over servers sharing Redis.

A final is watched by more viewers than one process serves. Here `servers` uvicorn
processes serve carambole as in production (`bench.fanout.SERVE`), sharing a redis-server
of the bench's own and a throwaway database (PostgreSQL beside the one `DATABASE_URL`
names, else a SQLite file), and the viewers of one match are spread evenly over them, in
processes of their own (`bench.viewers`, thin clients by default: what is timed is the
servers). A shot is recorded every 2 s through the REST API of one more server that no
viewer watches, so that every viewer's server hears of it the same way, through Redis,
as each bare server below hears of its message (recording one shot every 2 s costs that
server next to nothing). Each shot is timed from its commit to its receipt by the last
viewer of any server, by the machine's monotonic clock.

The yardstick, in the same run with the same viewers: as many bare `websockets` servers
(`bench.bare`), each subscribed to one Redis channel, on which the bench publishes a
message of the same size every 2 s (timed from just before the publish). The figure that
counts is the ratio of the two p99s (target: at most 1.5), with nothing lost, doubled or
out of order. Beside it: the servers' CPU while the shots are recorded and their resident
memory with the viewers over without them (once a first socket came and went), each per
viewer, from which the README works out what a larger audience needs. The viewers'
processes and this one (the load generators) must stay under 30% of a core: a busier run
measures its own clients and is marked invalid.
"""

from __future__ import annotations

import os
import resource
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager, ExitStack, contextmanager
from dataclasses import asdict, dataclass
from typing import Any, TextIO, TypeVar

import redis
from websockets.sync.client import connect as websocket

from bench import bare, fanout, processes, venue
from bench.churn import rss_bytes
from bench.fanout import OPENED_SEQ, Recorder, Viewers, Watched, open_matches, shot_figures
from bench.processes import free_port, running, uvicorn_command
from bench.viewers import clock
from replay.api.tokens import token_issue

T = TypeVar("T")

TARGET = 1.5  # carambole's p99 / the bare servers' p99
CPU_LIMIT = 0.30  # of one core, for the load generators: busier, they measure themselves
FAULTS = ("lost", "doubled", "out_of_order", "closed")  # at the viewers: each must be 0
WARM_S = 0.25  # for a server to take in a first socket, then its close
FINAL = "final"  # the bare servers' group, and its channel's name


@dataclass(frozen=True)
class AudienceOptions:
    viewers: int = 2000  # of one match, spread evenly over the servers
    servers: int = 2  # uvicorn processes serving the viewers (and as many bare servers)
    shots: int = 100  # timed (of 100, the p99 is the second slowest)
    pace_s: float = 2.0  # between two shots
    clients: int = 1  # viewer processes of each server
    client: str = "thin"  # bench.viewers' kind
    settle_s: float = fanout.SETTLE_S  # after the last shot, for its last messages to arrive
    database_url: str | None = None  # PostgreSQL's; None: a SQLite file


@dataclass
class Served:
    """The servers of one side and their viewers, as the measurement reads them."""

    ports: list[int]
    pids: list[int]
    rss_alone: list[int]  # each server's resident memory before its viewers came
    viewers: list[Viewers]

    @property
    def viewer_pids(self) -> list[int]:
        return [process.pid for group in self.viewers for process in group.processes]

    def reports(self) -> list[dict[str, Any]]:
        return [report for group in self.viewers for report in group.report()]


def run_audience(options: AudienceOptions, log: TextIO = sys.stderr) -> dict[str, Any]:
    """Measure one match's viewers over carambole's servers and over bare ones; return the
    figures."""
    fanout._allow_files(options.viewers * 2 + 1024)
    with ExitStack() as stack:
        database_url, vendor = venue.throwaway_database(stack, options.database_url)
        redis_url = venue.own_redis(stack)
        (match_id,) = open_matches("audience", 1, competition="bench-audience")
        key = token_issue("bench-audience", staff=True).key
        environ = processes.served_environ(database_url, redis_url, LOG_LEVEL="WARNING")
        print(
            f"audience: {options.viewers} viewers of one match over {options.servers} "
            f"uvicorn sharing Redis ({vendor})",
            file=log,
        )
        ours = _carambole(environ, match_id, key, options)
        print(f"audience: the same viewers over {options.servers} bare servers", file=log)
        theirs = _bare(redis_url, ours["message_bytes"], options)
    return {
        "database": vendor,
        "options": asdict(options) | {"database_url": bool(options.database_url)},
        "carambole": ours,
        "bare": theirs,
        **compared(ours, theirs),
    }


def compared(ours: dict[str, Any], theirs: dict[str, Any]) -> dict[str, Any]:
    """Return carambole's p99 over the bare servers', what went wrong on either side and
    whether the load generators were quiet enough: the target holds with all three."""
    ratio = ours["last_p99_ms"] / max(theirs["last_p99_ms"], 0.001)
    faults = faults_of(ours) + faults_of(theirs)
    valid = all(side["load_cpu"]["share_of_a_core"] <= CPU_LIMIT for side in (ours, theirs))
    return {
        "vs_bare_p99": round(ratio, 2),
        "faults": faults,
        "valid": valid,
        "target": TARGET,
        "cpu_limit": CPU_LIMIT,
        "meets_target": ratio <= TARGET and not faults and valid,
    }


def faults_of(side: dict[str, Any]) -> int:
    """Return what one side's viewers missed, had twice or out of order, or were closed, and
    the shots it failed to record."""
    return sum(int(side[kind]) for kind in FAULTS) + int(side.get("errors", 0))


# -- carambole -----------------------------------------------------------------------------


def _carambole(
    environ: dict[str, str], match_id: str, key: str, options: AudienceOptions
) -> dict[str, Any]:
    watched = Watched({match_id: options.viewers}, {match_id: OPENED_SEQ})
    paths = watched.paths("/ws/matches/{name}/?after={after}")
    with ExitStack() as stack:
        servers = [_uvicorn(environ) for _ in range(options.servers + 1)]
        (record_port, _), *started = entered_at_once(stack, servers)
        recorder = Recorder(record_port, key)
        served = _serving(stack, started, paths, options)
        figures = _timed(
            served, lambda: recorder.rounds([match_id], options.shots, options.pace_s), options
        )
        commits = recorder.commit_times().get(match_id, {})
    recorded = sorted(seq for seq in commits if seq > OPENED_SEQ)
    began = {(match_id, seq): commits[seq] for seq in recorded}
    return (
        shot_figures(watched, figures.pop("reports"), {match_id: recorded}, began)
        | figures
        | {"errors": recorder.errors, "shots_recorded": recorder.recorded}
    )


@contextmanager
def _uvicorn(environ: dict[str, str]) -> Iterator[tuple[int, int]]:
    """Serve carambole as in production (its commit times told); yield its port and pid."""
    port = free_port()
    command = [*uvicorn_command(port, *fanout.SERVE), "bench.served:application"]
    with running(command, environ, port) as process:
        yield port, process.pid


# -- The bare servers ----------------------------------------------------------------------


def _bare(redis_url: str, size: int, options: AudienceOptions) -> dict[str, Any]:
    watched = Watched({FINAL: options.viewers}, {FINAL: 0})
    began: dict[tuple[str, int], float] = {}

    @contextmanager
    def server() -> Iterator[tuple[int, int]]:
        port = free_port()
        command = [sys.executable, "-m", "bench.bare", str(port), redis_url]
        with running(command, dict(os.environ), port) as process:
            yield port, process.pid

    def publish() -> None:
        with redis.Redis.from_url(redis_url) as publisher:
            for seq in range(1, options.shots + 1):
                began[FINAL, seq] = clock()
                publisher.publish(bare.channel(FINAL), bare.message(seq, size))
                time.sleep(options.pace_s)

    with ExitStack() as stack:
        started = entered_at_once(stack, [server() for _ in range(options.servers)])
        served = _serving(stack, started, watched.paths("/g/{name}"), options)
        figures = _timed(served, publish, options)
    recorded = {FINAL: list(range(1, options.shots + 1))}
    return shot_figures(watched, figures.pop("reports"), recorded, began) | figures


# -- Both sides ------------------------------------------------------------------------------


def _serving(
    stack: ExitStack, started: list[tuple[int, int]], paths: list[str], options: AudienceOptions
) -> Served:
    """Note the memory of the servers started (each port and pid), then open every viewer's
    socket spread evenly over them (`options.clients` processes each) until `stack` closes;
    return them once all are open."""
    ports, pids = [port for port, _ in started], [pid for _, pid in started]
    _first_sockets(ports, paths[0])
    rss_alone = [rss_bytes(pid) for pid in pids]
    viewers = entered_at_once(
        stack,
        [
            fanout.viewers_of(port, paths[number :: len(ports)], options.client, options.clients)
            for number, port in enumerate(ports)
        ],
    )
    return Served(ports, pids, rss_alone, viewers)


def entered_at_once(stack: ExitStack, managers: Sequence[AbstractContextManager[T]]) -> list[T]:
    """Enter every context side by side (servers starting, viewers connecting), each left
    when `stack` closes; return what each gave, in order."""
    with ThreadPoolExecutor(len(managers)) as pool:
        return list(pool.map(stack.enter_context, managers))


def _first_sockets(ports: list[int], path: str) -> None:
    """Open a socket on each server and close it: what the first one loads is the process's,
    not a viewer's."""
    with ExitStack() as sockets:
        for port in ports:
            sockets.enter_context(websocket(f"ws://127.0.0.1:{port}{path}", proxy=None))
        time.sleep(WARM_S)
    time.sleep(WARM_S)


def _timed(served: Served, send: Callable[[], None], options: AudienceOptions) -> dict[str, Any]:
    """Send every shot; return the viewers' reports and the servers' and load generators'
    CPU and memory while they were sent."""
    servers_before, viewers_before = (
        venue._cpu_seconds(served.pids),
        venue._cpu_seconds(served.viewer_pids),
    )
    own_before, started = _own_cpu_seconds(), time.monotonic()
    send()
    time.sleep(options.settle_s)
    wall = max(time.monotonic() - started, 1e-9)
    servers_cpu = venue._cpu_seconds(served.pids) - servers_before
    viewers_cpu = venue._cpu_seconds(served.viewer_pids) - viewers_before
    own_cpu = _own_cpu_seconds() - own_before
    rss_with = [rss_bytes(pid) for pid in served.pids]
    reports = served.reports()
    return {
        "reports": reports,
        "servers": len(served.ports),
        "servers_cpu": per_viewer_cpu(servers_cpu, wall, options.viewers),
        "servers_memory": per_viewer_memory(served.rss_alone, rss_with, options.viewers),
        "load_cpu": {
            "share_of_a_core": round((viewers_cpu + own_cpu) / wall, 3),
            "viewers_share_of_a_core": round(viewers_cpu / wall, 3),
            "own_share_of_a_core": round(own_cpu / wall, 3),
            "limit": CPU_LIMIT,
        },
    }


def per_viewer_cpu(seconds: float, wall: float, viewers: int) -> dict[str, float]:
    """Return the servers' CPU over a stretch: all of it, and per thousand viewers, each as a
    share of one core."""
    share = seconds / wall
    return {
        "share_of_a_core": round(share, 3),
        "per_1000_viewers": round(share / max(viewers, 1) * 1000, 4),
    }


def per_viewer_memory(alone: list[int], watched: list[int], viewers: int) -> dict[str, float]:
    """Return the servers' resident memory without viewers (a process's, on average), and
    what each viewer added, in kilobytes."""
    return {
        "process_mb": round(sum(alone) / len(alone) / 2**20, 1),
        "with_viewers_mb": round(sum(watched) / 2**20, 1),
        "per_viewer_kb": round((sum(watched) - sum(alone)) / max(viewers, 1) / 1024, 1),
    }


def _own_cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


# -- The table -------------------------------------------------------------------------------


def table(results: dict[str, Any]) -> list[str]:
    """Return the audience's figures as the bench's table prints them."""
    options, ours, theirs = results["options"], results["carambole"], results["bare"]
    ratio, target = results["vs_bare_p99"], results["target"]
    lines = [
        f"(p) a final's audience across processes: {options['viewers']} viewers of one match "
        f"over {options['servers']} servers sharing Redis, a shot every {options['pace_s']:g} s "
        f"recorded on one more ({results['database']}): its commit to the last viewer's "
        f"receipt (target: p99 <= {target}x that of as many bare servers fed by one channel)"
    ]
    for label, figures in (
        (f"carambole, {ours['servers']} uvicorn + Redis", ours),
        (f"bare websockets, {theirs['servers']} + Redis", theirs),
    ):
        faults = faults_of(figures)
        lines.append(
            f"  {label:<34}p50 {figures['last_p50_ms']:>6.1f} ms  "
            f"p99 {figures['last_p99_ms']:>6.1f} ms  max {figures['last_max_ms']:>6.1f} ms  "
            f"({figures['samples']} shots)" + (f"  FAULTS: {faults}" if faults else "")
        )
    lines.append(
        f"  carambole's p99 / the bare servers': {ratio}"
        + (" (meets target)" if ratio <= target else " (OVER TARGET)")
    )
    for name, figures in (("carambole's servers", ours), ("the bare servers", theirs)):
        cpu, memory = figures["servers_cpu"], figures["servers_memory"]
        lines.append(
            f"  {name:<21} CPU {cpu['share_of_a_core'] * 100:.1f}% of a core "
            f"({cpu['per_1000_viewers'] * 100:.2f}% per 1,000 viewers); memory "
            f"{memory['per_viewer_kb']:.1f} KB per viewer over {memory['process_mb']:.0f} MB "
            "a process"
        )
    load = max((ours["load_cpu"], theirs["load_cpu"]), key=lambda cpu: cpu["share_of_a_core"])
    lines.append(
        f"  load generators' CPU: {load['share_of_a_core'] * 100:.0f}% of a core at most "
        f"(viewers {load['viewers_share_of_a_core'] * 100:.0f}%, the bench "
        f"{load['own_share_of_a_core'] * 100:.0f}%) "
        + ("(valid)" if results["valid"] else f"(INVALID: over {CPU_LIMIT * 100:.0f}%)")
    )
    return lines
