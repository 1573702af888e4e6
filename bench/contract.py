"""The speed contract: which scenario checks which target, which figures are reported.

Targets are what a user can feel, each against its baseline in the same run; their
scenarios run until two runs agree (`bench.verdict.settle`). Every other section runs
once and gives reported figures, each the median of its samples.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from bench.verdict import Check, Target

# The reported figures: a name, and where their samples are in a run's results.
REPORTED: dict[str, tuple[str, ...]] = {
    "state on demand / raw read": ("state_on_demand", "samples", "state_vs_raw"),
    "rebuild every match / raw read and parse": ("rebuild", "samples", "rebuild_vs_limit"),
    "archive's first page, ORM / bare query": (
        "archive_pages",
        "samples",
        "first_page_orm_vs_raw",
    ),
    "replay page's data / raw read": ("archive_pages", "samples", "replay_data_vs_raw"),
    "preview of an amendment / folding the match": (
        "championship",
        "samples",
        "preview_vs_fold",
    ),
    "catch-up, a group match ended / 5 folds": ("championship", "samples", "ended_vs_5_folds"),
    "catch-up, a group match amended / 5 folds": (
        "championship",
        "samples",
        "amended_vs_5_folds",
    ),
    "catch-up, a round robin's match amended / 5 folds": (
        "standings",
        "samples",
        "incremental_vs_5_folds",
    ),
    "recording on SQLite / an ORM insert": ("recording", "samples", "api_vs_orm"),
    "ratings, full / the pure fold": ("ratings", "samples", "full_vs_pure"),
    "ratings, after an old amendment / the pure fold": (
        "ratings",
        "samples",
        "incremental_vs_pure",
    ),
}


def reported_samples(results: Mapping[str, Any]) -> dict[str, list[float]]:
    """Return each reported figure's samples found in the results (none: not measured)."""
    found = {}
    for name, path in REPORTED.items():
        value: Any = results
        for key in path:
            value = value.get(key) if isinstance(value, Mapping) else None
        if value:
            found[name] = list(value)
    return found


# -- The targets' checks, one function a scenario -----------------------------------------


def import_checks(result: Mapping[str, Any]) -> dict[str, Check]:
    return {
        "import / checking alone": Check(result["ratio"], result["target"], result["meets_target"])
    }


def recording_checks(result: Mapping[str, Any]) -> dict[str, Check]:
    """Recording alone on PostgreSQL: p50 and p99 against the floor and the raw insert."""
    checks = {}
    for percent, times in (("p50", 4), ("p99", 10)):
        figure, bound = result[f"api_{percent}_ms"], result[f"{percent}_target_ms"]
        checks[f"recording on PostgreSQL, {percent} (ms) / floor + {times} raw"] = Check(
            figure,
            bound,
            result[f"{percent}_meets_target"],
            shown=f"{figure:.2f} of {bound:.2f}",
        )
    checks["recording on PostgreSQL, 2,000 events / 20"] = Check(
        result["long_vs_short_p50"], 1.3, result["long_meets_target"]
    )
    return checks


def venue_checks(name: str) -> Callable[[Mapping[str, Any]], dict[str, Check]]:
    """The venue's two targets: answers (nothing lost, doubled or out of order) and lag."""

    def checks(result: Mapping[str, Any]) -> dict[str, Check]:
        targets, live = result["targets"], result.get("live", {})
        faults = sum(live.get(kind, 0) for kind in ("lost", "doubled", "out_of_order", "closed"))
        faults += result["stored"]["faults"]
        p99, lag = result["load"]["p99_ms"], result["projector_lag"]["p99_s"]
        answered = targets["p99_met"] and not faults and not result["load"]["errors"]
        lagged = targets["lag_met"] and targets.get("knockout_made", True)
        return {
            f"{name}: answer p99 (ms), nothing lost": Check(
                p99, targets["p99_ms"], answered, shown=f"{p99:g}" + (" FAULTS" if faults else "")
            ),
            f"{name}: projector's lag p99 (s)": Check(lag, targets["lag_p99_s"], lagged),
        }

    return checks


def fanout_checks(result: Mapping[str, Any]) -> dict[str, Check]:
    """The fan-out's worst scenario on any layer, against the bare server."""
    scenarios = [
        figures
        for layer in ("in_memory", "redis")
        for name, figures in result.get(layer, {}).items()
        if name != "servers"
    ]
    worst = max(figures["vs_bare_p99"] for figures in scenarios)
    faults = sum(
        figures[kind]
        for figures in scenarios
        for kind in ("lost", "doubled", "out_of_order", "errors")
    )
    held = all(figures["meets_target"] for figures in scenarios) and not faults
    return {"fan-out p99 / the bare server's, worst scenario": Check(worst, result["target"], held)}


def audience_checks(result: Mapping[str, Any]) -> dict[str, Check]:
    """A final's audience over several servers, against as many bare ones: held only with
    nothing lost and load generators quiet enough for the run to count."""
    options, ratio = result["options"], result["vs_bare_p99"]
    shown = f"{ratio:g}" + (" FAULTS" if result["faults"] else "")
    shown += "" if result["valid"] else " INVALID"
    name = f"audience, {options['viewers']:,} viewers, {options['servers']} servers: p99 / bare's"
    return {name: Check(ratio, result["target"], result["meets_target"], shown=shown)}


def churn_checks(result: Mapping[str, Any]) -> dict[str, Check]:
    return {
        "churn, memory after all / after the first thousand": Check(
            result["ratio"], result["target"], result["meets_target"]
        )
    }


def hall_checks(result: Mapping[str, Any]) -> dict[str, Check]:
    """The hall beside a match board, each layer: p50 and p99, nothing lost."""
    checks = {}
    for layer in ("in_memory", "redis"):
        if layer not in result:
            continue
        figures = result[layer]
        for percent in ("p50", "p99"):
            ratio = figures[f"vs_board_{percent}"]
            name = f"hall / match board, {layer.replace('_', '-')} layer, {percent}"
            shown = f"{ratio:.2f}" + (" FAULTS" if figures["faults"] else "")
            held = ratio <= result["target"] and not figures["faults"]
            checks[name] = Check(ratio, result["target"], held, shown=shown)
    return checks


def standings_checks(result: Mapping[str, Any]) -> dict[str, Check]:
    figure = result["ratio_incremental_to_fold_one"]
    return {
        "catch-up after an amendment (round robin) / folding it": Check(
            figure, result["target"], result["meets_target"]
        )
    }


def championship_checks(result: Mapping[str, Any]) -> dict[str, Check]:
    ended = result["group_ratio_incremental_to_fold_one"]
    amended = result["amendment_ratio_incremental_to_fold_one"]
    return {
        "catch-up after a result (championship) / folding it": Check(
            ended, result["target"], result["meets_target"]
        ),
        "catch-up after an amendment (championship) / folding it": Check(
            amended, result["target"], result["amendment_meets_target"]
        ),
    }


def soak_targets(result: Mapping[str, Any]) -> list[Target]:
    """The soak, run once (twenty minutes): no stall over its limit, no shot shown a pace
    late, nothing lost, doubled or gone back, every viewer caught up; held or not in that
    one run."""
    stall, late = result["stall"], result["late"]
    faults = result["faults"] + (result["caught_up_s"] is None)
    shown = f"{stall['longest_s']:g} (a shot {late['longest_s']:g} s late)"
    shown += " FAULTS" if faults else ""
    check = Check(stall["longest_s"], stall["limit_s"], result["passed"], shown=shown)
    name = "soak: longest stall outside the restarts (s), nothing lost"
    return [Target(name, [check], needed=1)]
