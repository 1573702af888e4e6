"""Every test here is slow and in a browser (their fixtures: tests/support/browser.py)."""

from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test of this directory `slow` and `browser`."""
    for item in items:
        if HERE in Path(item.path).resolve().parents:
            item.add_marker(pytest.mark.slow)
            item.add_marker(pytest.mark.browser)
