"""`python -m bench` run as a person runs it, smallest (`--quick`), for one section's figures."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def bench_run(
    tmp_path: Path, section: str, *arguments: str, timeout: float
) -> tuple[subprocess.CompletedProcess[str], dict[str, Any]]:
    """Run the bench's smoke run of one section; return the process and that section's
    results, refusing a run that failed."""
    results_file = tmp_path / "results.json"
    environ = {**os.environ, "DJANGO_SETTINGS_MODULE": "carambole.settings"}
    command = [sys.executable, "-m", "bench", "--quick", "--no-progress", "--only", section]
    command += [*arguments, "--json", str(results_file)]
    done = subprocess.run(
        command, cwd=ROOT, env=environ, capture_output=True, text=True, timeout=timeout
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done, json.loads(results_file.read_text())[section]
