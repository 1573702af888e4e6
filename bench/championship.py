"""A championship in stages after one group match ends: the projector against a full recompute.

64 players are entered with their seeds in a championship of 8 groups of 8 (best of 3
to 100) and a knockout of 16 (best of 5 to 120), in a throwaway SQLite database. The
groups are drawn and their 224 matches simulated and projected, all but a few held one
shot short of their end. Then, one after another, each held match ends, and we time:

- incremental: `projector.catch_up()` after the ending shot (the match folded on from
  its summary, its group's table, the bracket's slots and the ranking written with the
  cursor);
- fold one: the ended match alone folded from its stored events;
- full: every match of the championship folded from its events and its stages, slots
  and ranking worked out again, as a recompute without read models must
  (`championship_at`).

The target: incremental at most 10 times folding the one ended match (reported beside 5
times, the target before). Then the knockout
is drawn and played round by round, each round's matches made by the projector, and
the same three are timed after each knockout match that ends (reported, no target).
"""

from __future__ import annotations

import gc
import statistics
import tempfile
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from django.core.cache import caches
from tqdm import tqdm

from bench.amendment import unannounced
from bench.database import throwaway_sqlite
from matches import services, store
from matches.domain.fold import state_after
from matches.domain.simulator import simulate_match
from matches.models import Competition, Match
from matches.records import record_import
from matches.services.championships import championship_at
from replay.projections import projector
from replay.queries.championships import stages_get
from replay.queries.previews import preview
from replay.queries.read_cache import READS

TARGET = 10.0  # incremental / folding the ended match
EARLIER_TARGET = 5.0  # the target before: reported beside it
COMPETITION = "bench-championship"
BY = "bench"
RULESET = {"target": 100, "best_of": 3}
STAGES = [
    {"id": "groups", "kind": "groups", "groups": 8, "advance": 2},
    {
        "id": "ko",
        "kind": "knockout",
        "from": "groups",
        "ruleset": {"target": 120, "best_of": 5},
    },
]
NO_ACCIDENTS = {"forfeit_rate": 0.0, "amend_rate": 0.0, "retract_rate": 0.0}


@dataclass(frozen=True)
class ChampionshipOptions:
    players: int = 64
    groups: int = 8
    rounds: int = 7  # group matches ended one by one and timed (after one untimed)
    seed: int = 1
    progress: bool = True


def run_championship(options: ChampionshipOptions, log: TextIO) -> dict[str, Any]:
    """Build and simulate the championship, then time the three paths after matches end."""
    directory = Path(tempfile.mkdtemp(prefix="carambole-bench-championship-"))
    try:
        with throwaway_sqlite(directory / "championship.sqlite3"):
            return _run(options, log)
    finally:
        for child in directory.iterdir():
            child.unlink()
        directory.rmdir()


def _run(options: ChampionshipOptions, log: TextIO) -> dict[str, Any]:
    qualifiers = options.groups * STAGES[0]["advance"]
    stages = [{**STAGES[0], "groups": options.groups}, {**STAGES[1], "size": qualifiers}]
    services.competition_create(
        id=COMPETITION, name="Bench championship", ruleset=RULESET, stages=stages
    )
    for seed in range(1, options.players + 1):
        player = {"name": f"Player {seed:02d}", "federation_id": f"BC-{seed:03d}"}
        services.player_enter(competition_id=COMPETITION, player=player, seed=seed, by=BY)
    started = time.perf_counter()
    services.stage_draw(competition_id=COMPETITION, stage_id="groups", by=BY)
    groups = _matches("groups")
    held = {match.pk: simulated(match, options.seed + n) for n, match in enumerate(groups)}
    ended_later = [match.pk for match in groups[-(options.rounds + 1) :]]
    with unannounced():
        for match_id in _bar(held, "championship: simulate and import groups", options, log):
            record = held[match_id]
            if match_id in ended_later:
                record = {**record, "events": record["events"][:-1]}
            record_import(record, by=BY)
    imported = time.perf_counter() - started
    started = time.perf_counter()
    projector.catch_up()
    projected = time.perf_counter() - started
    events = store.log_head()

    gc.collect()
    gc.freeze()
    try:
        group_timings = _time_endings([held[pk] for pk in ended_later], warm_up=True)
        services.stage_draw(competition_id=COMPETITION, stage_id="ko", by=BY)
        knockout_timings = _play_knockout(qualifiers - 1, options, log)
        amended = _time_amendments(groups, options.rounds + 1)
        projector.catch_up()
        as_of = _time_as_of(events, options.rounds)
    finally:
        gc.unfreeze()
    final = Match.objects.filter(competition_id=COMPETITION, stage_id="ko")
    return {
        "players": options.players,
        "groups": options.groups,
        "group_matches": len(groups),
        "knockout_matches": final.count(),
        "events_before": events,
        "events": store.log_head(),
        "import_s": round(imported, 2),
        "first_projection_s": round(projected, 2),
        "rounds": options.rounds,
        **_summary("group", group_timings),
        **_summary("knockout", knockout_timings),
        **_amendment_summary(amended),
        **as_of,
        "target": TARGET,
        "meets_target": statistics.median(group_timings["ratio"]) <= TARGET,
        "amendment_meets_target": statistics.median(amended["ratio"]) <= TARGET,
        "samples": {
            "ended_vs_5_folds": [r / EARLIER_TARGET for r in group_timings["ratio"]],
            "amended_vs_5_folds": [r / EARLIER_TARGET for r in amended["ratio"]],
            "preview_vs_fold": amended["preview_ratio"],
        },
        "champion": _champion(),
    }


def _play_knockout(
    matches: int, options: ChampionshipOptions, log: TextIO
) -> dict[str, list[float]]:
    """Play the knockout round by round, each match's ending timed; the projector makes
    the next round's matches as their slots settle."""
    timings: dict[str, list[float]] = {"incremental": [], "fold_one": [], "full": [], "ratio": []}
    played: set[str] = set()
    with tqdm(
        total=matches,
        desc="championship: simulate and import the knockout",
        unit="match",
        disable=not options.progress,
        file=log,
    ) as bar:
        while waiting := [m for m in _matches("ko") if m.pk not in played]:
            for n, match in enumerate(waiting):
                record = simulated(match, options.seed + 1000 + len(played) + n)
                with unannounced():
                    record_import({**record, "events": record["events"][:-1]}, by=BY)
                projector.catch_up()
                for name, value in _time_endings([record]).items():
                    timings[name] += value
                played.add(match.pk)
                bar.update()
    return timings


def _time_endings(records: list[dict[str, Any]], warm_up: bool = False) -> dict[str, list[float]]:
    """End each held match with its last shot and time the three paths after it."""
    timings: dict[str, list[float]] = {"incremental": [], "fold_one": [], "full": [], "ratio": []}
    competition = Competition.objects.get(pk=COMPETITION)
    for n, record in enumerate(records):
        with unannounced():
            record_import(record, by=BY)
        match = Match.objects.get(pk=record["match"]["id"])
        incremental = _timed(projector.catch_up)
        fold_one = _timed(lambda match=match: state_after(match.header(), store.load_facts(match)))
        full = _timed(lambda: _full(competition))
        if warm_up and n == 0:
            continue  # the interpreter's warm-up and the memo of rulings
        timings["incremental"].append(incremental)
        timings["fold_one"].append(fold_one)
        timings["full"].append(full)
        timings["ratio"].append(incremental / fold_one)
    return timings


def _time_amendments(groups: list[Match], rounds: int) -> dict[str, list[float]]:
    """Amend the last counted shot of finished group matches into a miss, once the knockout
    is played (its matches begun: each amendment may dispute one), and time: the preview of
    its consequences, its recording (the write path carrying them through the draw, by
    staff), the projector's catch-up after it, and folding the amended match alone."""
    timings: dict[str, list[float]] = {
        "preview": [],
        "record": [],
        "incremental": [],
        "fold_one": [],
        "ratio": [],
        "preview_ratio": [],
    }
    for n, match in enumerate(groups[:rounds]):
        state = state_after(match.header(), store.load_facts(match))
        shot = next(s for s in reversed(state.shots) if not s["retracted"])
        own = match.header().ball_of(shot["player"])
        event = {
            "type": "shot_amended",
            "shot": shot["seq"],
            "facts": {"contacts": [{"ball": own, "hit": "cushion"}]},
            "reason": "bench: video review",
        }
        projector.catch_up()
        previewed = _timed(
            lambda m=match, e=event, s=state: preview(  # noqa: B023
                match_id=m.pk, expected_seq=s.seq, event=e
            )
        )
        recorded = _timed(lambda m=match, e=event, s=state: _record_as_staff(m, e, s.seq))
        incremental = _timed(projector.catch_up)
        fold_one = _timed(lambda m=match: state_after(m.header(), store.load_facts(m)))
        if n == 0:
            continue  # the interpreter's warm-up
        timings["preview"].append(previewed)
        timings["record"].append(recorded)
        timings["incremental"].append(incremental)
        timings["fold_one"].append(fold_one)
        timings["ratio"].append(incremental / fold_one)
        timings["preview_ratio"].append(previewed / fold_one)
    return timings


def _time_as_of(version: int, rounds: int) -> dict[str, Any]:
    """Time the stages as of a version (`GET …/stages?at=V`'s read): folded on the spot with
    the read cache emptied, then from the read cache; beside the latest, the read model's."""

    def folded() -> None:
        caches[READS].clear()
        stages_get(COMPETITION, version)

    timings: dict[str, list[float]] = {"latest": [], "folded": [], "cached": []}
    for _ in range(rounds):
        timings["latest"].append(_timed(lambda: stages_get(COMPETITION)))
        timings["folded"].append(_timed(folded))
        timings["cached"].append(_timed(lambda: stages_get(COMPETITION, version)))
    latest, folded_ms, cached = (statistics.median(timings[name]) for name in timings)
    return {
        "as_of_version": version,
        "as_of_latest_ms": _ms(latest),
        "as_of_folded_ms": _ms(folded_ms),
        "as_of_cached_ms": _ms(cached),
        "as_of_ratio_cached_to_latest": round(cached / latest, 2),
    }


def _record_as_staff(match: Match, event: dict[str, Any], seq: int) -> None:
    with unannounced():
        services.event_record(match_id=match.pk, expected_seq=seq, event=event, by=BY, staff=True)


def _amendment_summary(timings: dict[str, list[float]]) -> dict[str, Any]:
    return {
        "amendment_preview_ms": _ms(statistics.median(timings["preview"])),
        "amendment_record_ms": _ms(statistics.median(timings["record"])),
        "amendment_incremental_ms": _ms(statistics.median(timings["incremental"])),
        "amendment_fold_one_ms": _ms(statistics.median(timings["fold_one"])),
        "amendment_ratio_preview_to_fold_one": round(
            statistics.median(timings["preview_ratio"]), 2
        ),
        "amendment_ratio_incremental_to_fold_one": round(statistics.median(timings["ratio"]), 2),
    }


def _full(competition: Competition) -> tuple[list, list]:
    as_of = championship_at(competition)
    return as_of.championship.views(), as_of.championship.ranking()


def _summary(phase: str, timings: dict[str, list[float]]) -> dict[str, Any]:
    return {
        f"{phase}_incremental_ms": _ms(min(timings["incremental"])),
        f"{phase}_incremental_median_ms": _ms(statistics.median(timings["incremental"])),
        f"{phase}_fold_one_ms": _ms(min(timings["fold_one"])),
        f"{phase}_full_ms": _ms(min(timings["full"])),
        f"{phase}_ratio_incremental_to_fold_one": round(statistics.median(timings["ratio"]), 2),
        f"{phase}_ratio_full_to_incremental": round(
            min(timings["full"]) / min(timings["incremental"]), 1
        ),
    }


def _champion() -> str | None:
    rows = championship_at(Competition.objects.get(pk=COMPETITION)).championship.ranking()
    first = [row for row in rows if row["place"] == 1]
    return first[0]["player"] if len(first) == 1 else None


def _matches(stage: str) -> list[Match]:
    return list(Match.objects.filter(competition_id=COMPETITION, stage_id=stage).order_by("pk"))


def simulated(match: Match, seed: int) -> dict[str, Any]:
    """A whole simulated record of a stored match, as the demo plays its championship."""
    return simulate_match(
        seed,
        ruleset=match.ruleset,
        players=[match.players["A"], match.players["B"]],
        match_id=match.pk,
        competition=match.competition_id,
        stage=match.stage,
        table="",
        day=match.date,
        **NO_ACCIDENTS,
    )


def _bar(items: Iterable[str], desc: str, options: ChampionshipOptions, log: TextIO) -> Any:
    items = list(items)
    return tqdm(
        items, desc=desc, unit="match", total=len(items), disable=not options.progress, file=log
    )


def _timed(case: Callable[[], Any]) -> float:
    gc.collect()
    started = time.perf_counter()
    case()
    return time.perf_counter() - started


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 2)


def championship_table(results: dict[str, Any], row: Callable[[str, str, str], str]) -> list[str]:
    """Return the lines `make bench` prints for the championship in stages."""
    verdict = "PASS" if results["meets_target"] else "ABOVE TARGET"
    lines = [
        f"(h) championship in stages: {results['players']} players, {results['groups']} groups, "
        f"{results['group_matches']} group and {results['knockout_matches']} knockout matches, "
        f"{results['events']:,} events (first projection {results['first_projection_s']:.1f} s)",
    ]
    for phase in ("group", "knockout"):
        lines += [
            f"  after a {phase} match ends:",
            row("full recompute (championship_at)", f"{results[f'{phase}_full_ms']:.1f} ms", ""),
            row(
                "incremental: projector.catch_up()",
                f"{results[f'{phase}_incremental_ms']:.2f} ms",
                f"{results[f'{phase}_ratio_full_to_incremental']}x faster than full",
            ),
            row("fold the ended match alone", f"{results[f'{phase}_fold_one_ms']:.2f} ms", ""),
            row(
                "ratio incremental / fold one (median)",
                f"{results[f'{phase}_ratio_incremental_to_fold_one']:.2f}",
                f"target <= {results['target']}: {verdict}" if phase == "group" else "",
            ),
        ]
    target = results["target"]

    def verdict(ratio: float) -> str:
        return f"target <= {target}: " + ("PASS" if ratio <= target else "ABOVE TARGET")

    previewed = results["amendment_ratio_preview_to_fold_one"]
    caught_up = results["amendment_ratio_incremental_to_fold_one"]
    lines += [
        "  after a group match is amended (the knockout played: a started match disputed):",
        row("preview of its consequences", f"{results['amendment_preview_ms']:.2f} ms", ""),
        row(
            "recording it (staff), through the draw", f"{results['amendment_record_ms']:.2f} ms", ""
        ),
        row(
            "incremental: projector.catch_up()", f"{results['amendment_incremental_ms']:.2f} ms", ""
        ),
        row("fold the amended match alone", f"{results['amendment_fold_one_ms']:.2f} ms", ""),
        row("ratio preview / fold one (median)", f"{previewed:.2f}", "reported"),
        row("ratio incremental / fold one (median)", f"{caught_up:.2f}", verdict(caught_up)),
        f"  the stages as of version {results['as_of_version']:,} (GET …/stages?at=V's read):",
        row("folded on the spot (read cache emptied)", f"{results['as_of_folded_ms']:.2f} ms", ""),
        row("again: from the read cache", f"{results['as_of_cached_ms']:.2f} ms", ""),
        row("the latest: the read model", f"{results['as_of_latest_ms']:.2f} ms", ""),
        row(
            "ratio cached / latest (median)",
            f"{results['as_of_ratio_cached_to_latest']:.2f}",
            "reported",
        ),
    ]
    return lines
