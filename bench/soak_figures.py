"""The soak's figures and verdict, from what the store, the servers and the viewers hold.

Pure: the run (`bench.soak`) reads the store, the cold read and the viewers' reports,
and these functions judge them. A board must show its match's last seq, having been
sent no event twice nor one past the next; a hall's last snapshot (the last whole hall,
each changed card applied on top) must equal a cold read, its clock `now` left out; no
card's seq and no version may go back. The stall is the longest any viewer went
without news of a match it watches while shots were recorded, leaving out each restart
from its start until its recovery time after it ended.
"""

from __future__ import annotations

import bisect
from collections import Counter
from typing import Any


def without_clock(hall: dict[str, Any]) -> dict[str, Any]:
    """Return a hall without its read's own clock (`now`), which no two reads share."""
    return {key: value for key, value in hall.items() if key != "now"}


def caught_up(
    reports: list[dict[str, Any]], heads: dict[str, int], cold: dict[int, dict[str, Any]]
) -> bool:
    """Return whether every board shows its match's last seq, and every hall what a cold read
    of its server's answers (`cold`, by server)."""
    return all(
        report["last"] == heads[report["match"]]
        if report["kind"] == "board"
        else like_cold_read(report, cold)
        for report in reports
    )


def like_cold_read(report: dict[str, Any], cold: dict[int, dict[str, Any]]) -> bool:
    """Return whether a hall's last snapshot is its server's cold read, but for the clock."""
    return report["hall"] is not None and without_clock(report["hall"]) == cold[report["server"]]


def viewer_figures(
    reports: list[dict[str, Any]], heads: dict[str, int], cold: dict[int, dict[str, Any]]
) -> dict[str, Any]:
    """Return what the viewers saw: each board's events beside the store, each hall's last
    snapshot beside the cold read, what went back, and how often they reconnected."""
    boards = [report for report in reports if report["kind"] == "board"]
    halls = [report for report in reports if report["kind"] == "hall"]
    return {
        "boards": len(boards),
        "matches": len({report["match"] for report in boards}),
        "halls": len(halls),
        "reconnects": sum(report["connections"] - 1 for report in reports),
        "closes": dict(Counter(str(code) for report in reports for code in report["closes"])),
        "lost": sum(heads[report["match"]] - report["last"] for report in boards),
        "doubled": sum(report["doubled"] for report in boards),
        "skipped": sum(report["skipped"] for report in boards),
        "resumes": sum(report["resumes"] for report in boards),
        "halls_unlike_cold_read": sum(not like_cold_read(report, cold) for report in halls),
        "backwards": sum(report["backwards"] for report in halls),
        "hall_versions": any(report["version"] is not None for report in halls),
    }


# -- The stall ---------------------------------------------------------------------------------


def longest_quiet(
    moments: list[float], start: float, end: float, away: list[tuple[float, float]]
) -> float:
    """Return the longest stretch from `start` to `end` with none of `moments` in it,
    leaving out the time within `away` (a stretch cut by one counts as its pieces)."""
    points = [start, *sorted(m for m in moments if start < m < end), end]
    longest = 0.0
    for a, b in zip(points, points[1:], strict=False):
        at = a
        for low, high in sorted(away):
            if high <= at or low >= b:
                continue
            longest = max(longest, low - at)
            at = max(at, high)
            if at >= b:
                break
        longest = max(longest, b - at)
    return longest


def restart_spans(restarts: list[dict[str, Any]], recovery_s: float) -> list[tuple[float, float]]:
    """Return each restart's time: from its start until `recovery_s` after it ended."""
    return [
        (restart["at_s"], restart["at_s"] + restart["took_s"] + recovery_s) for restart in restarts
    ]


def stall_figures(
    reports: list[dict[str, Any]],
    began: float,
    ended: float,
    away: list[tuple[float, float]],
    limit_s: float,
) -> dict[str, Any]:
    """Return the longest any viewer went without news of a match it watches while shots
    were recorded, outside the restarts' time (`away`), and where."""
    longest, where = 0.0, ""
    for report in reports:
        for match, receipts in report["receipts"].items():
            quiet = longest_quiet([moment for _, moment in receipts], began, ended, away)
            if quiet > longest:
                longest = quiet
                where = f"a {report['kind']} on server {report['server'] + 1}, match {match}"
    return {"longest_s": round(longest, 2), "where": where, "limit_s": limit_s}


def lateness_figures(
    reports: list[dict[str, Any]],
    answered: dict[str, dict[int, float]],
    began: float,
    away: list[tuple[float, float]],
    limit_s: float,
) -> dict[str, Any]:
    """Return the longest from a shot's answer to its referee until a viewer showed it (or a
    later one), over the shots recorded from `began`, leaving out those whose wait crossed
    a restart's time (`away`), and where."""
    latest, where = 0.0, ""
    for report in reports:
        for match, receipts in report["receipts"].items():
            seqs = [seq for seq, _ in receipts]
            for seq, answer in answered.get(match, {}).items():
                shown = bisect.bisect_left(seqs, seq)
                if answer < began or shown == len(seqs):
                    continue  # before the run, or never shown: counted as lost instead
                moment = receipts[shown][1]
                if any(low < moment and answer < high for low, high in away):
                    continue
                if moment - answer > latest:
                    latest = moment - answer
                    where = f"a {report['kind']} on server {report['server'] + 1}, {match} {seq}"
    return {"longest_s": round(latest, 2), "where": where, "limit_s": limit_s}


def exceptions_logged(log: str) -> dict[str, int]:
    """Return how many tracebacks a log holds, by the exception that ends each."""
    counted: Counter[str] = Counter()
    lines = log.splitlines()
    for number, line in enumerate(lines):
        if line.startswith("Traceback (most recent call last):"):
            ending = next((end for end in lines[number + 1 :] if end[:1] not in ("", " ")), "")
            counted[ending.split(":", 1)[0]] += 1
    return dict(counted)


def faults(figures: dict[str, Any]) -> int:
    """Return what was lost, doubled, refused or gone back, in the store or at a viewer."""
    viewers, recorded = figures["viewers"], figures["recorded"]
    counted = sum(figures["stored"].values()) + recorded["refused"] + recorded["unanswered"]
    counted += sum(viewers[k] for k in ("lost", "doubled", "skipped", "halls_unlike_cold_read"))
    return int(counted + viewers["backwards"])


def passed(figures: dict[str, Any]) -> bool:
    """Return whether the soak held: no fault, every viewer caught up, neither a stall nor a
    shot shown late over its limit."""
    stall, late = figures["stall"], figures["late"]
    return (
        figures["faults"] == 0
        and figures["caught_up_s"] is not None
        and stall["longest_s"] <= stall["limit_s"]
        and late["longest_s"] <= late["limit_s"]
    )


# -- The table ---------------------------------------------------------------------------------


def table(soak: dict[str, Any]) -> list[str]:
    """Return the soak's figures as the bench's table prints them."""
    options, recorded, viewers = soak["options"], soak["recorded"], soak["viewers"]
    stall, late, stored = soak["stall"], soak["late"], soak["stored"]
    restarts = ", ".join(
        f"{restart['what']} {restart['at_s']:.0f} s in (down {restart['took_s']:.1f} s)"
        for restart in soak["restarts"]
    )
    closes = ", ".join(f"{code} x{count}" for code, count in sorted(viewers["closes"].items()))
    caught_up = (
        f"in {soak['caught_up_s']:.1f} s" if soak["caught_up_s"] is not None else "NOT CAUGHT UP"
    )
    return [
        f"(s) the soak: the hall of {options['tables']} tables and {viewers['matches']} boards "
        f"over Redis, {soak['servers']} uvicorn, {soak['database']}, {soak['minutes']:g} min; "
        f"restarted: {restarts}",
        f"  shots recorded {recorded['events']}, resent {recorded['resent']} (answered from "
        f"the record {recorded['replayed']}), refused {recorded['refused']}, unanswered "
        f"{recorded['unanswered']}; store lost, doubled, out of order: {sum(stored.values())}",
        f"  viewers {viewers['boards']} boards and {viewers['halls']} halls, reconnects "
        f"{viewers['reconnects']} (closes by code: {closes or 'none'}); caught up {caught_up} "
        "after the last shot",
        f"  boards: lost {viewers['lost']}, doubled {viewers['doubled']}, skipped "
        f"{viewers['skipped']} (resumes asked {viewers['resumes']})",
        f"  halls: unlike a cold read {viewers['halls_unlike_cold_read']}, gone back "
        f"{viewers['backwards']} (cards' seqs"
        + (", the hall's version)" if viewers["hall_versions"] else "; no version sent)"),
        f"  outside each restart until {soak['recovery_s']:.0f} s after it: longest stall "
        f"{stall['longest_s']:.1f} s ({stall['where'] or 'none'}; limit {stall['limit_s']:.1f} s)",
        f"    a shot shown at most {late['longest_s']:.2f} s after its answer "
        f"({late['where'] or 'none'}; limit {late['limit_s']:.1f} s)",
        f"  worker alive {'yes' if soak['worker_alive'] else 'NO'}; the servers logged "
        + (
            ", ".join(f"{name} {count}" for name, count in soak["exceptions"].items())
            or "no traceback"
        ),
        f"  verdict {'PASS' if soak['passed'] else 'FAIL'}",
    ]
