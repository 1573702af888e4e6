"""The type stubs in stubs/ say what the installed libraries have (mypy's stubtest).

mypy believes them: a stub that drifted from its library (after an upgrade, say) would let
a wrong call pass `make check`. Where one differs on purpose, stubs/stubtest-allowlist.txt
says why.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
STUBS = ROOT / "stubs"
LIBRARIES = sorted(path.name for path in STUBS.iterdir() if path.is_dir())

# The libraries' modules are imported as they are at run time: channels' and daphne's
# read Django's settings.
PROBE = """
import sys

import django

django.setup()
from mypy.stubtest import main

sys.exit(main())
"""


@pytest.mark.slow
def test_every_stub_has_the_names_and_signatures_of_the_installed_library():
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            PROBE,
            "--concise",
            "--ignore-missing-stub",  # a stub holds only what carambole uses
            "--allowlist",
            str(STUBS / "stubtest-allowlist.txt"),
            "--mypy-config-file",
            str(ROOT / "pyproject.toml"),
            *LIBRARIES,
        ],
        cwd=ROOT,
        env={**os.environ, "MYPYPATH": str(STUBS), "DJANGO_SETTINGS_MODULE": "carambole.settings"},
        capture_output=True,
        text=True,
        timeout=600,
    )

    assert result.returncode == 0, result.stdout + result.stderr
