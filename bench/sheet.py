"""The match sheet of a long match: drawn on the first GET, served from the read cache after.

A legal match of about 3,600 events (best of 15 to 500) is imported, and its sheet asked
for through the whole stack (`GET /matches/{id}/sheet.pdf`, in-process): the first GET
draws it (at most `SHEET_PAGES` pages), each next one is served from the read cache;
the read cache is emptied between the first GETs timed. Reported, no target: the ratio
first / cached says what the cache saves each anonymous reader.
"""

from __future__ import annotations

import gc
import re
import statistics
import time
from collections.abc import Callable
from typing import Any

from django.core.cache import caches
from django.test import Client

from matches.records import record_import
from matches.simulator import simulate_match
from replay.presentation.sheet_pdf import SHEET_PAGES
from replay.queries.read_cache import READS

LONG_SHEET = {"best_of": 15, "target": 500}  # seed 3: 3,587 events, a sheet of 59 pages uncut
SHORT_SHEET = {"best_of": 5, "target": 100}  # the quick run's


def measure_sheet(repeat: int = 5, quick: bool = False) -> dict[str, Any]:
    """Import one long match and time its sheet drawn and served from the read cache."""
    record = simulate_match(
        3,
        match_id="bench-sheet",
        competition="bench-sheet",
        ruleset=SHORT_SHEET if quick else LONG_SHEET,
        forfeit_rate=0.0,
        amend_rate=0.02,
    )
    record_import(record, by="bench")
    client = Client()
    path = "/matches/bench-sheet/sheet.pdf?lang=en"

    def get() -> bytes:
        answer = client.get(path, secure=True)
        if answer.status_code != 200:
            raise RuntimeError(f"the sheet answered {answer.status_code}")
        return answer.content

    def drawn() -> bytes:
        caches[READS].clear()
        return get()

    pdf = drawn()
    first = [_timed(drawn) for _ in range(repeat)]
    cached = [_timed(get) for _ in range(repeat * 10)]
    first_ms, cached_ms = statistics.median(first) * 1000, statistics.median(cached) * 1000
    return {
        "events": len(record["events"]),
        "pages": len(re.findall(rb"/Type /Page\b", pdf)),
        "page_limit": SHEET_PAGES,
        "first_ms": round(first_ms, 1),
        "cached_ms": round(cached_ms, 2),
        "ratio_first_to_cached": round(first_ms / cached_ms, 1),
    }


def table(results: dict[str, Any], row: Callable[[str, str, str], str]) -> list[str]:
    """Return the lines `make bench` prints for the match sheet."""
    return [
        f"(m) the match sheet of one match of {results['events']:,} events "
        f"({results['pages']} pages, at most {results['page_limit']})",
        row("first GET: drawn", f"{results['first_ms']:.1f} ms", ""),
        row("next GETs: from the read cache", f"{results['cached_ms']:.2f} ms", ""),
        row("ratio first / cached", f"{results['ratio_first_to_cached']}", "reported"),
    ]


def _timed(case: Callable[[], Any]) -> float:
    gc.collect()
    started = time.perf_counter()
    case()
    return time.perf_counter() - started
