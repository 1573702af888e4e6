"""The pure core imports no framework: rules, notation and the fold are plain Python."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FRAMEWORKS = ("django", "channels", "celery")
PURE_MODULES = ("matches.rules", "matches.notation", "matches.state")

PROBE = """
import importlib, json, sys
importlib.import_module(sys.argv[1])
print(json.dumps(sorted({name.split(".")[0] for name in sys.modules})))
"""


@pytest.mark.parametrize("module", PURE_MODULES)
def test_pure_module_imports_no_framework_in_a_fresh_interpreter(module):
    result = subprocess.run(
        [sys.executable, "-c", PROBE, module],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )

    loaded = set(json.loads(result.stdout))
    assert loaded.isdisjoint(FRAMEWORKS), sorted(loaded & set(FRAMEWORKS))
