"""The suite's own layout: shared builders live in `tests/support/`, one fixture name one meaning.

A test module that imports another test module (or a conftest) ties the two together: the
shared helper belongs in `tests/support/`. A fixture name defined twice with different
bodies means two things, and which one a test gets depends on where it sits.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SUITE = sorted((ROOT / "tests").rglob("*.py"))
SUPPORT = "tests.support"


def module_name(path: Path) -> str:
    """Return the dotted name of a file: tests/store/test_anchor.py is tests.store.test_anchor."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_modules(source: str, importer: str) -> list[tuple[int, str]]:
    """Return each module of the suite a module's source imports, with its line.

    `from tests import support` imports `tests.support`; a relative import is resolved
    against `importer`, the importing module's dotted name.
    """
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = importer.split(".")[: -node.level]
                base = ".".join([*package, base] if base else package)
            if base == "tests" or not node.module:
                found += [(node.lineno, f"{base}.{alias.name}") for alias in node.names]
            else:
                found.append((node.lineno, base))
    return [(line, name) for line, name in found if name == "tests" or name.startswith("tests.")]


def suite_modules_imported(source: str, importer: str) -> list[str]:
    """Return each import of a test module or a conftest: anything of the suite but its support."""
    return [
        f"line {line}: imports {name}"
        for line, name in imported_modules(source, importer)
        if name != SUPPORT and not name.startswith(SUPPORT + ".")
    ]


def is_fixture(decorator: ast.expr) -> bool:
    called = decorator.func if isinstance(decorator, ast.Call) else decorator
    return ast.unparse(called) in ("pytest.fixture", "fixture", "pytest_asyncio.fixture")


def fixture_name(function: ast.FunctionDef | ast.AsyncFunctionDef) -> str:
    """Return the name a fixture is asked for by: its `name=`, else the function's."""
    for decorator in function.decorator_list:
        if isinstance(decorator, ast.Call) and is_fixture(decorator):
            for keyword in decorator.keywords:
                if keyword.arg == "name" and isinstance(keyword.value, ast.Constant):
                    return str(keyword.value.value)
    return function.name


def meaning(function: ast.FunctionDef | ast.AsyncFunctionDef) -> str:
    """Return what a fixture does, its docstring aside: its arguments, decorators and body."""
    body = function.body
    if ast.get_docstring(function) is not None:
        body = body[1:]
    parts = [function.args, *function.decorator_list, *body]
    return "\n".join(ast.dump(part) for part in parts)


def fixtures_defined(source: str) -> list[tuple[str, int, str]]:
    """Return each fixture a module's source defines: its name, its line, what it does."""
    return [
        (fixture_name(node), node.lineno, meaning(node))
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and any(is_fixture(decorator) for decorator in node.decorator_list)
    ]


def names_with_two_meanings(sources: dict[str, str]) -> list[str]:
    """Return each fixture name defined with different bodies, and where: files by name."""
    places: dict[str, list[tuple[str, int, str]]] = defaultdict(list)
    for path, source in sources.items():
        for name, line, body in fixtures_defined(source):
            places[name].append((path, line, body))
    return [
        f"fixture {name!r} means different things in "
        + ", ".join(f"{path}:{line}" for path, line, _ in defined)
        for name, defined in sorted(places.items())
        if len({body for _, _, body in defined}) > 1
    ]


@pytest.mark.parametrize("path", SUITE, ids=lambda path: str(path.relative_to(ROOT)))
def test_no_module_of_the_suite_imports_a_test_module_or_a_conftest(path):
    found = suite_modules_imported(path.read_text(), module_name(path))

    assert not found, f"{path.relative_to(ROOT)} imports another test module: {found}"


def test_no_fixture_name_is_defined_twice_with_different_bodies():
    sources = {str(path.relative_to(ROOT)): path.read_text() for path in SUITE}

    assert names_with_two_meanings(sources) == []


def test_the_support_s_map_names_each_of_its_modules():
    support = ROOT / "tests" / "support"
    named = ast.get_docstring(ast.parse((support / "__init__.py").read_text())) or ""
    modules = sorted(path.stem for path in support.glob("*.py") if path.stem != "__init__")

    assert [module for module in modules if f"`{module}`" not in named] == []


@pytest.mark.parametrize(
    "source",
    [
        "from tests.store.test_anchor import verify",
        "from tests.conftest import settings",
        "import tests.replay.test_tasks",
        "from tests.replay import test_tasks",
        "from tests import test_layout",
        "from . import test_tables",
        "from .test_tables import hall",
        "from ..matches.test_stages import knockout",
    ],
)
def test_the_check_finds_each_way_to_import_a_test_module(source):
    assert suite_modules_imported(source, "tests.store.test_anchor")


def test_the_check_lets_the_support_and_the_project_be_imported():
    source = (
        "import tests.support.browser as harness\nfrom tests.support.builders import play\n"
        "from tests import support\nfrom tests.support import builders\n"
        "from matches import services\nimport pytest\nfrom . import support"
    )

    assert suite_modules_imported(source, "tests.test_x") == []


def test_a_fixture_name_with_two_bodies_is_named_with_both_files():
    sources = {
        "tests/a/test_one.py": "@pytest.fixture\ndef drawn(db):\n    return draw()\n",
        "tests/b/test_two.py": "@pytest.fixture\ndef drawn(db):\n    return draw(played=True)\n",
    }

    assert names_with_two_meanings(sources) == [
        "fixture 'drawn' means different things in tests/a/test_one.py:2, tests/b/test_two.py:2"
    ]


def test_a_fixture_shared_alike_or_asked_by_another_name_is_one_meaning():
    sources = {
        "tests/a/test_one.py": '@pytest.fixture\ndef drawn(db):\n    """Drawn."""\n    return 1\n',
        "tests/b/test_two.py": "@pytest.fixture\ndef drawn(db):\n    return 1\n",
        "tests/c/test_three.py": (
            "@pytest.fixture(name='drawn_twice')\ndef drawn(db):\n    return 2\n"
        ),
    }

    assert names_with_two_meanings(sources) == []
