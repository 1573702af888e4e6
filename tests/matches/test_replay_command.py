"""`python manage.py replay FILE [--upto SEQ] [--live]`: the command-line contract."""

import copy
import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tests.support.command_line import Completed, command_line

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "matches"
EXAMPLE = FIXTURES / "spec_example.json"
SUMMARY = ("status", "winner", "games_won", "games", "next")


def run(*args: str, stdin: str = "") -> Completed:
    """The command line, in this process (tests/support/command_line.py)."""
    return command_line("replay", *args, stdin=stdin)


def replay(*args: str, **options: Any) -> dict[str, Any]:
    out = io.StringIO()
    call_command("replay", *args, stdout=out, **options)
    return json.loads(out.getvalue())


def expected(name: str) -> dict[str, Any]:
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


def summary(state: dict[str, Any]) -> dict[str, Any]:
    return {key: state[key] for key in SUMMARY}


def record_with(events: list[dict[str, Any]]) -> dict[str, Any]:
    example = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    return {**example, "events": events}


@pytest.fixture
def rejected_record(tmp_path: Path) -> Path:
    """The spec example with event 6 played by B instead of A."""
    record = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    record = copy.deepcopy(record)
    record["events"][5]["player"] = "B"
    path = tmp_path / "rejected.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    return path


@pytest.mark.slow
def test_replay_in_a_fresh_process_prints_the_amended_match_state_of_a_record():
    result = subprocess.run(
        [sys.executable, "manage.py", "replay", str(EXAMPLE)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )

    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert summary(json.loads(result.stdout)) == expected("spec_example.expected.json")


def test_replay_upto_live_shows_what_viewers_saw():
    result = run(str(EXAMPLE), "--upto", "43", "--live")

    assert result.returncode == 0, result.stderr
    state = json.loads(result.stdout)
    assert state["winner"] == "B"
    assert state["games_won"] == {"A": 1, "B": 2}


def test_replay_reads_standard_input_for_a_dash():
    result = run("-", stdin=EXAMPLE.read_text(encoding="utf-8"))

    assert result.returncode == 0, result.stderr
    assert summary(json.loads(result.stdout)) == expected("spec_example.expected.json")


def test_rejected_record_names_seq_and_field_on_stderr_and_prints_nothing(rejected_record):
    result = run(str(rejected_record))

    assert result.returncode != 0
    assert result.stdout == ""
    assert "seq 6" in result.stderr
    assert "player" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(
    ("text", "message"),
    [("{not json", "not JSON"), ("", "not JSON"), ('{"format": "x"}', "format")],
    ids=["broken", "empty", "wrong format"],
)
def test_malformed_input_is_refused_cleanly(text, message):
    result = run("-", stdin=text)

    assert result.returncode != 0
    assert result.stdout == ""
    assert message in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("upto", ["45", "-1", "1000"])
def test_upto_out_of_range_is_an_error(upto):
    result = run(str(EXAMPLE), "--upto", upto)

    assert result.returncode != 0
    assert result.stdout == ""
    assert "--upto" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_missing_file_is_refused_cleanly(tmp_path):
    result = run(str(tmp_path / "absent.json"))

    assert result.returncode != 0
    assert result.stdout == ""
    assert "cannot read" in result.stderr
    assert "Traceback" not in result.stderr


def test_call_command_replays_the_whole_record_as_amended():
    assert summary(replay(str(EXAMPLE))) == expected("spec_example.expected.json")


@pytest.mark.parametrize(
    ("options", "winner"),
    [({"upto": 43}, "A"), ({"upto": 43, "live": True}, "B"), ({"upto": 44, "live": True}, "A")],
)
def test_call_command_upto_and_live_choose_the_view(options, winner):
    assert replay(str(EXAMPLE), **options)["winner"] == winner


def test_call_command_upto_gives_the_state_after_that_event():
    state = replay(str(FIXTURES / "plain_2_1.json"), upto=3)

    assert state["seq"] == 3
    assert state["next"] == {
        "game": 1,
        "player": "A",
        "ball_in_hand": False,
        "zone": "lower",
        "break": True,
    }


def test_call_command_upto_zero_is_the_state_before_any_event():
    state = replay(str(EXAMPLE), upto=0)

    assert (state["status"], state["games"], state["next"]) == ("lag", [], None)


def test_call_command_refuses_upto_past_the_last_event():
    with pytest.raises(CommandError, match="--upto"):
        replay(str(EXAMPLE), upto=45)


def test_call_command_rejected_record_exits_non_zero_with_seq_and_field(rejected_record, capsys):
    out = io.StringIO()
    with pytest.raises(SystemExit) as exited:
        call_command("replay", str(rejected_record), stdout=out)

    assert exited.value.code != 0
    assert out.getvalue() == ""
    assert "seq 6, player" in capsys.readouterr().err


def test_call_command_refuses_invalid_json(tmp_path, capsys):
    path = tmp_path / "broken.json"
    path.write_text('{"format": ', encoding="utf-8")

    with pytest.raises(SystemExit) as exited:
        replay(str(path))

    assert exited.value.code == 1
    assert "rejected: not JSON" in capsys.readouterr().err


def test_call_command_reads_a_record_without_a_lag(tmp_path):
    path = tmp_path / "short.json"
    events = [
        {"type": "game_started", "game": 1, "breaker": "A"},
        {"type": "shot", "contacts": [{"ball": "white", "hit": "yellow"}]},
    ]
    path.write_text(json.dumps(record_with(events)), encoding="utf-8")

    state = replay(str(path))

    assert state["shots"][0]["player"] == "A"
    assert state["next"]["player"] == "B"
