"""Each package of the read side has a map: its `__init__.py` names every module it holds.

The README's "The read side" tells a newcomer which room is theirs; each package's
docstring says what is in the room. A module added without a line there fails here.
"""

import ast
from pathlib import Path

import pytest

REPLAY = Path(__file__).resolve().parents[2] / "replay"
PACKAGES = ["projections", "queries", "presentation", "live", "api", "web"]


def unnamed_modules(package: Path) -> list[str]:
    """Return the modules of a package that its docstring does not name in backticks."""
    words = ast.get_docstring(ast.parse((package / "__init__.py").read_text())) or ""
    modules = sorted(path.stem for path in package.glob("*.py") if path.stem != "__init__")
    return [module for module in modules if f"`{module}`" not in words]


@pytest.mark.parametrize("package", PACKAGES)
def test_each_read_side_package_names_every_module_it_holds(package):
    assert unnamed_modules(REPLAY / package) == []


def test_every_package_of_the_read_side_is_in_the_layers_it_is_checked_against():
    layered = {path.parent.name for path in REPLAY.glob("*/__init__.py")}
    outside = {"management", "migrations", "templatetags"}  # Django's places, not layers
    assert layered - outside == set(PACKAGES)


def test_a_package_whose_map_leaves_a_module_out_is_caught(tmp_path):
    (tmp_path / "__init__.py").write_text('"""Holds `named` only."""\n')
    (tmp_path / "named.py").write_text("")
    (tmp_path / "forgotten.py").write_text("")

    assert unnamed_modules(tmp_path) == ["forgotten"]
