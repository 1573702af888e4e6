"""The pages' scripts: their unit tests under Node, and what the console keeps offline.

`node --test tests/js/` runs the scripts' own tests (Node's built-in runner, no package
to install). Without Node they skip, and with `CI=true` they fail, as the browser tests do.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from replay.web.console import CONSOLE_SCRIPTS

ROOT = Path(__file__).resolve().parent.parent
STATIC = ROOT / "replay" / "static"
IMPORT = re.compile(r"""^\s*import\s[^;]*?from\s+"(\.{1,2}/[^"]+)";""", re.MULTILINE | re.DOTALL)


def test_the_scripts_unit_tests_pass_under_node():
    node = shutil.which("node")
    if node is None:
        if os.getenv("CI") == "true":
            pytest.fail("CI=true but node is not installed: apt-get install nodejs")
        pytest.skip("node is not installed")
    ran = subprocess.run(
        [node, "--test", "tests/js/"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert ran.returncode == 0, f"node --test tests/js/ failed:\n{ran.stdout}\n{ran.stderr}"


def imported(module: Path) -> set[Path]:
    """Return a module and every module it imports, however deep."""
    found = {module}
    for name in IMPORT.findall(module.read_text(encoding="utf-8")):
        target = (module.parent / name).resolve()
        if target not in found:
            found |= imported(target)
    return found


def test_the_console_keeps_every_module_its_page_imports_for_an_offline_reopen():
    page = STATIC / "replay" / "pages" / "console.js"
    needed = {str(path.relative_to(STATIC)) for path in imported(page)}
    assert needed - set(CONSOLE_SCRIPTS) == set()
