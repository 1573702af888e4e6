"""Recording a shot through the API, beside the raw insert of one row into the same database.

The request goes through the whole stack in this process (middleware, DRF, the token,
the service's fold and the append, the commit), without sockets; the baseline is one
`INSERT` and its commit with `sqlite3`, on the same file, in the same run.
"""

from __future__ import annotations

import gc
import sqlite3
import statistics
import time
from pathlib import Path
from typing import Any

from django.test import Client

from matches import services
from replay.api.tokens import token_issue

QUIET = {"contacts": [{"ball": "white", "hit": "yellow"}]}  # legal for either player
PLAYERS = {"A": {"name": "Bench A"}, "B": {"name": "Bench B"}}


def measure_recording(path: Path, shots: int) -> dict[str, Any]:
    """Time `shots` shots recorded through the API, and as many raw one-row inserts."""
    token = _opened_match("bench-recording")
    client = Client(HTTP_AUTHORIZATION=f"Token {token}")
    api, raw = [], []
    seq = 3
    with sqlite3.connect(path, isolation_level=None) as connection:
        connection.execute("PRAGMA synchronous=NORMAL")
        connection.execute(
            "CREATE TABLE IF NOT EXISTS bench_row (id INTEGER PRIMARY KEY, data TEXT)"
        )
        gc.collect()
        for _ in range(shots):
            # Interleaved, so both sides see the same machine at the same moment.
            started = time.perf_counter()
            response = client.post(
                "/api/matches/bench-recording/events",
                {"expected_seq": seq, "event": {"type": "shot", **QUIET}},
                content_type="application/json",
                secure=True,
            )
            api.append(time.perf_counter() - started)
            if response.status_code != 201:
                raise RuntimeError(
                    f"recording answered {response.status_code}: {response.content!r}"
                )
            seq += 1
            started = time.perf_counter()
            connection.execute("BEGIN IMMEDIATE")
            connection.execute("INSERT INTO bench_row (data) VALUES (?)", ['{"type": "shot"}'])
            connection.execute("COMMIT")
            raw.append(time.perf_counter() - started)
    return {
        "shots": shots,
        "api_p50_ms": _ms(statistics.median(api)),
        "api_p99_ms": _ms(_p99(api)),
        "raw_p50_ms": _ms(statistics.median(raw)),
        "raw_p99_ms": _ms(_p99(raw)),
        "p50_ratio": round(statistics.median(api) / statistics.median(raw), 1),
    }


def _opened_match(match_id: str) -> str:
    """Create a match ready for shots, assigned to a referee; return the referee's token."""
    services.competition_create(id="bench-live", name="Bench")
    services.match_create(competition="bench-live", id=match_id, players=PLAYERS)
    by = "bench-referee"
    issued = token_issue(by)
    services.referee_assign(match_id=match_id, username=by, by="bench")
    services.lag_record(
        match_id=match_id, expected_seq=0, by=by, a={"distance": 90}, b={"distance": 150}
    )
    services.game_start(match_id=match_id, expected_seq=1, by=by, game=1, breaker="A")
    services.ball_place(
        match_id=match_id, expected_seq=2, by=by, ball="white", pos=[700, 400], reason="break"
    )
    return issued.key


def _p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 2)
