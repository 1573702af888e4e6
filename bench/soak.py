"""The soak: the hall and match boards over Redis for twenty minutes, through two restarts.

Served as the venue on PostgreSQL is (`bench.venue`): two uvicorn processes sharing a
redis-server of the bench's own, the database `DATABASE_URL` names (a throwaway one
beside it; a SQLite file without it) and a Celery worker with its beat. A competition
has a few tables, a match under way at each, and a match of another competition is
under way too (its notices poke no hall: the stall seen once over Redis was a board's
notice left unread while a hall's socket waited on the layer). Each match's referee
records a shot every `pace_s` through `POST /api/matches/{id}/events` on one server or
the other, resending with the same `Idempotency-Key` until it is answered. Viewers of
the hall and of every board, on both servers, in a process of their own
(`bench.soak_viewers`), follow their sockets as the pages do. A third of the way
through, Redis is stopped and started again on its port; two thirds of the way, one
server process is.

Once the shots stop and every viewer has caught up (or a restart's recovery time and
CATCH_UP_MARGIN_S passed): every board has every event of its match once and in order
(the store's), every hall's last snapshot equals a cold read of its server (`GET
/api/competitions/{id}/tables`, its clock `now` left out), and no viewer saw a card's
seq, or a version, go back. Outside each restart (from its start until its recovery time
after it ended: a page's longest wait before it reconnects, and the servers'
LIVE_HEAD_SECONDS), no viewer may show a shot more than a pace after its referee was
answered, nor stall: go more than STALL_PACES paces without news of a match it watches
(a board's next event, a hall card's next seq). The reconnects are counted beside.

Its parts: `soak_referees` record, `soak_viewers` watch as the pages do,
`soak_processes` starts, stops and restarts the servers, the worker and the viewers'
process, and `soak_figures` judges what they all hold at the end.
"""

from __future__ import annotations

import http.client
import json
import shutil
import sys
import threading
import time
from contextlib import ExitStack
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from typing import Any, TextIO

from bench import processes
from bench.fanout import OPENED_SEQ, open_matches
from bench.processes import free_port
from bench.soak_figures import (
    caught_up,
    exceptions_logged,
    faults,
    lateness_figures,
    passed,
    restart_spans,
    stall_figures,
    viewer_figures,
    without_clock,
)
from bench.soak_processes import Pages, Restartable, restartable, uvicorn_serving, viewers, worker
from bench.soak_referees import ANSWER_TIMEOUT_S, Referee, recorded_figures
from bench.soak_viewers import LONGEST_DELAY_S
from bench.venue import referees_assigned, throwaway_database
from bench.viewers import clock
from matches import services
from matches.models import Event

COMPETITION = "soak"
ELSEWHERE = "soak-elsewhere"  # a competition with no hall watched
STALL_PACES = 2.5  # the longest a viewer may go without news of a match, in its referee's paces
REPORT_EVERY_S = 1.0  # while waiting for the viewers to catch up
CATCH_UP_MARGIN_S = 10.0  # the viewers may take a restart's recovery time and this much more


@dataclass(frozen=True)
class SoakOptions:
    minutes: float = 20.0  # of shots recorded
    tables: int = 4  # a match under way at each
    # Matches of another competition, their boards alone watched: their notices are not
    # hall pokes, so a server's layer may wait on a hall's socket while only they change.
    elsewhere: int = 1
    pace_s: float = 2.0  # between two shots of one referee
    board_viewers: int = 3  # of each match, on each server
    hall_viewers: int = 8  # on each server
    outage_s: float = 10.0  # Redis stays down this long (at most a sixth of the run)
    head_seconds: int = 15  # the servers' LIVE_HEAD_SECONDS (production's)
    database_url: str | None = None  # PostgreSQL's; None: a SQLite file


def recovery_s(options: SoakOptions) -> float:
    """Return how long after a restart a viewer may still be catching up: a page's longest
    wait before it reconnects, and a server's clock (its reads every LIVE_HEAD_SECONDS)."""
    return LONGEST_DELAY_S + options.head_seconds


# -- The run -----------------------------------------------------------------------------------


def run_soak(options: SoakOptions, log: TextIO = sys.stderr) -> dict[str, Any]:
    """Serve, record, watch and restart for `minutes`; return the figures and the verdict."""
    binary = shutil.which("redis-server")
    if binary is None:
        raise RuntimeError("the soak needs redis-server on the PATH")
    with ExitStack() as stack:
        database_url, vendor = throwaway_database(stack, options.database_url)
        redis_port = free_port()
        redis = stack.enter_context(
            restartable("redis-server", processes.redis_server_command(binary, redis_port), {})
        )
        redis_url = f"redis://127.0.0.1:{redis_port}/0"
        matches = _competition(options.tables) + open_matches(
            "elsewhere", options.elsewhere, ELSEWHERE
        )
        keys = referees_assigned(matches)
        environ = processes.served_environ(
            database_url,
            redis_url,
            LOG_LEVEL="WARNING",
            LIVE_HEAD_SECONDS=str(options.head_seconds),
        )
        servers = [
            stack.enter_context(restartable("uvicorn", uvicorn_serving(), environ)) for _ in (1, 2)
        ]
        celery = stack.enter_context(worker(environ))
        referees = [
            Referee(match, key, servers[number % len(servers)].port)
            for number, (match, key) in enumerate(zip(matches, keys, strict=True))
        ]
        for referee in referees:
            referee.warm()
        after = {referee.match: referee.seq for referee in referees}
        order = _order([server.port for server in servers], after, options)
        print(
            f"soak: {len(order['boards'])} board and {len(order['halls'])} hall viewers, "
            f"{len(referees)} referees, {options.minutes:g} min ({vendor})",
            file=log,
        )
        pages = stack.enter_context(viewers(order))
        began, ended, restarts = _recorded(referees, redis, servers[1], options, log)
        print("soak: the shots stopped; waiting for every viewer to catch up", file=log)
        heads = stored_heads(matches)
        caught_up_s, reports, cold = _caught_up(pages, servers, heads, options)
        away = restart_spans(restarts, recovery_s(options))
        answered = {referee.match: referee.answered for referee in referees}
        figures = {
            "when": datetime.now(UTC).isoformat(timespec="seconds"),
            "database": vendor,
            "servers": len(servers),
            "options": asdict(options) | {"database_url": bool(options.database_url)},
            "minutes": round((ended - began) / 60, 2),
            "recorded": recorded_figures(referees),
            "stored": stored_faults(matches, referees),
            "restarts": [
                restart | {"at_s": round(restart["at_s"] - began, 1)} for restart in restarts
            ],
            "caught_up_s": caught_up_s,
            "viewers": viewer_figures(reports, heads, cold),
            "recovery_s": recovery_s(options),
            "stall": stall_figures(reports, began, ended, away, STALL_PACES * options.pace_s),
            "late": lateness_figures(reports, answered, began, away, options.pace_s),
            "worker_alive": celery.poll() is None,
            "exceptions": exceptions_logged("".join(server.written() for server in servers)),
        }
    figures["faults"] = faults(figures)
    figures["passed"] = passed(figures)
    return figures


def _competition(tables: int) -> list[str]:
    """Open a match at each of a competition's tables; return the matches' ids."""
    matches = open_matches("soak", tables, COMPETITION)
    names = [str(number) for number in range(1, tables + 1)]
    services.tables_set(competition_id=COMPETITION, names=names, by="bench")
    for match_id, name in zip(matches, names, strict=True):
        services.match_assign_table(match_id=match_id, table=name, by="bench")
    return matches


def _order(ports: list[int], after: dict[str, int], options: SoakOptions) -> dict[str, Any]:
    """Return who watches what: each board from its match's seq `after`, and the hall, on
    every server."""
    servers = range(len(ports))
    return {
        "ports": ports,
        "boards": [
            {"server": server, "match": match, "after": seq}
            for server in servers
            for match, seq in after.items()
            for _ in range(options.board_viewers)
        ],
        "halls": [
            {"server": server, "competition": COMPETITION}
            for server in servers
            for _ in range(options.hall_viewers)
        ],
    }


def _recorded(
    referees: list[Referee],
    redis: Restartable,
    server: Restartable,
    options: SoakOptions,
    log: TextIO,
) -> tuple[float, float, list[dict[str, Any]]]:
    """Record from every referee for `minutes`, restarting Redis a third of the way through
    and the server two thirds; return when the shots began and ended, and the restarts."""
    seconds = options.minutes * 60
    began = clock() + 0.5
    threads = [
        threading.Thread(
            target=referee.record,
            args=(began + options.pace_s * number / len(referees), began + seconds, options.pace_s),
        )
        for number, referee in enumerate(referees)
    ]
    for thread in threads:
        thread.start()
    restarts = []
    for share, what, restarted, down_s in (
        (1 / 3, "redis", redis, min(options.outage_s, seconds / 6)),
        (2 / 3, "server", server, 0.0),
    ):
        time.sleep(max(began + seconds * share - clock(), 0))
        print(f"soak: restarting {what}", file=log)
        restarts.append({"what": what, **restarted.restart(down_s)})
    for thread in threads:
        thread.join()
    return began, clock(), restarts


def _caught_up(
    pages: Pages, servers: list[Restartable], heads: dict[str, int], options: SoakOptions
) -> tuple[float | None, list[dict[str, Any]], dict[int, dict[str, Any]]]:
    """Wait until every viewer shows what the store holds, at most a restart's recovery time
    and CATCH_UP_MARGIN_S; return how long it took (None: not within it), the viewers' last
    reports and each server's cold read."""
    started = clock()
    deadline = started + recovery_s(options) + CATCH_UP_MARGIN_S
    while True:
        reports = pages.report()
        cold = cold_reads(servers)
        if caught_up(reports, heads, cold):
            return round(clock() - started, 1), reports, cold
        if clock() > deadline:
            return None, reports, cold
        time.sleep(REPORT_EVERY_S)


# -- What the store, the servers and the viewers hold at the end ---------------------------------


def stored_heads(matches: list[str]) -> dict[str, int]:
    """Return each match's last seq in the store."""
    return {
        match: Event.objects.filter(match_id=match)
        .order_by("-seq")
        .values_list("seq", flat=True)[0]
        for match in matches
    }


def stored_faults(matches: list[str], referees: list[Referee]) -> dict[str, int]:
    """Check the store: every match's log is 1..n, one event for each shot answered 201."""
    recorded = {referee.match: referee.recorded for referee in referees}
    lost = doubled = gaps = 0
    for match in matches:
        seqs = list(
            Event.objects.filter(match_id=match).order_by("id").values_list("seq", flat=True)
        )
        gaps += seqs != list(range(1, len(seqs) + 1))
        lost += max(OPENED_SEQ + recorded[match] - len(seqs), 0)
        doubled += max(len(seqs) - OPENED_SEQ - recorded[match], 0)
    return {"lost": lost, "doubled": doubled, "out_of_order": gaps}


def cold_reads(servers: list[Restartable]) -> dict[int, dict[str, Any]]:
    """Return the hall as `GET /api/competitions/{id}/tables` answers it on each server (by
    its index), its clock left out."""
    reads = {}
    for number, server in enumerate(servers):
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=ANSWER_TIMEOUT_S)
        connection.request("GET", f"/api/competitions/{COMPETITION}/tables")
        answer = connection.getresponse()
        body = answer.read()
        connection.close()
        if answer.status != 200:
            raise RuntimeError(f"GET the hall answered {answer.status} on port {server.port}")
        reads[number] = without_clock(json.loads(body))
    return reads
