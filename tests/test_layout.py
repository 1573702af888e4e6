"""The read side reads the event log through one door: `matches.store` (and `matches.selectors`).

import-linter forbids modules, not names, and `replay` imports `matches.models` for its
other models: so this reads every module of `replay/` for the ways into the events
table past the store: the `Event` model, the table's name, the reverse relation.
"""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
READ_SIDE = sorted((ROOT / "replay").rglob("*.py"))
TABLE = "matches_event"
# What a queryset of the `events` relation is asked: `match.events.filter(...)` and so on.
MANAGER_CALLS = {
    "all",
    "filter",
    "exclude",
    "get",
    "count",
    "exists",
    "order_by",
    "values",
    "values_list",
    "first",
    "last",
    "latest",
    "aggregate",
    "annotate",
    "iterator",
}


def doors_past_the_store(source: str) -> list[str]:
    """Return each way a module's source reaches the events table but through the store."""
    found = []
    for node in ast.walk(ast.parse(source)):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.ImportFrom) and node.module == "matches.models":
            found += [
                f"line {line}: imports {a.name}" for a in node.names if a.name in ("Event", "*")
            ]
        elif isinstance(node, ast.ImportFrom | ast.Import):
            found += [
                f"line {line}: imports EVENTS_TABLE" for a in node.names if a.name == "EVENTS_TABLE"
            ]
        elif isinstance(node, ast.Attribute) and node.attr == "EVENTS_TABLE":
            found.append(f"line {line}: names {ast.unparse(node)}")
        elif isinstance(node, ast.Attribute) and node.attr == "Event":
            if ast.unparse(node.value).endswith("models"):  # not asyncio's or threading's
                found.append(f"line {line}: names {ast.unparse(node)}")
        elif isinstance(node, ast.Attribute) and node.attr in MANAGER_CALLS:
            if isinstance(node.value, ast.Attribute) and node.value.attr == "events":
                found.append(f"line {line}: asks the events relation ({ast.unparse(node)})")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            if TABLE in node.value or node.value in ("matches.Event", "Event"):
                found.append(f"line {line}: names {node.value[:60]!r}")
        elif isinstance(node, ast.Call):
            lookups = [arg.value for arg in node.args if isinstance(arg, ast.Constant)]
            lookups += [keyword.arg for keyword in node.keywords]
            for lookup in lookups:
                if isinstance(lookup, str) and (
                    lookup == "events" or lookup.startswith("events__")
                ):
                    found.append(f"line {line}: looks up {lookup!r} (the events relation)")
    return found


@pytest.mark.parametrize("path", READ_SIDE, ids=lambda path: str(path.relative_to(ROOT)))
def test_a_module_of_the_read_side_reads_the_event_log_only_through_matches_store(path):
    found = doors_past_the_store(path.read_text())

    assert not found, f"{path.relative_to(ROOT)} reads the events past matches.store: {found}"


@pytest.mark.parametrize(
    "source",
    [
        "from matches.models import Event, Match",
        "from matches import models\nmodels.Event.objects.count()",
        "import matches.models\nmatches.models.Event.objects.count()",
        "from matches.store import EVENTS_TABLE",
        "from matches.immutability import EVENTS_TABLE",
        "SQL = 'SELECT data FROM matches_event'",
        "Match.objects.annotate(n=Count('events'))",
        "Match.objects.filter(events__seq=3)",
        "match.events.order_by('seq')",
        "apps.get_model('matches', 'Event')",
    ],
)
def test_the_check_finds_each_way_past_the_store(source):
    assert doors_past_the_store(source)


def test_the_check_lets_the_store_s_own_reads_and_other_models_be():
    source = (
        "from matches import store\nfrom matches.models import Match\n"
        "store.load_events(match)\ntimeline['events']\ncaught.events += 1\nasyncio.Event()"
    )

    assert doors_past_the_store(source) == []
