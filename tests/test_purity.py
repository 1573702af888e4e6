"""The pure core imports no framework: rules, notation and the fold are plain Python.

`lint-imports` (make check) proves it of the import statements; this proves it of what
importing each module really loads, its parent packages included.
"""

import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
IMPORT_CONTRACTS = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
PURE = next(c for c in IMPORT_CONTRACTS["contracts"] if c["id"] == "pure-domain")

PROBE = """
import importlib, json, sys
importlib.import_module(sys.argv[1])
print(json.dumps(sorted({name.split(".")[0] for name in sys.modules})))
"""


PURE_MODULES = sorted(
    ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
    for path in (ROOT / "matches" / "domain").rglob("*.py")
)


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
    forbidden = set(PURE["forbidden_modules"])
    assert loaded.isdisjoint(forbidden), sorted(loaded & forbidden)
