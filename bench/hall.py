"""The hall: how soon an event on one of a hall's tables reaches the last of its viewers.

A competition with 16 tables, a match under way at each, served as the fan-out serves
carambole (`bench.fanout`: uvicorn on a throwaway SQLite file, the in-memory layer, and
Redis with a second server recording through the API when `REDIS_URL` is set). 500
viewers watch the hall's socket (`/ws/competitions/{id}/hall/`, `hall` viewers of
`bench.viewers`), then one shot is recorded on each table in turn, a few rounds, each
alone. Each event is timed from its commit to the receipt, by the last viewer, of the
`table` message whose card shows its match at its seq. Beside it, in the same run on the
same servers, as many viewers watch one match's board (`/ws/matches/{id}/`) while as
many shots are recorded on it at the same pace: the fan-out's `one_match`. Both go through
the same hub (one read and one encoding per change per server process), so the target is
the board's own figures: the hall's p50 and p99 at most `TARGET` times the board's, on each
layer.

Every viewer must receive every event of every table once, each table's seqs only
growing: what is lost, doubled or out of order is counted (must be 0).
"""

from __future__ import annotations

import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, TextIO

from bench.database import throwaway_sqlite
from bench.fanout import (
    OPENED_SEQ,
    SETTLE_S,
    FanoutOptions,
    Recorder,
    Watched,
    _allow_files,
    open_matches,
    servers,
    shot_figures,
    timed,
    viewers_of,
)
from matches import services
from replay.api.tokens import token_issue

TARGET = 1.5  # the hall's p50 and p99 / the match board's, each layer


@dataclass(frozen=True)
class HallOptions:
    tables: int = 16  # a match under way at each
    viewers: int = 500  # of the hall, and of the match board beside it
    rounds: int = 8  # of an event on each table in turn (16 tables: 128 timed)
    pace_s: float = 0.15  # between two events: each one's fan-out is timed alone
    settle_s: float = SETTLE_S  # after the last event, for its last messages to arrive
    clients: int = 1  # viewer processes (as the fan-out's)
    redis_url: str | None = None


def run_hall(options: HallOptions, log: TextIO = sys.stderr) -> dict[str, Any]:
    """Measure the hall beside one match board on carambole (each layer); return the figures."""
    _allow_files(options.viewers * 2 + 512)
    directory = Path(tempfile.mkdtemp(prefix="carambole-hall-"))
    path = directory / "hall.sqlite3"
    layers = {"in_memory": None, **({"redis": options.redis_url} if options.redis_url else {})}
    try:
        with throwaway_sqlite(path):
            key = token_issue("bench-hall", staff=True).key
            results: dict[str, Any] = {
                layer: _carambole(layer, url, path, key, options, log)
                for layer, url in layers.items()
            }
    finally:
        for child in directory.iterdir():
            child.unlink()
        directory.rmdir()
    for layer in layers:
        results[layer] |= against_board(results[layer])
    results["options"] = asdict(options) | {"redis_url": bool(options.redis_url)}
    results["target"] = TARGET
    return results


def against_board(figures: dict[str, Any]) -> dict[str, Any]:
    """Return the hall's p50 and p99 over the board's, and whether both are within target
    with nothing lost, doubled, out of order or closed on either."""
    hall, board = figures["hall"], figures["one_match"]
    ratios = {
        f"vs_board_{percent}": hall[f"last_{percent}_ms"] / max(board[f"last_{percent}_ms"], 0.001)
        for percent in ("p50", "p99")
    }
    faults = sum(faults_of(found) for found in (hall, board))
    return ratios | {
        "faults": faults,
        "meets_target": not faults and all(ratio <= TARGET for ratio in ratios.values()),
    }


def faults_of(figures: dict[str, Any]) -> int:
    faults = sum(figures[kind] for kind in ("lost", "doubled", "out_of_order", "closed"))
    return int(faults + figures.get("errors", 0))


def _carambole(
    layer: str, redis_url: str | None, path: Path, key: str, options: HallOptions, log: TextIO
) -> dict[str, Any]:
    competition = f"bench-hall-{layer.replace('_', '-')}"
    matches = open_matches(f"{layer}-hall", options.tables, competition)
    names = [str(number) for number in range(1, options.tables + 1)]
    services.tables_set(competition_id=competition, names=names, by="bench")
    for match_id, name in zip(matches, names, strict=True):
        services.match_assign_table(match_id=match_id, table=name, by="bench")
    board = open_matches(f"{layer}-board", 1)
    events = options.tables * options.rounds
    with servers(path, redis_url) as (watch_port, record_port):
        recorder = Recorder(record_port, key)
        print(f"hall, carambole ({layer} layer): {options.tables} tables", file=log)
        hall = _hall_timed(competition, matches, watch_port, recorder, options)
        print(f"hall, carambole ({layer} layer): one match board beside it", file=log)
        one_match = timed(
            Watched({board[0]: options.viewers}, {board[0]: OPENED_SEQ}),
            watch_port,
            recorder,
            lambda: recorder.rounds(board, events, options.pace_s),
            FanoutOptions(clients=options.clients),
        )
    return {"servers": 1 if redis_url is None else 2, "hall": hall, "one_match": one_match}


def _hall_timed(
    competition: str, matches: list[str], port: int, recorder: Recorder, options: HallOptions
) -> dict[str, Any]:
    paths = [f"/ws/competitions/{competition}/hall/"] * options.viewers
    with viewers_of(port, paths, "hall", options.clients) as viewers:
        for _ in range(options.rounds):
            for match_id in matches:  # each table in turn
                recorder.shot(match_id)
                time.sleep(options.pace_s)
        time.sleep(options.settle_s)
        reports = viewers.report()
    commits = recorder.commit_times()
    recorded = {
        match_id: sorted(seq for seq in commits.get(match_id, {}) if seq > OPENED_SEQ)
        for match_id in matches
    }
    began = {(m, seq): commits[m][seq] for m, seqs in recorded.items() for seq in seqs}
    figures = hall_figures(reports, matches, recorded, began)
    figures["errors"] = recorder.errors
    figures["shots_recorded"] = recorder.recorded
    recorder.errors = recorder.recorded = 0
    return figures


def hall_figures(
    reports: list[dict[str, Any]],
    matches: list[str],
    recorded: dict[str, list[int]],
    began: dict[tuple[str, int], float],
) -> dict[str, Any]:
    """Return the fan-out's figures of the hall's sockets: each socket counted, for what was
    lost, doubled or out of order, as one viewer of each table's match (its seqs only grow)."""
    per_table = []
    for report in reports:
        for match_id in matches:
            mine = [i for i, name in enumerate(report["matches"]) if name == match_id]
            per_table.append(
                {
                    "path": f"/ws/matches/{match_id}/",
                    "seqs": [report["seqs"][i] for i in mine],
                    "times": [report["times"][i] for i in mine],
                    "sizes": [report["sizes"][i] for i in mine],
                    "closed": None,
                }
            )
    watched = Watched(dict.fromkeys(matches, len(reports)), dict.fromkeys(matches, OPENED_SEQ))
    figures = shot_figures(watched, per_table, recorded, began)
    figures["viewers"] = len(reports)
    figures["tables"] = figures.pop("matches")
    figures["closed"] = sum(report["closed"] is not None for report in reports)
    return figures


def table(results: dict[str, Any]) -> str:
    """Return the hall's figures as the bench's table prints them."""
    options = results["options"]
    lines = [
        f"(t) the hall: an event on each of {options['tables']} tables in turn, "
        f"{options['viewers']} viewers of the hall: its commit to the last viewer's receipt, "
        f"beside as many viewers of one match board (target: p50 and p99 at most "
        f"{results['target']:g} times the board's, each layer)"
    ]
    for layer in ("in_memory", "redis"):
        if layer not in results:
            continue
        label = f"carambole, {layer.replace('_', '-')} layer, {results[layer]['servers']} uvicorn"
        for name, key in (("hall", "hall"), ("one match board", "one_match")):
            figures = results[layer][key]
            faults = faults_of(figures)
            lines.append(
                f"  {label:<38}{name:<17}p50 {figures['last_p50_ms']:>6.1f} ms  "
                f"p99 {figures['last_p99_ms']:>6.1f} ms  max {figures['last_max_ms']:>6.1f} ms  "
                f"({figures['samples']} events)"
                f"{f'  FAULTS: {faults}' if faults else ''}"
            )
            label = ""
        served = results[layer]
        lines.append(
            f"  {'':<38}{'hall / board':<17}p50 {served['vs_board_p50']:>6.2f}     "
            f"p99 {served['vs_board_p99']:>6.2f}     "
            + ("meets the target" if served["meets_target"] else "MISSES the target")
        )
    return "\n".join(lines)
