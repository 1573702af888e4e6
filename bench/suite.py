"""The archive's measurements of `make bench`: import, rebuild, state on demand, recording, pages.

Every speed is reported beside a baseline measured in the same run (reading and
parsing the same rows with `sqlite3` and `orjson`), as a ratio: the machine's
speed cancels out, so the numbers compare across machines and over time.
"""

from __future__ import annotations

import gc
import platform
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TextIO

import orjson
from tqdm import tqdm

from bench.amendment import unannounced
from bench.archive import measure_archive
from bench.archive import table as archive_table
from bench.database import throwaway_sqlite
from bench.recording import measure_recording
from bench.recording import table as recording_table
from matches import store
from matches.domain.fold import fold
from matches.domain.simulator import iter_competition, simulate_match
from matches.models import Match
from matches.records import record_check, record_import
from replay.projections import projector, states

IMPORT_TARGET = 2.0  # import time / the time of checking the same records alone
RECORDED_SHOTS = 200  # through the API, each beside one raw insert
LONG_MATCH_EVENTS = 300
LONG_MATCH_RULESET = {"best_of": 5, "target": 100}  # ~300 events
# The limit: sqlite3's own read of the store's table, beside the store's read.
EVENTS_SQL = f"SELECT type, data FROM {store.EVENTS_TABLE} WHERE match_id = ? ORDER BY seq"


@dataclass(frozen=True)
class Options:
    matches: int = 200
    seed: int = 1
    repeat: int = 7  # full rebuilds of the archive; state on demand repeats more
    on_demand_repeat: int = 25
    progress: bool = True
    keep_db: bool = False
    # A smoke run (the test of `make bench`): each measurement at its smallest, no figure
    # worth reading.
    quick: bool = False


def run(options: Options, log: TextIO = sys.stderr) -> dict[str, Any]:
    """Generate and import an archive into a throwaway database, measure, return the results."""
    directory = tempfile.mkdtemp(prefix="carambole-bench-")
    path = Path(directory) / "bench.sqlite3"
    try:
        with throwaway_sqlite(path):
            started = time.perf_counter()
            ids, long_id = _load_archive(options, log)
            loading = time.perf_counter() - started
            # What lives now lives to the end: keep it out of every collection that follows.
            gc.collect()
            gc.freeze()
            try:
                rebuild = _measure_rebuild(path, ids, options.repeat)
                rounds = 3 if options.quick else options.on_demand_repeat
                on_demand = _measure_on_demand(path, long_id, rounds)
                recording = (
                    measure_recording(path, 20, long_events=200)
                    if options.quick
                    else measure_recording(path, RECORDED_SHOTS)
                )
                archive_pages = (
                    measure_archive(path, long_id, repeat=3, matches=200)
                    if options.quick
                    else measure_archive(path, long_id)
                )
            finally:
                gc.unfreeze()
    finally:
        if options.keep_db:
            print(f"database kept: {path}", file=log)
        else:
            _remove(Path(directory))
    return {
        "when": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": {
            "python": platform.python_version(),
            "implementation": platform.python_implementation(),
            "platform": platform.platform(),
            "sqlite": sqlite3.sqlite_version,
        },
        "archive": {
            "seed": options.seed,
            "matches": len(ids),
            "events": rebuild["events"],
            "generate_and_import_s": round(loading, 2),
        },
        "rebuild": rebuild,
        "state_on_demand": on_demand,
        "recording": recording,
        "archive_pages": archive_pages,
    }


def measure_import(options: Options, log: TextIO = sys.stderr) -> dict[str, Any]:
    """Time importing a simulated archive into a throwaway database, beside checking the
    same records alone (no database)."""
    directory = Path(tempfile.mkdtemp(prefix="carambole-bench-import-"))
    try:
        with throwaway_sqlite(directory / "import.sqlite3"):
            return _timed_import(_records(options, log), options, log)
    finally:
        _remove(directory)


# -- The archive ----------------------------------------------------------------------


def _records(options: Options, log: TextIO) -> list[dict[str, Any]]:
    """Simulate a round robin plus one long match; return their records."""
    competition = f"bench-{options.seed}"
    simulated = iter_competition(options.seed, options.matches, competition=competition)
    records = list(_progress(simulated, "simulate", "match", options, log, options.matches))
    records.append(_long_match(options.seed, competition))
    return records


def _load_archive(options: Options, log: TextIO) -> tuple[list[str], str]:
    """Import the simulated archive and let the read models catch up; return the match ids
    and the long match's."""
    records = _records(options, log)
    with unannounced():
        for record in _progress(records, "import", "match", options, log, len(records)):
            record_import(record, by="bench")
    projector.catch_up(scheduled=True)
    return [r["match"]["id"] for r in records[:-1]], records[-1]["match"]["id"]


def _timed_import(records: list[dict[str, Any]], options: Options, log: TextIO) -> dict[str, Any]:
    for record in records[:20]:
        record_check(record, by="bench")  # warm-up: the interpreter and the memo of rulings
    checking, _ = _timed(lambda: [record_check(record, by="bench") for record in records])
    imports = _progress(records, "import", "match", options, log, len(records))
    # The store's import alone: the read models catch up after it, untimed (a worker's
    # work in production; embedded, each record's commit would run it in-process).
    with unannounced():
        importing, _ = _timed(lambda: [record_import(record, by="bench") for record in imports])
    events = sum(len(record["events"]) for record in records)
    return {
        "records": len(records),
        "events": events,
        "check_only_s": round(checking, 3),
        "import_s": round(importing, 3),
        "import_events_per_s": round(events / importing),
        "ratio": round(importing / checking, 2),
        "target": IMPORT_TARGET,
        "meets_target": importing / checking <= IMPORT_TARGET,
    }


def _long_match(seed: int, competition: str) -> dict[str, Any]:
    """Return the first simulated match of the long ruleset with about 300 events."""
    fallback = None
    for attempt in range(200):
        record = simulate_match(
            seed * 1000 + attempt,
            ruleset=LONG_MATCH_RULESET,
            match_id=f"{competition}-long",
            competition=competition,
            stage="Final",
        )
        count = len(record["events"])
        if LONG_MATCH_EVENTS <= count <= LONG_MATCH_EVENTS * 1.15:
            return record
        if count >= LONG_MATCH_EVENTS and (fallback is None or count < len(fallback["events"])):
            fallback = record
    if fallback is None:
        raise RuntimeError(f"no simulated match reached {LONG_MATCH_EVENTS} events")
    return fallback


# -- (b) Rebuild every match state ------------------------------------------------------


def _measure_rebuild(path: Path, ids: list[str], repeat: int) -> dict[str, Any]:
    """Time folding every match from its stored events, beside reading the same rows raw."""
    with sqlite3.connect(path) as raw:
        rebuilds, limits, loads, events = [], [], [], 0
        # One untimed round first: imports, the interpreter's warm-up, the memo of rulings.
        _read_raw(raw, ids)
        _rebuild(ids)
        for _ in range(repeat):
            # Interleaved, so all three see the same machine and the same caches.
            seconds, events = _timed(lambda: _read_raw(raw, ids))
            limits.append(seconds)
            seconds, rebuilt = _timed(lambda: _rebuild(ids))
            rebuilds.append(seconds)
            loads.append(_timed(lambda: _rebuild(ids, folded=False))[0])
            if rebuilt != events:
                raise RuntimeError(f"rebuild folded {rebuilt} events, the raw read found {events}")
    # Best of the rounds, on each side alike: on a shared machine the slower rounds
    # measure the neighbours, not the code. The ratio pairs each round's two timings,
    # taken moments apart, and keeps the median of those pairs.
    rebuild_s, limit_s, load_s = min(rebuilds), min(limits), min(loads)
    pairs = zip(limits, rebuilds, strict=True)
    ratio = statistics.median(limit / rebuild for limit, rebuild in pairs)
    return {
        "matches": len(ids),
        "events": events,
        "repeat": repeat,
        "rebuild_s": round(rebuild_s, 4),
        "rebuild_events_per_s": round(events / rebuild_s),
        "load_only_s": round(load_s, 4),
        "load_only_events_per_s": round(events / load_s),
        "limit_s": round(limit_s, 4),
        "limit_events_per_s": round(events / limit_s),
        "ratio": round(ratio, 3),
        "samples": {
            "rebuild_vs_limit": [r / limit for limit, r in zip(limits, rebuilds, strict=True)]
        },
    }


def _rebuild(ids: list[str], folded: bool = True) -> int:
    """Rebuild the state of each match from the store (or only load its events)."""
    count = 0
    for match in Match.objects.filter(pk__in=ids):
        events = store.load_facts(match)
        if folded:
            fold(match.header(), events)
        count += len(events)
    return count


def _read_raw(raw: sqlite3.Connection, ids: Iterable[str]) -> int:
    """The limit: the same rows with sqlite3, each data column parsed with orjson."""
    count = 0
    loads = orjson.loads
    for match_id in ids:
        rows = raw.execute(EVENTS_SQL, (match_id,)).fetchall()
        events = [loads(data) for _, data in rows]
        count += len(events)
    return count


# -- (c) State on demand for one long match ----------------------------------------------


def _measure_on_demand(path: Path, match_id: str, repeat: int) -> dict[str, Any]:
    """Time one match's state on demand beside a raw read of its rows and its fold alone."""
    match = Match.objects.get(pk=match_id)
    events = store.load_facts(match)
    header = match.header()
    if states.match_state(match_id) != fold(header, events):
        raise RuntimeError("state on demand differs from the fold")

    with sqlite3.connect(path) as raw:
        cases: dict[str, Callable[[], object]] = {
            "raw_read_ms": lambda: _read_raw(raw, [match_id]),
            "fold_in_memory_ms": lambda: fold(header, events),
            "state_ms": lambda: states.match_state(match_id),
        }
        timings: dict[str, list[float]] = {name: [] for name in cases}
        for _ in range(repeat):
            for name, case in cases.items():
                timings[name].append(_timed(case)[0])
    result: dict[str, Any] = {"match": match_id, "events": len(events), "repeat": repeat}
    result.update({name: round(statistics.median(t) * 1000, 3) for name, t in timings.items()})
    raw_ms = result["raw_read_ms"]
    result["state_vs_raw"] = round(result["state_ms"] / raw_ms, 1)
    made, raws = timings["state_ms"], timings["raw_read_ms"]
    result["samples"] = {"state_vs_raw": [m / r for m, r in zip(made, raws, strict=True)]}
    return result


# -- Reporting -------------------------------------------------------------------------------


def import_table(importing: dict[str, Any]) -> list[str]:
    """Return the import's lines as `make bench` prints them."""
    verdict = "PASS" if importing["meets_target"] else "ABOVE TARGET"
    return [
        f"(a) import an archive, {importing['records']} records, one transaction each",
        _row(
            "import: record_import",
            f"{importing['import_events_per_s']:,} events/s",
            f"{importing['import_s']:.3f} s",
        ),
        _row("checking alone: record_check, no database", "", f"{importing['check_only_s']:.3f} s"),
        _row(
            "ratio import / checking alone",
            f"{importing['ratio']:.2f}",
            f"target <= {importing['target']}: {verdict}",
        ),
    ]


def table(results: dict[str, Any]) -> str:
    """Return the archive's results as the table `make bench` prints."""
    archive, rebuild, demand = results["archive"], results["rebuild"], results["state_on_demand"]
    machine = results["machine"]
    lines = [
        f"carambole bench: {archive['matches']} simulated matches, {archive['events']:,} events "
        f"(seed {archive['seed']}); Python {machine['python']}, SQLite {machine['sqlite']}",
        "",
        "(b) rebuild every match state from its events "
        f"(best of {rebuild['repeat']}, after a warm-up)",
        _row(
            "rebuild: store.load_facts + fold",
            f"{rebuild['rebuild_events_per_s']:,} events/s",
            f"{rebuild['rebuild_s']:.3f} s",
        ),
        _row(
            "  of which loading alone: store.load_facts",
            f"{rebuild['load_only_events_per_s']:,} events/s",
            f"{rebuild['load_only_s']:.3f} s",
        ),
        _row(
            "limit: sqlite3 SELECT + orjson.loads",
            f"{rebuild['limit_events_per_s']:,} events/s",
            f"{rebuild['limit_s']:.3f} s",
        ),
        _row(
            "ratio rebuild / limit (median of the rounds)",
            f"{rebuild['ratio']:.3f}",
            "reported",
        ),
        "",
        f"(c) state on demand, one match of {demand['events']} events "
        f"(median of {demand['repeat']})",
        _row("raw read: sqlite3 SELECT + orjson.loads", f"{demand['raw_read_ms']:.2f} ms", ""),
        _row("fold alone (events in memory)", f"{demand['fold_in_memory_ms']:.2f} ms", ""),
        _row(
            "match_state: read and folded",
            f"{demand['state_ms']:.2f} ms",
            f"{demand['state_vs_raw']}x raw",
        ),
    ]
    lines += ["", *recording_table(results["recording"], _row)]
    lines += ["", *archive_table(results["archive_pages"], _row)]
    return "\n".join(lines)


def _row(label: str, value: str, note: str) -> str:
    return f"  {label:<42}{value:>20}   {note}".rstrip()


# -- Plumbing ----------------------------------------------------------------------------------


def _timed(case: Callable[[], Any]) -> tuple[float, Any]:
    gc.collect()
    started = time.perf_counter()
    value = case()
    return time.perf_counter() - started, value


def _progress(
    items: Iterable[Any], what: str, unit: str, options: Options, log: TextIO, total: int
) -> Iterable[Any]:
    return tqdm(items, desc=what, unit=unit, total=total, disable=not options.progress, file=log)


def _remove(directory: Path) -> None:
    for child in directory.iterdir():
        child.unlink()
    directory.rmdir()
