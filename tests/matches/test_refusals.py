"""A refusal with a code carries the code and its parameters beside its English text."""

import ast
import re
from pathlib import Path

import pytest

from matches.domain.errors import Conflict, NotFound, Refused
from matches.domain.refusals import TEXTS


def test_a_refusal_because_a_code_says_its_english_text_with_the_parameters_filled_in():
    refusal = Refused.because("not_due", "player", 4, player="A")

    assert refusal.message == "it is A's shot"
    assert refusal.as_dict() == {
        "error": "it is A's shot",
        "field": "player",
        "seq": 4,
        "code": "not_due",
        "params": {"player": "A"},
    }


def test_a_refusal_without_a_code_keeps_the_record_error_shape():
    assert Refused("anything", "field").as_dict() == {"error": "anything", "field": "field"}


def test_a_subclass_refused_because_a_code_keeps_its_status():
    assert NotFound.because("no_match", "id", id="'x'").status == 404


def test_a_stale_expected_seq_carries_its_code_and_the_current_seq():
    assert Conflict(7).as_dict() == {
        "error": "the match is at seq 7",
        "field": "expected_seq",
        "seq": 7,
        "code": "stale_seq",
        "params": {"current": 7},
    }


@pytest.mark.parametrize("code", sorted(TEXTS))
def test_every_code_is_a_lowercase_name_and_its_text_names_each_parameter_by_name(code):
    assert re.fullmatch(r"[a-z_]+", code)
    assert "{" not in TEXTS[code]
    assert "%s" not in TEXTS[code]


ROOT = Path(__file__).resolve().parents[2]
NAMED = re.compile(r"%\((\w+)\)s")


def refusals_raised() -> list[tuple[str, int, str, set[str]]]:
    """Return each `because(...)` of the project: file, line, code and the parameters given."""
    found = []
    for package in ("matches", "replay", "carambole"):
        for source in (ROOT / package).rglob("*.py"):
            for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
                if not (
                    isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "because"
                ):
                    continue
                given = {k.arg for k in node.keywords if k.arg not in ("field", "seq")}
                code = node.args[0]
                # A code is written out: as a constant, or each of an `if ... else ...`.
                branches = [code.body, code.orelse] if isinstance(code, ast.IfExp) else [code]
                codes = [
                    c.value if isinstance(c, ast.Constant) else ast.unparse(c) for c in branches
                ]
                name = str(source.relative_to(ROOT))
                found.extend((name, node.lineno, c, given) for c in codes)
    return found


def test_every_refusal_raised_names_a_code_and_gives_each_parameter_its_text_names():
    wrong = [
        (name, line, code)
        for name, line, code, given in refusals_raised()
        if code not in TEXTS or set(NAMED.findall(TEXTS[code])) != given
    ]

    assert refusals_raised() and wrong == []
