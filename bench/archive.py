"""The archive's pages and the replay's data, beside the raw queries they need.

An archive of 10,000 matches is laid out as summary rows (bulk-created: the bench
measures reading the archive, not the projector that keeps it), then the archive's
first page and a filtered search are timed through the whole stack, through the ORM
alone, and as the bare SQL with `sqlite3`; the replay page's data for one long match
beside reading and parsing its event rows raw. Each pair is reported as a ratio.
"""

from __future__ import annotations

import gc
import random
import sqlite3
import statistics
import time
from collections.abc import Callable
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import orjson
from django.test import Client

from matches.models import Competition, Match, Player
from matches.store import EVENTS_TABLE
from replay.models import MatchSummary
from replay.projections.timeline import match_timeline
from replay.queries.search import Search, page_of

ARCHIVE_MATCHES = 10_000
COMPETITIONS = 20
PLAYERS = 120
FIRST_DAY = date(2020, 1, 1)
SUMMARY = MatchSummary._meta.db_table
# The first page, as the archive asks for it: the newest 51 rows (50 and whether more follow).
FIRST_PAGE_SQL = f"""
SELECT s.*, c.name, a.federation_id, b.federation_id FROM {SUMMARY} s
JOIN matches_competition c ON c.id = s.competition_id
JOIN matches_player a ON a.id = s.player_a_id JOIN matches_player b ON b.id = s.player_b_id
ORDER BY s.date DESC, s.match_id DESC LIMIT 51
"""
FILTERED_SQL = f"""
SELECT s.*, c.name, a.federation_id, b.federation_id FROM {SUMMARY} s
JOIN matches_competition c ON c.id = s.competition_id
JOIN matches_player a ON a.id = s.player_a_id JOIN matches_player b ON b.id = s.player_b_id
WHERE (s.player_a_id = ? OR s.player_b_id = ?) AND s.date >= ? AND s.date <= ?
AND s.status = 'finished'
ORDER BY s.date DESC, s.match_id DESC LIMIT 51
"""
PLAYER_SQL = "SELECT id FROM matches_player WHERE federation_id = ?"
# The raw read beside the store's: the table's name from the store, the read sqlite3's own.
EVENTS_SQL = (
    f"SELECT seq, data, at, recorded_by FROM {EVENTS_TABLE} WHERE match_id = ? ORDER BY seq"
)


def lay_out_archive(count: int = ARCHIVE_MATCHES, seed: int = 1) -> dict[str, Any]:
    """Bulk-create `count` matches and their summaries over competitions and players."""
    rng = random.Random(seed)
    competitions = Competition.objects.bulk_create(
        Competition(id=f"archive-{n:02d}", name=f"Archive cup {n}") for n in range(COMPETITIONS)
    )
    players = Player.objects.bulk_create(
        Player(name=f"Player {n:03d}", federation_id=f"AR-{n:04d}") for n in range(PLAYERS)
    )
    matches, summaries = [], []
    for n in range(count):
        a, b = rng.sample(players, 2)
        played = FIRST_DAY + timedelta(days=n * 2000 // count)
        match = Match(
            id=f"archive-{n:05d}",
            competition=competitions[n % COMPETITIONS],
            date=played,
            player_a=a,
            player_b=b,
            players={"A": a.as_record(), "B": b.as_record()},
            ruleset={},
            status="finished",
        )
        matches.append(match)
        winner = rng.choice("AB")
        summaries.append(
            MatchSummary(
                match=match,
                competition=match.competition,
                player_a=a,
                player_b=b,
                player_a_name=a.name,
                player_b_name=b.name,
                date=played,
                status="finished" if n % 10 else "playing",
                games_won_a=2 if winner == "A" else 1,
                games_won_b=2 if winner == "B" else 1,
                points_a=rng.randint(60, 180),
                points_b=rng.randint(60, 180),
                average_a=round(rng.uniform(0.8, 3.5), 3),
                average_b=round(rng.uniform(0.8, 3.5), 3),
                winner=winner if n % 10 else "",
                seq=100,
            )
        )
    Match.objects.bulk_create(matches, batch_size=1000)
    MatchSummary.objects.bulk_create(summaries, batch_size=1000)
    return {"matches": count, "competitions": COMPETITIONS, "players": PLAYERS}


def measure_archive(
    path: Path, long_match: str, repeat: int = 25, matches: int = ARCHIVE_MATCHES
) -> dict[str, Any]:
    """Time the archive's first page and a filtered search, and one replay's data."""
    layout = lay_out_archive(matches)
    client = Client()
    player = "AR-0007"
    player_id = Player.objects.get(federation_id=player).pk
    start, end = "2021-01-01", "2023-12-31"
    filtered = {"player": player, "date_from": start, "date_to": end, "result": "finished"}
    search = Search(
        player=player, date_from=date(2021, 1, 1), date_to=date(2023, 12, 31), result="finished"
    )
    match = Match.objects.get(pk=long_match)

    def page(url: str, query: dict[str, str] | None = None) -> Callable[[], Any]:
        def get() -> None:
            response = client.get(url, query or {}, secure=True)
            if response.status_code != 200:
                raise RuntimeError(f"{url} answered {response.status_code}")

        return get

    with sqlite3.connect(path) as raw:

        def raw_filtered() -> list[Any]:
            (found,) = raw.execute(PLAYER_SQL, (player,)).fetchone()
            return raw.execute(FILTERED_SQL, (found, found, start, end)).fetchall()

        def raw_events() -> list[Any]:
            rows = raw.execute(EVENTS_SQL, (long_match,)).fetchall()
            return [orjson.loads(row[1]) for row in rows]

        cases: dict[str, Callable[[], Any]] = {
            "first_page_view": page("/archive/"),
            "first_page_orm": lambda: page_of(Search()),
            "first_page_raw": lambda: raw.execute(FIRST_PAGE_SQL).fetchall(),
            "filtered_view": page("/archive/", filtered),
            "filtered_orm": lambda: page_of(search),
            "filtered_raw": raw_filtered,
            "replay_view": page(f"/matches/{long_match}/replay/"),
            "replay_data": lambda: match_timeline(match),
            "replay_raw": raw_events,
        }
        rows = len(raw_filtered())
        for case in cases.values():
            case()  # warm-up: imports, template loading, the memo of rulings
        timings: dict[str, list[float]] = {name: [] for name in cases}
        for _ in range(repeat):
            for name, case in cases.items():
                gc.collect()
                started = time.perf_counter()
                case()
                timings[name].append(time.perf_counter() - started)
        plan = [row[-1] for row in raw.execute("EXPLAIN QUERY PLAN " + FIRST_PAGE_SQL)]
    ms = {name: round(statistics.median(t) * 1000, 3) for name, t in timings.items()}
    return {
        **layout,
        "repeat": repeat,
        "filtered_rows": rows,
        "player_id": player_id,
        "replay_events": match.events.count(),
        **{f"{name}_ms": value for name, value in ms.items()},
        "first_page_view_vs_raw": round(ms["first_page_view"] / ms["first_page_raw"], 1),
        "first_page_orm_vs_raw": round(ms["first_page_orm"] / ms["first_page_raw"], 1),
        "filtered_view_vs_raw": round(ms["filtered_view"] / ms["filtered_raw"], 1),
        "filtered_orm_vs_raw": round(ms["filtered_orm"] / ms["filtered_raw"], 1),
        "replay_data_vs_raw": round(ms["replay_data"] / ms["replay_raw"], 1),
        "replay_view_vs_raw": round(ms["replay_view"] / ms["replay_raw"], 1),
        "first_page_plan": plan,
        # Each round's pair, for the bench's reported figures (a median of many).
        "samples": {
            name: [a / b for a, b in zip(timings[top], timings[bottom], strict=True)]
            for name, top, bottom in (
                ("first_page_orm_vs_raw", "first_page_orm", "first_page_raw"),
                ("replay_data_vs_raw", "replay_data", "replay_raw"),
            )
        },
    }


def table(result: dict[str, Any], row: Callable[[str, str, str], str]) -> list[str]:
    """Return the lines of the archive's part of the bench table."""
    return [
        f"(e) the archive: {result['matches']:,} match summaries; the replay of one match of "
        f"{result['replay_events']} events (median of {result['repeat']})",
        row(
            "first page: GET /archive/",
            f"{result['first_page_view_ms']:.2f} ms",
            f"{result['first_page_view_vs_raw']}x raw",
        ),
        row(
            "  its rows: page_of (ORM)",
            f"{result['first_page_orm_ms']:.2f} ms",
            f"{result['first_page_orm_vs_raw']}x raw",
        ),
        row("  raw: sqlite3 SELECT ... LIMIT 51", f"{result['first_page_raw_ms']:.2f} ms", ""),
        row(
            "filtered: player, dates, finished",
            f"{result['filtered_view_ms']:.2f} ms",
            f"{result['filtered_view_vs_raw']}x raw ({result['filtered_rows']} rows)",
        ),
        row(
            "  its rows: page_of (ORM)",
            f"{result['filtered_orm_ms']:.2f} ms",
            f"{result['filtered_orm_vs_raw']}x raw",
        ),
        row("  raw: player lookup + SELECT", f"{result['filtered_raw_ms']:.2f} ms", ""),
        row(
            "replay page: GET /matches/ID/replay/",
            f"{result['replay_view_ms']:.2f} ms",
            f"{result['replay_view_vs_raw']}x raw",
        ),
        row(
            "  its data: match_timeline (one fold)",
            f"{result['replay_data_ms']:.2f} ms",
            f"{result['replay_data_vs_raw']}x raw",
        ),
        row("  raw: sqlite3 SELECT + orjson.loads", f"{result['replay_raw_ms']:.2f} ms", ""),
    ]
