"""Whether the machine kept one speed through a run: a fixed loop of Python, timed beside it.

Every figure of the bench is a ratio of two things measured in the same run, close in
time; on a shared machine whose speed moves from one second to the next (the other guests
of its host), a ratio can move with it all the same. A process of its own times the same
loop every few seconds for the whole run, in the CPU time it was given (so the bench's own
processes, taking turns on the cores, do not slow it; a host that slows its guests' running
does, though time it takes from them outright, where the guest counts it apart, does not).
A run whose slow tenth of those loops took over a fifth longer than its fast tenth was not
on a quiet machine, and the bench says so under its figures.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

LOOP = 200_000  # about 7 to 12 ms of one core here: under a hundredth of it, every two seconds
EVERY_S = 2.0
STEADY = 1.2  # the slow tenth over the fast tenth, at most, on a quiet machine
FEWEST = 20  # loops (40 s) before a verdict: with fewer, one slow loop would be a tenth
# The probe, spelt out: nothing but the standard library, one line of milliseconds a loop.
PROBE = f"""
import time
def loop():
    total = 0
    for number in range({LOOP}):
        total += number
loop()  # untimed: the interpreter's first steps
while True:
    started = time.thread_time()
    loop()
    print(round((time.thread_time() - started) * 1000, 3), flush=True)
    time.sleep({EVERY_S})
"""


@dataclass
class Steadiness:
    """The probe's loops of one run so far, in milliseconds of CPU each."""

    loops_ms: list[float] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        """Return the fast tenth, the median, the slow tenth, how far apart, and the verdict."""
        return steadiness_of(self.loops_ms)


def steadiness_of(loops_ms: Sequence[float]) -> dict[str, Any]:
    """Return what `Steadiness.summary` says of these timings of the same loop."""
    if len(loops_ms) < FEWEST:
        return {"loops": len(loops_ms), "steady": None}
    tenths = statistics.quantiles(loops_ms, n=10, method="inclusive")
    fast, slow = tenths[0], tenths[-1]
    apart = round(slow / fast, 2)  # judged as printed
    return {
        "loops": len(loops_ms),
        "p10_ms": round(fast, 2),
        "p50_ms": round(statistics.median(loops_ms), 2),
        "p90_ms": round(slow, 2),
        "apart": apart,
        "target": STEADY,
        "steady": apart <= STEADY,
    }


@contextmanager
def timed_beside() -> Iterator[Steadiness]:
    """Time the probe's loop in a process of its own until the block ends; each loop's time
    is in `loops_ms` as soon as the probe says it (a thread reads it, asleep in between)."""
    # A session of its own: a Ctrl-C is the bench's, which stops the probe on its way out.
    # Its errors unheard: a bench killed outright leaves it to die at its next line, alone.
    probe = subprocess.Popen(
        [sys.executable, "-c", PROBE],
        stdout=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        text=True,
        start_new_session=True,
    )
    assert probe.stdout is not None
    steadiness = Steadiness()
    reader = threading.Thread(
        target=_read, args=(probe.stdout, steadiness.loops_ms), name="steadiness", daemon=True
    )
    reader.start()
    try:
        yield steadiness
    finally:
        probe.terminate()
        probe.wait()
        reader.join()
        probe.stdout.close()


def _read(lines: Iterable[str], loops_ms: list[float]) -> None:
    """Add each loop's time the probe prints; a line that is no number (cut short as the probe
    was stopped) is left out."""
    for line in lines:
        try:
            loops_ms.append(float(line))
        except ValueError:
            continue


def table(summary: dict[str, Any], row: Callable[[str, str, str], str]) -> list[str]:
    """Return the lines that say how steady the machine was through the run."""
    if summary["steady"] is None:
        return [
            f"(s) the machine's steadiness: {summary['loops']} loops timed, too few to say "
            f"(a verdict takes {FEWEST})"
        ]
    return [
        f"(s) the machine's steadiness: one loop of Python timed every {EVERY_S:.0f} s beside "
        f"the run ({summary['loops']} times, in CPU time)",
        row("fast tenth of the loops", f"{summary['p10_ms']:.2f} ms", ""),
        row("median", f"{summary['p50_ms']:.2f} ms", ""),
        row("slow tenth", f"{summary['p90_ms']:.2f} ms", ""),
        row(
            "slow tenth / fast tenth",
            f"{summary['apart']}x",
            f"target <= {STEADY}x: steady, a quiet machine"
            if summary["steady"]
            else f"target <= {STEADY}x: UNSTEADY, the machine was not quiet",
        ),
    ]
