"""The verdict of `make bench`: targets held in two of three runs, reported figures watched.

A target is a bound on a figure a user can feel, beside its baseline in the same run. Its
scenario runs up to three times: the target holds once two runs held it and fails once
two did not, so a third run is made only when the first two disagree.

A reported figure has no bound: it is measured at least five times in a run, and its
median is compared with the last run's, kept in `.bench/last.json` (git-ignored). A median
outside the last run's range (its least and greatest samples, widened by 10% on each
side) is flagged: something moved, for better or worse. A flag is not a failure.
"""

from __future__ import annotations

import json
import statistics
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

RUNS = 3  # a target's scenario runs at most this often
NEEDED = 2  # runs that must agree: held, or not
FEWEST_SAMPLES = 5  # a reported figure's measurements in one run
WIDENING = 0.10  # the last run's range, widened on each side by this share
LAST_RUN = Path(__file__).resolve().parent.parent / ".bench" / "last.json"


class LastRunUnreadable(ValueError):
    """The last run's file is there but is not what the bench writes."""


@dataclass(frozen=True)
class Check:
    """One target's figure in one run of its scenario, and whether it held."""

    figure: float
    bound: float
    held: bool
    shown: str = ""  # the figure as the table says it, when a bare number would not do


@dataclass
class Target:
    """A target across the runs of its scenario (a scenario too long to repeat: its one run)."""

    name: str
    checks: list[Check] = field(default_factory=list)
    needed: int = NEEDED

    @property
    def held(self) -> bool | None:
        return outcome([check.held for check in self.checks], self.needed)


def outcome(helds: Sequence[bool], needed: int = NEEDED) -> bool | None:
    """Return True once `needed` runs held (two by default), False once as many did not,
    None while undecided."""
    if sum(helds) >= needed:
        return True
    if len(helds) - sum(helds) >= needed:
        return False
    return None


def settle(
    scenario: Callable[[], tuple[Any, Mapping[str, Check]]],
    runs: int = RUNS,
    told: Callable[[str], None] = lambda line: None,
) -> tuple[list[Any], dict[str, Target]]:
    """Run a scenario until each of its targets is settled, at most `runs` times.

    Return every run's results and the targets with each run's check.
    """
    results: list[Any] = []
    targets: dict[str, Target] = {}
    for number in range(1, runs + 1):
        result, checks = scenario()
        results.append(result)
        for name, check in checks.items():
            targets.setdefault(name, Target(name)).checks.append(check)
        undecided = [t.name for t in targets.values() if t.held is None]
        if not undecided:
            break
        if number < runs:
            told(f"run {number + 1} of at most {runs}: undecided, {', '.join(undecided)}")
    return results, targets


# -- Reported figures ------------------------------------------------------------------------


@dataclass(frozen=True)
class Reported:
    """A reported figure: its samples in this run and, when known, the last run's."""

    name: str
    samples: tuple[float, ...]
    last: Mapping[str, float] | None = None

    @property
    def median(self) -> float:
        return statistics.median(self.samples)

    @property
    def enough(self) -> bool:
        return len(self.samples) >= FEWEST_SAMPLES

    @property
    def flagged(self) -> bool:
        """Whether this run's median lies outside the last run's range, widened."""
        if self.last is None or not self.enough:
            return False
        low, high = self.last["min"], self.last["max"]
        return not low * (1 - WIDENING) <= self.median <= high * (1 + WIDENING)

    def kept(self) -> dict[str, float | int]:
        """Return what the next run compares its median with."""
        return {
            "median": self.median,
            "min": min(self.samples),
            "max": max(self.samples),
            "samples": len(self.samples),
        }


def reported(samples: Mapping[str, Sequence[float]], last: Mapping[str, Any]) -> list[Reported]:
    """Return each figure's samples beside the last run's figures of the same name."""
    return [
        Reported(name, tuple(values), last.get(name)) for name, values in samples.items() if values
    ]


def last_run_read(path: Path = LAST_RUN) -> dict[str, dict[str, float]]:
    """Return the last run's figures by name: none on a first run, a clear error when the
    file is not what the bench writes."""
    try:
        text = path.read_text()
    except FileNotFoundError:
        return {}
    try:
        kept = json.loads(text)
    except ValueError as error:
        raise LastRunUnreadable(f"{path}: not JSON ({error}); remove it to start afresh") from None
    figures = kept.get("figures") if isinstance(kept, dict) else None
    if not isinstance(figures, dict):
        raise LastRunUnreadable(f"{path}: no 'figures' object; remove it to start afresh")
    for name, figure in figures.items():
        fields = figure if isinstance(figure, dict) else {}
        for key in ("median", "min", "max"):
            value = fields.get(key)
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise LastRunUnreadable(
                    f"{path}: figures.{name}.{key} is not a number; remove it to start afresh"
                )
        if fields["min"] > fields["max"]:
            raise LastRunUnreadable(
                f"{path}: figures.{name}: min is above max; remove it to start afresh"
            )
    return figures


def last_run_write(
    figures: Sequence[Reported], before: Mapping[str, Any], when: str, path: Path = LAST_RUN
) -> None:
    """Keep this run's figures (those measured often enough) for the next run to compare
    with; a figure this run did not measure keeps its last value."""
    kept = dict(before) | {figure.name: figure.kept() for figure in figures if figure.enough}
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps({"when": when, "figures": kept}, indent=2) + "\n")


# -- The table -------------------------------------------------------------------------------


def verdict(targets: Sequence[Target], skipped: Sequence[str]) -> str:
    """Return PASS, FAIL (a target not held) or INCOMPLETE (a target's scenario not run)."""
    if any(target.held is False for target in targets):
        return "FAIL"
    return "INCOMPLETE" if skipped else "PASS"


def table(targets: Sequence[Target], skipped: Sequence[str], figures: Sequence[Reported]) -> str:
    """Return the verdict's lines: each target's runs, each reported figure beside the last."""
    lines = [
        f"targets (each holds when it holds in {NEEDED} of {RUNS} runs of its scenario, or "
        "in its one run if it runs once)"
    ]
    for target in targets:
        runs = ", ".join(
            (check.shown or f"{check.figure:g}") + ("" if check.held else " (over)")
            for check in target.checks
        )
        said = {True: "held", False: "NOT HELD", None: "undecided"}[target.held]
        bounds = {check.bound for check in target.checks}
        bound = f"<= {bounds.pop():g}" if len(bounds) == 1 else "within each run's bound"
        lines.append(f"  {target.name:<58} {bound}: {runs}: {said}")
    lines += [f"  {name:<58} not measured" for name in skipped]
    lines += [
        "",
        f"reported (median of at least {FEWEST_SAMPLES}; flagged when outside the last run's "
        f"range widened by {WIDENING:.0%})",
    ]
    for figure in figures:
        if figure.last is None:
            beside = "no last run"
        else:
            beside = f"last {figure.last['median']:.3g} ({figure.last['min']:.3g} to "
            beside += f"{figure.last['max']:.3g})"
        flag = "  FLAGGED" if figure.flagged else ""
        few = "" if figure.enough else f" (only {len(figure.samples)} samples)"
        lines.append(f"  {figure.name:<58} {figure.median:>9.3g}{few}   {beside}{flag}")
    lines += ["", f"verdict: {verdict(targets, skipped)}"]
    return "\n".join(lines)
