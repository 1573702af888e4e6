"""Fan-out: how soon a recorded shot reaches the last of many viewers, beside a bare server.

The real thing runs: uvicorn in a subprocess on 127.0.0.1 serving carambole (with the
in-memory channel layer, and with Redis when `REDIS_URL` is set: then viewers watch one
server and shots are recorded through the REST API of another), viewers in client
processes (`bench.viewers`), shots recorded with `POST /api/matches/{id}/events`. Each
shot is timed from its commit (in the server) to its receipt by the last viewer of its
match, by the machine's monotonic clock. The yardstick is a bare `websockets` broadcast
server (`bench.bare`) with as many clients and messages of the same size; the figure
that counts is the ratio of the two p99s (target: at most 1.5).

The viewers are programs using the `websockets` client library, all in one process, as
the yardstick was first measured. Scenarios: one match watched by every viewer; ten
matches watched by a tenth of them each, a shot recorded on all ten at once; the same
while twenty referees record shots on twenty matches (beside the bare server's ten
groups); and the first again with the thinnest client there is (`thin`), which costs so
little that what is timed is the server alone. Every viewer must receive every shot of
its match once, in order: what is lost, doubled or out of order is counted (must be 0).
"""

from __future__ import annotations

import http.client
import json
import math
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, TextIO

from websockets.sync.client import connect as websocket

from bench import processes
from bench.database import throwaway_sqlite
from bench.processes import free_port, running, uvicorn_command
from matches import services
from matches.models import Competition
from replay.api.tokens import token_issue

ROOT = Path(__file__).resolve().parent.parent
TARGET = 1.5  # carambole's p99 / the bare server's p99
QUIET = {"contacts": [{"ball": "white", "hit": "yellow"}]}  # legal for either player, any time
PLAYERS = {"A": {"name": "Fan A"}, "B": {"name": "Fan B"}}
OPENED_SEQ = 3  # lag, game 1, the break's placement
STARTUP_S = 60.0
SETTLE_S = 1.5  # after the last shot, for its last messages to arrive
# As the README serves carambole in production (`--no-access-log`: the bench's requests
# are not what it measures).
SERVE = (
    "--ws websockets-sansio --ws-ping-interval 5 --ws-ping-timeout 10 "
    "--lifespan off --log-level warning --no-access-log"
).split()


# Each of carambole's scenarios beside the bare server's with the same viewers and client.
YARDSTICK = {
    "one_match": "one_match",
    "ten_matches": "ten_matches",
    "ten_matches_20_referees": "ten_matches",
    "one_match_thin_clients": "one_match_thin_clients",
}


@dataclass(frozen=True)
class FanoutOptions:
    viewers: int = 1000
    matches: int = 10  # the second and third scenarios spread the viewers over these
    shots: int = 100  # timed on one match (of 100, the p99 is the second slowest)
    shot_pace_s: float = 0.15  # between two shots: each fan-out is timed alone
    rounds: int = 30  # of a shot on each of ten matches at once
    round_pace_s: float = 0.25
    referees: int = 20
    referee_shots: int = 15  # each referee's, in the third scenario
    referee_pace_s: float = 0.5
    clients: int = 1  # viewer processes (one, as the yardstick was first measured)
    redis_url: str | None = None
    scenarios: tuple[str, ...] = tuple(YARDSTICK)  # which of carambole's to measure


@dataclass(frozen=True)
class Watched:
    """Who watches what: viewers per match (or bare group), from which seq, with which client."""

    viewers: dict[str, int]
    after: dict[str, int]
    client: str = "websockets"

    def paths(self, template: str) -> list[str]:
        return [
            template.format(name=name, after=self.after[name])
            for name, count in self.viewers.items()
            for _ in range(count)
        ]


def run_fanout(options: FanoutOptions, log: TextIO = sys.stderr) -> dict[str, Any]:
    """Measure every scenario on carambole (each layer) and the bare server; return the figures."""
    _allow_files(options.viewers * 2 + 512)
    directory = Path(tempfile.mkdtemp(prefix="carambole-fanout-"))
    path = directory / "fanout.sqlite3"
    layers = {"in_memory": None, **({"redis": options.redis_url} if options.redis_url else {})}
    try:
        with throwaway_sqlite(path):
            key = token_issue("bench-fanout", staff=True).key
            results: dict[str, Any] = {
                layer: _carambole(layer, url, path, key, options, log)
                for layer, url in layers.items()
            }
        size = results["in_memory"][options.scenarios[0]]["message_bytes"]
        results["bare"] = _bare(options, size, log)
    finally:
        for child in directory.iterdir():
            child.unlink()
        directory.rmdir()
    for layer in layers:
        for scenario in options.scenarios:
            figures = results[layer][scenario]
            ratio = figures["last_p99_ms"] / results["bare"][YARDSTICK[scenario]]["last_p99_ms"]
            figures["vs_bare_p99"] = round(ratio, 2)
            figures["meets_target"] = ratio <= TARGET
    results["target"] = TARGET
    results["options"] = asdict(options) | {"redis_url": bool(options.redis_url)}
    return results


# -- carambole -----------------------------------------------------------------------------


def _carambole(
    layer: str, redis_url: str | None, path: Path, key: str, options: FanoutOptions, log: TextIO
) -> dict[str, Any]:
    """Every scenario on carambole served by uvicorn, with one channel layer."""
    per_match = options.viewers // options.matches
    one, thin = open_matches(f"{layer}-one", 1), open_matches(f"{layer}-thin", 1)
    ten = open_matches(f"{layer}-ten", options.matches)
    busy = open_matches(f"{layer}-busy", options.referees)
    watched_busy = busy[: options.matches]
    with servers(path, redis_url) as (watch_port, record_port):
        recorder = Recorder(record_port, key)
        scenarios: dict[str, tuple[Watched, Callable[[], None]]] = {
            "one_match": (
                Watched({one[0]: options.viewers}, {one[0]: OPENED_SEQ}),
                lambda: recorder.rounds(one, options.shots, options.shot_pace_s),
            ),
            "ten_matches": (
                Watched(dict.fromkeys(ten, per_match), dict.fromkeys(ten, OPENED_SEQ)),
                lambda: recorder.rounds(ten, options.rounds, options.round_pace_s),
            ),
            "ten_matches_20_referees": (
                Watched(
                    dict.fromkeys(watched_busy, per_match), dict.fromkeys(watched_busy, OPENED_SEQ)
                ),
                lambda: recorder.referees(busy, options.referee_shots, options.referee_pace_s),
            ),
            "one_match_thin_clients": (
                Watched({thin[0]: options.viewers}, {thin[0]: OPENED_SEQ}, client="thin"),
                lambda: recorder.rounds(thin, options.shots, options.shot_pace_s),
            ),
        }
        figures: dict[str, Any] = {"servers": 1 if redis_url is None else 2}
        for scenario in options.scenarios:
            watched, record = scenarios[scenario]
            print(f"fan-out, carambole ({layer} layer): {scenario}", file=log)
            figures[scenario] = timed(watched, watch_port, recorder, record, options)
    return figures


def open_matches(prefix: str, count: int, competition: str = "bench-fanout") -> list[str]:
    """Create `count` matches of a competition (made if need be) with their first game open;
    return their ids."""
    if not Competition.objects.filter(pk=competition).exists():
        services.competition_create(id=competition, name=competition.replace("-", " ").title())
    ids = []
    for number in range(count):
        match_id = f"{prefix}-{number}"
        services.match_create(id=match_id, competition=competition, players=PLAYERS, ruleset={})
        services.lag_record(
            match_id=match_id, expected_seq=0, by="bench", a={"distance": 90}, b={"distance": 150}
        )
        services.game_start(match_id=match_id, expected_seq=1, by="bench", game=1, breaker="A")
        services.ball_place(
            match_id=match_id,
            expected_seq=2,
            by="bench",
            ball="white",
            pos=[700, 400],
            reason="break",
        )
        ids.append(match_id)
    return ids


def timed(
    watched: Watched,
    watch_port: int,
    recorder: Recorder,
    record: Callable[[], None],
    options: FanoutOptions,
) -> dict[str, Any]:
    paths = watched.paths("/ws/matches/{name}/?after={after}")
    with viewers_of(watch_port, paths, watched.client, options.clients) as viewers:
        record()
        time.sleep(SETTLE_S)
        reports = viewers.report()
    commits = recorder.commit_times()
    recorded = {
        name: sorted(seq for seq in commits.get(name, {}) if seq > watched.after[name])
        for name in watched.viewers
    }
    began = {(name, seq): commits[name][seq] for name, seqs in recorded.items() for seq in seqs}
    figures = shot_figures(watched, reports, recorded, began)
    figures["errors"] = recorder.errors
    figures["shots_recorded"] = recorder.recorded
    recorder.errors = recorder.recorded = 0
    return figures


class Recorder:
    """Records shots through the REST API, one kept-alive connection per thread."""

    def __init__(self, port: int, key: str) -> None:
        self.port = port
        self.key = key
        self.next_seq: dict[str, int] = defaultdict(lambda: OPENED_SEQ)
        self.errors = 0
        self.recorded = 0
        self._local = threading.local()
        self._lock = threading.Lock()

    def shot(self, match_id: str) -> None:
        """Record one shot on a match (each match has one recording thread at a time)."""
        if not hasattr(self._local, "connection"):
            self._local.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        connection = self._local.connection
        body = json.dumps(
            {"expected_seq": self.next_seq[match_id], "event": {"type": "shot", **QUIET}}
        )
        headers = {"Content-Type": "application/json", "Authorization": f"Token {self.key}"}
        try:
            connection.request("POST", f"/api/matches/{match_id}/events", body, headers)
            answer = connection.getresponse()
            answer.read()
            ok = answer.status == 201
        except OSError:
            connection.close()
            ok = False
        with self._lock:
            if ok:
                self.next_seq[match_id] += 1
                self.recorded += 1
            else:
                self.errors += 1

    def rounds(self, match_ids: list[str], rounds: int, pace_s: float) -> None:
        """Record a shot on every match at once, `rounds` times, `pace_s` apart."""
        with ThreadPoolExecutor(len(match_ids)) as pool:
            for _ in range(rounds):
                list(pool.map(self.shot, match_ids))
                time.sleep(pace_s)

    def referees(self, match_ids: list[str], shots: int, pace_s: float) -> None:
        """A referee per match, each recording `shots` shots `pace_s` apart, all at once."""

        def referee(number: int, match_id: str) -> None:
            time.sleep(pace_s * number / len(match_ids))  # staggered, as halls are
            for _ in range(shots):
                self.shot(match_id)
                time.sleep(pace_s)

        with ThreadPoolExecutor(len(match_ids)) as pool:
            list(pool.map(referee, range(len(match_ids)), match_ids))

    def commit_times(self) -> dict[str, dict[int, float]]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        connection.request("GET", "/bench/commits")
        times = json.loads(connection.getresponse().read())
        connection.close()
        return {name: {int(seq): t for seq, t in seqs.items()} for name, seqs in times.items()}


@contextmanager
def servers(path: Path, redis_url: str | None) -> Iterator[tuple[int, int]]:
    """Serve carambole: one server process on the in-memory layer, or two sharing Redis."""
    with ExitStack() as stack:
        watch_port = stack.enter_context(_server(path, redis_url))
        record_port = (
            watch_port if redis_url is None else stack.enter_context(_server(path, redis_url))
        )
        yield watch_port, record_port


@contextmanager
def _server(path: Path, redis_url: str | None) -> Iterator[int]:
    with serve(path, redis_url) as (port, _):
        yield port


@contextmanager
def serve(path: Path, redis_url: str | None) -> Iterator[tuple[int, subprocess.Popen[str]]]:
    """Serve carambole with uvicorn as in production, on this database; yield port and process."""
    port = free_port()
    command = [*uvicorn_command(port, *SERVE), "bench.served:application"]
    with running(command, served_environ(path, redis_url), port, STARTUP_S) as process:
        yield port, process


def served_environ(path: Path, redis_url: str | None, **extra: str) -> dict[str, str]:
    """Return the environment of carambole served as in production on this SQLite file."""
    return processes.served_environ(f"sqlite:///{path}", redis_url, LOG_LEVEL="WARNING", **extra)


# -- The bare server -----------------------------------------------------------------------


def _bare(options: FanoutOptions, size: int, log: TextIO) -> dict[str, Any]:
    """The bare server's scenarios: as many clients, messages of the same size."""
    port = free_port()
    groups = [f"g{number}" for number in range(options.matches)]
    one = Watched({"one": options.viewers}, {"one": 0})
    ten = Watched(
        dict.fromkeys(groups, options.viewers // options.matches), dict.fromkeys(groups, 0)
    )
    scenarios = {
        "one_match": (one, options.shots, options.shot_pace_s),
        "ten_matches": (ten, options.rounds, options.round_pace_s),
        "one_match_thin_clients": (
            Watched(one.viewers, one.after, client="thin"),
            options.shots,
            options.shot_pace_s,
        ),
    }
    wanted = {YARDSTICK[scenario] for scenario in options.scenarios}
    figures = {}
    with running(
        [sys.executable, "-m", "bench.bare", str(port)], dict(os.environ), port, STARTUP_S
    ):
        for scenario, (watched, shots, pace_s) in scenarios.items():
            if scenario not in wanted:
                continue
            print(f"fan-out, bare websockets server: {scenario}", file=log)
            figures[scenario] = _bare_timed(watched, port, size, shots, pace_s, options.clients)
    return figures


def _bare_timed(
    watched: Watched, port: int, size: int, shots: int, pace_s: float, clients: int
) -> dict[str, Any]:
    began: dict[tuple[str, int], float] = {}
    paths = watched.paths("/g/{name}")
    with viewers_of(port, paths, watched.client, clients) as viewers:
        with websocket(f"ws://127.0.0.1:{port}/control", proxy=None) as control:
            for seq in range(1, shots + 1):
                order = {"groups": list(watched.viewers), "seq": seq, "size": size}
                control.send(json.dumps(order))
                for name, moment in json.loads(control.recv(timeout=30))["began"].items():
                    began[name, seq] = moment
                time.sleep(pace_s)
        time.sleep(SETTLE_S)
        reports = viewers.report()
    recorded = {name: list(range(1, shots + 1)) for name in watched.viewers}
    return shot_figures(watched, reports, recorded, began)


# -- Viewers and figures ---------------------------------------------------------------------


class Viewers:
    """The viewer processes of one scenario."""

    def __init__(self, processes: list[subprocess.Popen[str]]) -> None:
        self.processes = processes

    def report(self) -> list[dict[str, Any]]:
        reports = []
        for process in self.processes:
            assert process.stdin is not None and process.stdout is not None
            process.stdin.write("report\n")
            process.stdin.flush()
        for process in self.processes:
            assert process.stdout is not None
            reports.extend(json.loads(process.stdout.readline())["viewers"])
        return reports


@contextmanager
def viewers_of(port: int, paths: list[str], client: str, clients: int) -> Iterator[Viewers]:
    """Open every path as a socket, spread over `clients` processes; yield once all are open."""
    processes: list[subprocess.Popen[str]] = []
    try:
        for number in range(clients):
            process = subprocess.Popen(
                [sys.executable, "-m", "bench.viewers"],
                cwd=ROOT,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
            )
            processes.append(process)
            assert process.stdin is not None
            order = {"port": port, "paths": paths[number::clients], "kind": client}
            process.stdin.write(json.dumps(order) + "\n")
            process.stdin.flush()
        for process in processes:
            assert process.stdout is not None
            line = process.stdout.readline()
            if not line or "ready" not in json.loads(line):
                raise RuntimeError(f"a viewer process could not connect: {line!r}")
        time.sleep(0.5)  # the last sockets' viewers are registered by their servers
        yield Viewers(processes)
    finally:
        for process in processes:
            process.kill()
            process.wait()
            for stream in (process.stdin, process.stdout):
                if stream is not None:
                    stream.close()


def shot_figures(
    watched: Watched,
    reports: list[dict[str, Any]],
    recorded: dict[str, list[int]],
    began: dict[tuple[str, int], float],
) -> dict[str, Any]:
    """Return the latencies of every (match, seq), and what was lost, doubled or disordered."""
    receipts: dict[tuple[str, int], list[float]] = defaultdict(list)
    lost = doubled = disordered = closed = 0
    sizes = []
    for report in reports:
        name = _watched_name(report["path"])
        wanted = recorded[name]
        got = report["seqs"]
        for seq, moment in zip(got, report["times"], strict=True):
            receipts[name, seq].append(moment)
        sizes.extend(report["sizes"])
        lost += len(set(wanted) - set(got))
        doubled += len(got) - len(set(got))
        disordered += sum(1 for a, b in zip(got, got[1:], strict=False) if b <= a)
        closed += report["closed"] is not None
    last, every = [], []
    for key, start in began.items():
        times = receipts.get(key)
        if times:
            last.append(max(times) - start)
            every.extend(moment - start for moment in times)
    return {
        "viewers": sum(watched.viewers.values()),
        "matches": len(watched.viewers),
        "samples": len(last),
        "message_bytes": round(statistics.median(sizes)) if sizes else 0,
        "last_p50_ms": _ms(percentile(last, 50)),
        "last_p99_ms": _ms(percentile(last, 99)),
        "last_max_ms": _ms(max(last, default=math.nan)),
        "last_each_ms": [_ms(seconds) for seconds in last],  # each shot's, in no order
        "viewer_p50_ms": _ms(percentile(every, 50)),
        "viewer_p99_ms": _ms(percentile(every, 99)),
        "lost": lost,
        "doubled": doubled,
        "out_of_order": disordered,
        "closed": closed,
    }


def _watched_name(path: str) -> str:
    if path.startswith("/g/"):
        return path.removeprefix("/g/")
    return path.split("/")[3]  # /ws/matches/{id}/?after=


def percentile(values: list[float], percent: float) -> float:
    """Return the nearest-rank percentile (of 40 samples, p99 is the slowest)."""
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[max(math.ceil(percent / 100 * len(ordered)) - 1, 0)]


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 1)


# -- Plumbing ----------------------------------------------------------------------------------


def _allow_files(wanted: int) -> None:
    """Raise this process's open-file limit (its servers and viewers inherit it)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        ceiling = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (ceiling, hard))


def table(results: dict[str, Any]) -> str:
    """Return the fan-out figures as the bench's table prints them."""
    target = results["target"]
    options = results["options"]
    lines = [
        f"(f) fan-out of a recorded shot to {options['viewers']} viewers: its commit to the last "
        f"viewer's receipt, p50 and p99 over the shots (target: p99 <= {target}x the bare "
        "server's with the same viewers)"
    ]
    rows: list[tuple[str, str, dict[str, Any]]] = [
        ("bare websockets server", scenario, figures)
        for scenario, figures in results["bare"].items()
    ]
    for layer in ("in_memory", "redis"):
        if layer in results:
            servers = results[layer]["servers"]
            label = f"carambole, {layer.replace('_', '-')} layer, {servers} uvicorn"
            scenarios = [scenario for scenario in YARDSTICK if scenario in results[layer]]
            rows.extend((label, scenario, results[layer][scenario]) for scenario in scenarios)
    for label, scenario, figures in rows:
        ratio = figures.get("vs_bare_p99")
        note = "" if ratio is None else f"{ratio}x bare" + ("" if ratio <= target else " (over)")
        faults = sum(figures[k] for k in ("lost", "doubled", "out_of_order", "closed"))
        faults += figures.get("errors", 0)
        lines.append(
            f"  {label:<38}{scenario:<25}p50 {figures['last_p50_ms']:>6.1f} ms  "
            f"p99 {figures['last_p99_ms']:>6.1f} ms  {note}"
            f"{f'  FAULTS: {faults}' if faults else ''}".rstrip()
        )
    return "\n".join(lines)
