"""The `judge` command: JSON Lines of shots in, one ruling per line out (the notation)."""

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from matches.domain.judging import judge_line
from tests.support.command_line import Completed, command_line

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "judge"

VALID = json.dumps({"own": "white", "shot": {"contacts": [{"ball": "white", "hit": "yellow"}]}})
REJECTED = json.dumps({"own": "white", "shot": {"contacts": [{"ball": "white", "hit": "blue"}]}})


def run_judge(path: str, stdin: str = "") -> Completed:
    """The command line, in this process (tests/support/command_line.py)."""
    return command_line("judge", path, stdin=stdin)


def call_judge(path: Path) -> tuple[list[str], str, int]:
    """Return the output lines, the error text and the exit status of call_command."""
    out, err = io.StringIO(), io.StringIO()
    status = 0
    try:
        call_command("judge", str(path), stdout=out, stderr=err)
    except SystemExit as exit_:
        status = exit_.code
    return out.getvalue().splitlines(), err.getvalue(), status


# -- One line ---------------------------------------------------------------------

REJECTED_LINES = [
    pytest.param("{not json", None, id="not JSON"),
    pytest.param("", None, id="blank line"),
    pytest.param("[]", None, id="not an object"),
    pytest.param('{"shot": {}}', "own", id="no own ball"),
    pytest.param('{"own": "red", "shot": {}}', "own", id="red as own ball"),
    pytest.param('{"own": "white"}', "shot", id="no shot"),
    pytest.param('{"own": "white", "shot": {}, "speed": 3}', "speed", id="unknown key"),
    pytest.param('{"own": "white", "shot": {}, "no_score": 1}', "no_score", id="no_score"),
    pytest.param(
        '{"own": "white", "shot": {}, "ruleset": {"bonus": 1}}', "ruleset.bonus", id="ruleset key"
    ),
    pytest.param(
        '{"own": "white", "shot": {}, "ruleset": {"best_of": 4}}',
        "ruleset.best_of",
        id="even best_of",
    ),
    pytest.param(
        '{"own": "white", "shot": {}, "ruleset": {"pin_pitch": NaN}}',
        "ruleset.pin_pitch",
        id="NaN pin pitch",
    ),
    pytest.param(REJECTED, "contacts[0].hit", id="shot path relative to the shot"),
    pytest.param('{"own": "white", "shot": []}', None, id="shot not an object"),
    pytest.param("[" * 100_000, None, id="nested too deeply, unclosed"),
    pytest.param("[" * 100_000 + "]" * 100_000, None, id="nested too deeply"),
    pytest.param(
        '{"own": "white", "shot": ' + "[" * 100_000 + "]" * 100_000 + "}", None, id="deep shot"
    ),
    pytest.param('{"own": "\\ud800", "shot": {}}', "own", id="lone surrogate as own ball"),
    pytest.param('{"own": "white", "shot": {}, "\\udfff": 1}', None, id="lone surrogate key"),
    pytest.param(
        '{"own": "white", "shot": {"contacts": [{"ball": "white", "hit": "\\ud800"}]}}',
        "shot.contacts[0].hit",
        id="lone surrogate in the shot",
    ),
    pytest.param('{"own": "white", "shot": {}, "\ud800": 1}', None, id="raw lone surrogate"),
]


@pytest.mark.parametrize(("line", "field"), REJECTED_LINES)
def test_rejected_line_gives_error_and_field_only(line, field):
    answer = judge_line(line)

    assert set(answer) == {"error", "field"}
    assert answer["field"] == field
    assert answer["error"]
    json.dumps(answer, ensure_ascii=False).encode("utf-8")  # the command can write it


def test_line_options_reach_the_ruling():
    line = json.dumps(
        {
            "own": "yellow",
            "shot": {
                "contacts": [
                    {"ball": "yellow", "hit": "white"},
                    {"ball": "white", "hit": "pins", "pins": ["center"]},
                ]
            },
            "ruleset": {"center_alone": 10},
            "no_score": False,
        }
    )

    assert judge_line(line)["points"] == 10
    assert judge_line(line.replace('"no_score": false', '"no_score": true'))["points"] == 0


# -- call_command -------------------------------------------------------------------


def test_judge_writes_one_ruling_per_input_line_and_exits_cleanly(tmp_path):
    source = tmp_path / "shots.jsonl"
    source.write_text(f"{VALID}\n{VALID}\n{VALID}\n", encoding="utf-8")

    lines, _, status = call_judge(source)

    assert status == 0
    assert len(lines) == 3
    assert all(json.loads(line)["valid"] is True for line in lines)


def test_rejected_line_is_reported_in_place_and_the_others_are_still_judged(tmp_path):
    source = tmp_path / "shots.jsonl"
    source.write_text(f"{VALID}\n{REJECTED}\n\n{VALID}\n", encoding="utf-8")

    lines, errors, status = call_judge(source)

    answers = [json.loads(line) for line in lines]
    assert status != 0
    assert "2 line(s) rejected" in errors
    assert len(answers) == 4
    assert answers[0]["valid"] is True and answers[3]["valid"] is True
    assert answers[1] == {"error": answers[1]["error"], "field": "contacts[0].hit"}
    assert set(answers[2]) == {"error", "field"}


def test_spec_examples_are_judged_exactly_as_expected(tmp_path):
    lines, _, status = call_judge(FIXTURES / "judge.jsonl")

    expected = (FIXTURES / "judge.expected.jsonl").read_text(encoding="utf-8").splitlines()
    assert lines == expected
    assert status != 0  # the last example is rejected


def test_missing_file_is_a_command_error(tmp_path):
    with pytest.raises(CommandError, match="cannot read"):
        call_command("judge", str(tmp_path / "absent.jsonl"), stdout=io.StringIO())


def test_dash_reads_standard_input(monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"{VALID}\n{VALID}\n"))
    out = io.StringIO()

    call_command("judge", "-", stdout=out)

    assert len(out.getvalue().splitlines()) == 2


# -- The command line: a fresh process once, as a user runs it, then in this one -------


@pytest.mark.slow
def test_judge_in_a_fresh_process_gives_the_expected_file_and_a_non_zero_status():
    result = subprocess.run(
        [sys.executable, "manage.py", "judge", str(FIXTURES / "judge.jsonl")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
    )

    expected = (FIXTURES / "judge.expected.jsonl").read_text(encoding="utf-8")
    assert result.stdout == expected
    assert result.returncode != 0
    assert "rejected" in result.stderr


def test_judge_command_line_reads_standard_input_for_dash():
    result = run_judge("-", stdin=f"{VALID}\n{REJECTED}\n{VALID}\n")

    answers = [json.loads(line) for line in result.stdout.splitlines()]
    assert [set(answer) == {"error", "field"} for answer in answers] == [False, True, False]
    assert answers[1]["field"] == "contacts[0].hit"
    assert result.returncode != 0


def test_judge_command_line_rejects_deep_nesting_and_lone_surrogates_without_a_traceback(
    tmp_path,
):
    source = tmp_path / "shots.jsonl"
    hostile = ["[" * 100_000, '{"own": "white", "shot": {}, "\\ud800": 1}', '"\\udfff"']
    source.write_text("\n".join([VALID, *hostile, VALID]) + "\n", encoding="utf-8")

    result = run_judge(str(source))

    answers = [json.loads(line) for line in result.stdout.splitlines()]
    assert "Traceback" not in result.stderr
    assert len(answers) == 5
    assert answers[0]["valid"] is True and answers[4]["valid"] is True
    assert answers[1:4] == [{"error": a["error"], "field": None} for a in answers[1:4]]
    assert result.returncode == 1
    assert "3 line(s) rejected" in result.stderr


def test_judge_command_line_exits_zero_when_every_line_is_judged(tmp_path):
    source = tmp_path / "shots.jsonl"
    source.write_text(f"{VALID}\n", encoding="utf-8")

    result = run_judge(str(source))

    assert result.returncode == 0
    assert json.loads(result.stdout)["valid"] is True


def test_judge_command_line_refuses_a_missing_file_with_a_non_zero_status(tmp_path):
    result = run_judge(str(tmp_path / "absent.jsonl"))

    assert result.returncode != 0
    assert result.stdout == ""
    assert "cannot read" in result.stderr
