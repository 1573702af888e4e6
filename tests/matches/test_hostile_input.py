"""Bad input to the notation and to `judge` and `replay` is refused, never a traceback.

Every number has a range, every text is refused (naming its field) when it holds what a
database cannot store, JSON is nested at most MAX_DEPTH levels, and an error message
quotes at most a short excerpt of what was sent. No database: the store's side of the
same guarantees is in `tests/store/test_hostile_input.py`.
"""

from __future__ import annotations

import io
import json
import math
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matches.domain.chain import header_hash
from matches.domain.errors import Refused
from matches.domain.events import parse_event, parse_record
from matches.domain.fold import VIEWS, check_log, fold
from matches.domain.header import parse_header
from matches.domain.judging import judge_line
from matches.domain.notation import (
    LARGEST_NUMBER,
    LONGEST_INTERMISSION,
    MAX_DEPTH,
    MAX_EVENTS,
    canonical_json,
    check_json,
    load_json,
)
from matches.domain.rules import CUE_BALLS, MAX_GAMES, SURFACE_X, SURFACE_Y, TABLE_LENGTH, Ruleset
from tests.support.hostile import (
    FILE_TEXTS,
    JSON_TEXTS,
    JSON_VALUES,
    MEGABYTE,
    NUMBERS,
    SHORT_MESSAGE,
    TEXTS,
    events,
    example_record,
    json_text,
    nested,
    plausible,
    records,
    without_lone_surrogates,
)

PROPERTY = settings(
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
# The commands write to a file of the test's own directory, example after example.
COMMAND_PROPERTY = settings(
    PROPERTY,
    suppress_health_check=[*PROPERTY.suppress_health_check, HealthCheck.function_scoped_fixture],
)
HEADER = parse_header(example_record()["match"])[1]
BIG = "k" * MEGABYTE


def assert_short(error: Refused) -> None:
    """An error names its field and says why in a few words, whatever was sent."""
    assert isinstance(error.message, str) and error.message
    assert error.field is None or isinstance(error.field, str)
    assert len(str(error)) <= SHORT_MESSAGE, str(error)[:SHORT_MESSAGE]


def record_with(change) -> dict[str, Any]:
    record = example_record()
    change(record)
    return record


def event(**fields: Any) -> dict[str, Any]:
    return dict(fields)


# -- Any value, any text: Refused or an answer, nothing else -------------------------------


@PROPERTY
@given(value=JSON_VALUES | records() | events())
def test_any_json_value_given_to_the_notation_is_parsed_or_refused_and_never_a_traceback(value):
    calls = {
        "parse_record": lambda: parse_record(value),
        "parse_header": lambda: parse_header(value),
        "parse_event": lambda: parse_event(value, HEADER, 1),
        "check_json": lambda: check_json(value, None),
    }
    for call in calls.values():
        try:
            call()
        except Refused as error:
            assert_short(error)


@PROPERTY
@given(record=records())
def test_any_record_is_folded_or_refused_and_what_is_folded_renders_as_json_and_hashes(record):
    try:
        parsed = parse_record(record)
        checked = check_log(parsed.header, parsed.events)
    except Refused as error:
        assert_short(error)
        return

    header_hash(parsed.header)
    for event_ in parsed.events:
        canonical_json(event_)
    for view in VIEWS:
        state = fold(parsed.header, checked, view=view)
        json.dumps(state, allow_nan=False, ensure_ascii=False).encode("utf-8")


@PROPERTY
@given(text=JSON_TEXTS | st.binary())
def test_any_text_given_to_load_json_is_loaded_or_refused_and_what_it_holds_checked(text):
    try:
        value = check_json(load_json(text), None) or load_json(text)
    except Refused as error:
        assert_short(error)
        return

    canonical_json(value)  # what the store may keep, the hash chain can hash


RULESETS = st.dictionaries(
    st.sampled_from([parameter.name for parameter in fields(Ruleset)]) | TEXTS,
    NUMBERS | st.booleans() | JSON_VALUES,
    max_size=3,
)
JUDGE_REQUESTS = st.fixed_dictionaries(
    {"own": st.sampled_from(CUE_BALLS) | TEXTS, "shot": plausible("facts")},
    optional={"ruleset": RULESETS | JSON_VALUES, "no_score": st.booleans() | JSON_VALUES},
)
JUDGE_LINES = JUDGE_REQUESTS.map(json_text) | JSON_TEXTS


@PROPERTY
@given(line=JUDGE_LINES)
def test_any_line_given_to_judge_line_gets_a_ruling_or_an_error_and_field(line):
    answer = judge_line(line)

    written = json.dumps(answer, allow_nan=False, ensure_ascii=False)
    written.encode("utf-8")
    if "error" in answer:
        assert set(answer) == {"error", "field"}
        assert len(written) <= SHORT_MESSAGE, written[:SHORT_MESSAGE]


def call_judge(path: Path) -> tuple[list[str], str, int]:
    """Return judge's output lines (split on newlines only: an answer may quote a U+2028)."""
    out, err = io.StringIO(), io.StringIO()
    status = 0
    try:
        call_command("judge", str(path), stdout=out, stderr=err)
    except SystemExit as exit_:
        status = exit_.code
    return out.getvalue().split("\n")[:-1], err.getvalue(), status


@COMMAND_PROPERTY
@given(lines=st.lists(JUDGE_LINES.map(without_lone_surrogates), max_size=5))
def test_the_judge_command_answers_any_lines_one_answer_per_line(tmp_path, lines):
    lines = [line.replace("\n", " ") for line in lines]
    path = tmp_path / "shots.jsonl"
    path.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")

    answers, err, status = call_judge(path)

    assert len(answers) == len(lines)
    rejected = sum("error" in json.loads(answer) for answer in answers)
    assert status == (1 if rejected else 0)
    assert (f"{rejected} line(s) rejected" in err) == bool(rejected)


def call_replay(path: Path, capsys) -> tuple[str, str, int | str | None]:
    """Run `replay` on a file: its output, its error text and how it ended."""
    capsys.readouterr()
    out = io.StringIO()
    ended: int | str | None = 0
    try:
        call_command("replay", str(path), stdout=out)
    except SystemExit as exit_:
        ended = exit_.code
    except CommandError as error:
        ended = f"CommandError: {error}"
    return out.getvalue(), capsys.readouterr().err, ended


@COMMAND_PROPERTY
@given(text=FILE_TEXTS)
def test_the_replay_command_prints_a_state_or_a_short_rejection_for_any_file(
    tmp_path, capsys, text
):
    path = tmp_path / "record.json"
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")

    out, err, ended = call_replay(path, capsys)

    if ended == 0:
        json.loads(out)
    elif ended == 1:
        assert err.startswith("rejected: ")
        assert len(err) <= SHORT_MESSAGE + len("rejected: \n"), err[:SHORT_MESSAGE]
    else:
        assert isinstance(ended, str) and "cannot read" in ended


# -- Nesting ---------------------------------------------------------------------------


def test_json_nested_as_deep_as_the_notation_allows_loads():
    assert load_json("[" * MAX_DEPTH + "]" * MAX_DEPTH) == nested(MAX_DEPTH)


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 970, 1000, 100_000])
def test_json_nested_deeper_than_the_notation_allows_is_refused_at_any_depth(depth):
    text = "[" * depth + "]" * depth

    with pytest.raises(Refused, match="nested") as refusal:
        check_json(load_json(text), None)
    # Too deep for the parser: no field; deep enough to parse: the path down to the limit.
    assert refusal.value.field in (None, "[0]" * MAX_DEPTH)
    assert "nested" in judge_line('{"own": "white", "shot": ' + text + "}")["error"]
    with pytest.raises(Refused, match="nested") as refusal:
        parse_record(record_with(lambda r: r["match"]["players"]["A"].update(club=nested(depth))))
    assert refusal.value.field.startswith("match.players.A.club[0]")
    with pytest.raises(Refused, match="nested") as refusal:
        parse_event(event(type="shot", player="A", contacts=nested(depth)), HEADER, 9)
    assert (refusal.value.field.startswith("contacts[0]"), refusal.value.seq) == (True, 9)


@pytest.mark.parametrize("depth", [970, 100_000])
def test_replay_refuses_a_record_nested_too_deep_without_a_traceback(tmp_path, capsys, depth):
    path = tmp_path / "deep.json"
    path.write_text('{"format": ' + "[" * depth + "]" * depth + "}", encoding="utf-8")

    _, err, ended = call_replay(path, capsys)

    assert ended == 1
    assert err.startswith("rejected: ") and "nested" in err


# -- Numbers: each has a range ------------------------------------------------------------

TOO_BIG_FOR_A_FLOAT = 10**400
PAST_THE_DIGIT_LIMIT = 10**4301  # an int Python can hold but not print (4,300 digits)
NOT_FINITE = [math.nan, math.inf, -math.inf]


def lag(distance: Any) -> dict[str, Any]:
    return event(type="lag", A={"distance": distance}, B={"distance": 150})


def placed(x: Any, y: Any) -> dict[str, Any]:
    return event(type="ball_placed", ball="white", pos=[x, y], reason="break")


# (event, field, values refused, values accepted): the range of each number of an event.
EVENT_RANGES = [
    pytest.param(
        lag,
        "A.distance",
        [-0.5, TABLE_LENGTH + 0.5, TOO_BIG_FOR_A_FLOAT, -TOO_BIG_FOR_A_FLOAT, *NOT_FINITE],
        [0, TABLE_LENGTH, 1420.25],
        id="lag distance",
    ),
    pytest.param(
        lambda x: placed(x, 400),
        "pos[0]",
        [SURFACE_X[0] - 0.25, SURFACE_X[1] + 0.25, TOO_BIG_FOR_A_FLOAT, *NOT_FINITE],
        [SURFACE_X[0], SURFACE_X[1]],
        id="placement x",
    ),
    pytest.param(
        lambda y: placed(700, y),
        "pos[1]",
        [SURFACE_Y[0] - 0.25, SURFACE_Y[1] + 0.25, -TOO_BIG_FOR_A_FLOAT, *NOT_FINITE],
        [SURFACE_Y[0], SURFACE_Y[1]],
        id="placement y",
    ),
    pytest.param(
        lambda x: event(type="shot", player="A", rest={"white": [x, 400]}),
        "rest.white[0]",
        [TOO_BIG_FOR_A_FLOAT, SURFACE_X[1] + 1, *NOT_FINITE],
        [SURFACE_X[0]],
        id="rest",
    ),
    pytest.param(
        lambda minutes: event(type="intermission", minutes=minutes),
        "minutes",
        [0, -1, LONGEST_INTERMISSION + 0.5, TOO_BIG_FOR_A_FLOAT, *NOT_FINITE],
        [0.5, 5, LONGEST_INTERMISSION],
        id="intermission minutes",
    ),
    pytest.param(
        lambda game: event(type="game_started", game=game, breaker="A"),
        "game",
        [0, MAX_GAMES + 1, 1.0, TOO_BIG_FOR_A_FLOAT, True],
        [1, MAX_GAMES],
        id="game",
    ),
    pytest.param(
        lambda shot: event(type="shot_retracted", shot=shot, reason="entered twice"),
        "shot",
        [0, MAX_EVENTS + 1, TOO_BIG_FOR_A_FLOAT, math.nan],
        [1, MAX_EVENTS],
        id="retracted shot",
    ),
    pytest.param(
        lambda shot: event(type="shot_amended", shot=shot, facts={}, reason="video"),
        "shot",
        [0, MAX_EVENTS + 1, -TOO_BIG_FOR_A_FLOAT],
        [1, MAX_EVENTS],
        id="amended shot",
    ),
]


@pytest.mark.parametrize(("make", "field", "refused", "accepted"), EVENT_RANGES)
def test_a_number_of_an_event_is_refused_outside_its_range_naming_its_field(
    make, field, refused, accepted
):
    for value in refused:
        with pytest.raises(Refused) as refusal:
            parse_event(make(value), HEADER, 7)
        assert (refusal.value.field, refusal.value.seq) == (field, 7), value
        assert_short(refusal.value)
    for value in accepted:
        parse_event(make(value), HEADER, 7)


def test_an_integer_past_pythons_digit_limit_is_refused_as_any_other_number_out_of_range():
    with pytest.raises(Refused) as refusal:
        parse_event(lag(PAST_THE_DIGIT_LIMIT), HEADER, 1)

    assert (refusal.value.field, refusal.value.seq) == ("A.distance", 1)
    assert_short(refusal.value)


def ruleset_range(name: str) -> tuple[list[Any], list[Any]]:
    """Return values of a ruleset parameter refused and accepted (domain/rules/ruleset.py)."""
    if name == "pin_pitch":
        return [61.4, 200.5, TOO_BIG_FOR_A_FLOAT, *NOT_FINITE, "71.5"], [61.5, 71.5, 200]
    if name == "target":
        return [0, 1001, TOO_BIG_FOR_A_FLOAT, 60.0], [1, 1000]
    if name == "best_of":
        return [0, 2, MAX_GAMES + 2, TOO_BIG_FOR_A_FLOAT], [1, MAX_GAMES]
    if name == "cumulative_fouls":
        return [0, "true", None], [True, False]
    return [-1, 101, TOO_BIG_FOR_A_FLOAT, 2.5], [0, 100]


@pytest.mark.parametrize("name", [parameter.name for parameter in fields(Ruleset)])
def test_a_ruleset_parameter_is_refused_outside_its_range_naming_it(name):
    refused, accepted = ruleset_range(name)
    for value in refused:
        with pytest.raises(Refused) as refusal:
            parse_header({**example_record()["match"], "ruleset": {name: value}})
        assert refusal.value.field == f"match.ruleset.{name}", value
        answer = judge_line(json_text({"own": "white", "shot": {}, "ruleset": {name: value}}))
        assert answer["field"] == f"ruleset.{name}", (value, answer)
    for value in accepted:
        parse_header({**example_record()["match"], "ruleset": {name: value}})
        assert "error" not in judge_line(
            json.dumps({"own": "white", "shot": {}, "ruleset": {name: value}})
        )


@pytest.mark.parametrize(
    "written",
    [
        pytest.param("1" + "0" * 400, id="10**400"),
        pytest.param("-1" + "0" * 400, id="-10**400"),
        "1e400",
        "NaN",
        "Infinity",
        "-Infinity",
        pytest.param("9" * 4301, id="4301 digits"),
    ],
)
def test_a_number_no_float_can_hold_in_a_judge_line_is_refused(written):
    answer = judge_line('{"own": "white", "shot": {}, "ruleset": {"pin_pitch": ' + written + "}}")

    assert set(answer) == {"error", "field"}
    assert answer["field"] in ("ruleset.pin_pitch", None)
    assert len(json.dumps(answer)) <= SHORT_MESSAGE


@pytest.mark.parametrize("written", [str(LARGEST_NUMBER + 1), "1e16", "-1e16"])
def test_any_number_larger_than_the_largest_is_refused_wherever_it_stands(written):
    with pytest.raises(Refused, match="must be a number from") as refusal:
        check_json(
            load_json('{"match": {"players": {"A": {"rating": [1, ' + written + "]}}}}"), None
        )

    assert refusal.value.field == "match.players.A.rating[1]"


# -- NaN, NUL, lone surrogates: what a store cannot keep --------------------------------------


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf])
def test_a_number_that_is_not_finite_in_a_players_extra_key_is_refused_naming_it(value):
    record = record_with(lambda r: r["match"]["players"]["A"].update(rating=value))

    with pytest.raises(Refused) as refusal:
        parse_record(record)

    assert refusal.value.field == "match.players.A.rating"


@pytest.mark.parametrize("written", ["NaN", "Infinity", "-Infinity"])
def test_replay_refuses_nan_in_a_players_extra_key_naming_it(tmp_path, capsys, written):
    text = json.dumps(example_record()).replace(
        '"name": "Iryna Shevchenko"', f'"name": "Iryna Shevchenko", "rating": {written}'
    )
    path = tmp_path / "nan.json"
    path.write_text(text, encoding="utf-8")

    out, err, ended = call_replay(path, capsys)

    assert (ended, out) == (1, "")
    assert err.startswith("rejected: match.players.A.rating: ")


def with_text(where: str, value: str) -> dict[str, Any]:
    """Return the example record with one text replaced: `where` is a path, as a field names it."""
    record = example_record()
    target: Any = record
    *path, last = where.replace("[", ".").replace("]", "").split(".")
    for key in path:
        target = target[int(key)] if key.isdigit() else target.setdefault(key, {})
    target[last] = value
    return record


TEXT_FIELDS = [
    ("match.players.A.name", "match.players.A.name", None),
    ("match.players.B.federation_id", "match.players.B.federation_id", None),
    ("match.players.A.club", "match.players.A.club", None),
    ("match.stage", "match.stage", None),
    ("match.table", "match.table", None),
    ("match.referee.name", "match.referee.name", None),
    ("match.referee.username", "match.referee.username", None),
    ("events.2.breaker", "breaker", 3),
    ("events.0.by", "by", 1),
    ("events.0.note", "note", 1),
]


@pytest.mark.parametrize("bad", ["\x00", "Olena\x00", "\ud800", "Olena\udfff"])
@pytest.mark.parametrize(("where", "field", "seq"), TEXT_FIELDS)
def test_text_a_database_cannot_store_is_refused_naming_its_field(where, field, seq, bad):
    with pytest.raises(Refused) as refusal:
        parse_record(with_text(where, bad))

    assert (refusal.value.field, refusal.value.seq) == (field, seq)


@pytest.mark.parametrize("bad", ["na\x00me", "\ud800"])
def test_a_key_a_database_cannot_store_is_refused_naming_where_it_stands(bad):
    with pytest.raises(Refused) as refusal:
        parse_record(record_with(lambda r: r["match"]["players"]["A"].update({bad: 1})))

    assert refusal.value.field == "match.players.A"


# -- Error messages quote a short excerpt ----------------------------------------------------


def refusal_of(call) -> Refused:
    with pytest.raises(Refused) as refusal:
        call()
    return refusal.value


MEGABYTE_INPUTS = [
    pytest.param(lambda: parse_event({"type": "lag", BIG: 1}, HEADER, 1), id="unknown event key"),
    pytest.param(lambda: parse_event({"type": BIG}, HEADER, 1), id="unknown event type"),
    pytest.param(
        lambda: parse_event({"type": "shot", "player": BIG}, HEADER, 1), id="unknown player"
    ),
    pytest.param(
        lambda: parse_event(
            {"type": "shot", "player": "A", "contacts": [{"ball": BIG, "hit": "red"}]}, HEADER, 1
        ),
        id="unknown ball",
    ),
    pytest.param(
        lambda: parse_event({"type": "shot", "player": "A", "rest": {BIG: [700, 400]}}, HEADER, 1),
        id="unknown ball at rest",
    ),
    pytest.param(
        lambda: parse_event(
            {"type": "lag", "A": {"distance": 1, BIG: 1}, "B": {"distance": 1}}, HEADER, 1
        ),
        id="unknown lag key",
    ),
    pytest.param(
        lambda: check_json(load_json('{"' + BIG + '": NaN}'), None), id="NaN under a long key"
    ),
    pytest.param(
        lambda: parse_record(
            record_with(lambda r: r["match"]["players"]["A"].update({BIG: {"x": math.nan}}))
        ),
        id="NaN under a long key of a player",
    ),
    pytest.param(lambda: parse_record({"format": BIG}), id="unknown format"),
    pytest.param(
        lambda: parse_record(record_with(lambda r: r["match"]["balls"].update(A=BIG))),
        id="unknown ball of a player",
    ),
    pytest.param(
        lambda: parse_record(record_with(lambda r: r["match"].update(ruleset={BIG: 1}))),
        id="unknown ruleset parameter",
    ),
]


@pytest.mark.parametrize("call", MEGABYTE_INPUTS)
def test_an_error_quotes_at_most_a_short_excerpt_of_a_megabyte_sent(call):
    error = refusal_of(call)

    assert_short(error)
    assert BIG[:100] not in str(error)


@pytest.mark.parametrize(
    "request_",
    [
        pytest.param({"own": "white", "shot": {}, BIG: 1}, id="unknown key"),
        pytest.param({"own": BIG, "shot": {}}, id="unknown own ball"),
        pytest.param({"own": "white", "shot": {"contacts": [{"ball": BIG}]}}, id="unknown ball"),
        pytest.param({"own": "white", "shot": {BIG: 1}}, id="unknown shot fact"),
        pytest.param({"own": "white", "shot": {}, "ruleset": {"target": BIG}}, id="ruleset value"),
        pytest.param(
            {"own": "white", "shot": {}, "ruleset": {BIG: 1}},
            id="unknown ruleset parameter",
        ),
    ],
)
def test_a_judge_line_with_a_megabyte_gets_a_short_answer(request_):
    answer = judge_line(json.dumps(request_))

    assert set(answer) == {"error", "field"}
    assert len(json.dumps(answer)) <= SHORT_MESSAGE


# -- judge answers every line, split on newlines only -------------------------------------

VALID = '{"own": "white", "shot": {"contacts": [{"ball": "white", "hit": "yellow"}]}}'
# Characters str.splitlines() takes for line ends; JSON Lines ends a line at "\n" only.
# JSON allows the first three inside a string; the others are control characters it refuses.
NOT_LINE_ENDS = "\u2028\u2029\x85"
CONTROLS = "\x0b\x0c\x1c\x1d\x1e"


def test_judge_answers_every_line_and_goes_on_past_the_rejected_ones(tmp_path):
    lines = [
        VALID,
        '{"own": "white' + NOT_LINE_ENDS + '", "shot": {}}',
        '{"own": "white", "shot": {}, "a' + NOT_LINE_ENDS + 'b": 1}',
        '{"own": "white", "shot": {}, "a' + CONTROLS + 'b": 1}',
        "{not json",
        "",
        '{"own": "white", "shot": ' + "[" * 100_000 + "]" * 100_000 + "}",
        '{"own": "white", "shot": {}, "ruleset": {"pin_pitch": 1' + "0" * 400 + "}}",
        '{"own": "white", "shot": {}, "ruleset": {"target": ' + "9" * 4301 + "}}",
        VALID,
    ]
    path = tmp_path / "shots.jsonl"
    path.write_text("\n".join(lines[:-1]) + "\n" + lines[-1] + "\r\n", encoding="utf-8")

    answers, err, status = call_judge(path)

    assert len(answers) == len(lines)
    answers = [json.loads(answer) for answer in answers]
    assert "error" not in answers[0] and answers[0] == answers[-1]
    assert answers[1]["field"] == "own"
    assert answers[2]["field"] == "a" + NOT_LINE_ENDS + "b"
    assert answers[3]["error"].startswith("not JSON: Invalid control character")
    assert [answer["field"] for answer in answers[3:7]] == [None, None, None, None]
    assert answers[7]["field"] == "ruleset.pin_pitch"
    assert answers[8]["error"].startswith("not JSON")
    assert (status, err.strip()) == (1, "8 line(s) rejected")


def test_judge_reads_a_last_line_without_a_newline_and_a_file_of_one_blank_line(tmp_path):
    path = tmp_path / "shots.jsonl"
    path.write_text(VALID, encoding="utf-8")
    assert call_judge(path)[0] == [json.dumps(judge_line(VALID))]

    path.write_text("\n", encoding="utf-8")
    answers, _, status = call_judge(path)
    assert ([json.loads(answer)["field"] for answer in answers], status) == ([None], 1)


@pytest.mark.parametrize("source", ["file", "standard input"])
def test_judge_takes_a_bare_carriage_return_for_json_whitespace_not_a_line_end(
    tmp_path, monkeypatch, source
):
    text = VALID + "\r\n\r" + VALID + "\n" + "\r{not json\r\n"
    path = tmp_path / "shots.jsonl"
    path.write_bytes(text.encode("utf-8"))
    if source == "standard input":
        monkeypatch.setattr("sys.stdin", io.StringIO(text))
        path = Path("-")

    answers, err, status = call_judge(path)

    ruling = json.dumps(judge_line(VALID))
    assert answers[:2] == [ruling, ruling]
    assert [json.loads(answer)["field"] for answer in answers[2:]] == [None]
    assert (status, err.strip()) == (1, "1 line(s) rejected")


# -- replay: a rejection, never a traceback -----------------------------------------------


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        pytest.param(
            lambda text: text.replace('"distance": 150', '"distance": 1' + "0" * 400),
            "rejected: seq 2, A.distance: must be a number from",
            id="integer no float can hold",
        ),
        pytest.param(
            lambda text: text.replace('"distance": 150', '"distance": ' + "9" * 4301),
            "rejected: not JSON: ",
            id="integer past the digit limit",
        ),
        pytest.param(
            lambda text: text.replace('"distance": 150', '"distance": 1e400'),
            "rejected: seq 2, A.distance: must be a number from",
            id="float past the largest",
        ),
        pytest.param(
            lambda text: text.replace("Iryna Shevchenko", "Iryna\\u0000Shevchenko"),
            "rejected: match.players.A.name: must not contain a NUL character",
            id="NUL in a name",
        ),
        pytest.param(
            lambda text: text.replace('"UA-501"', '"UA-\\u0000501"'),
            "rejected: match.players.A.federation_id: must not contain a NUL character",
            id="NUL in a federation id",
        ),
        pytest.param(
            lambda text: text.replace('"target": 30', '"target": 30, "pin_pitch": 1e999'),
            "rejected: match.ruleset.pin_pitch: ",
            id="pin pitch infinite",
        ),
        pytest.param(
            lambda text: text.replace('"target": 30', '"target": 30, "pin_pitch": 1' + "0" * 400),
            "rejected: match.ruleset.pin_pitch: ",
            id="pin pitch no float can hold",
        ),
    ],
)
def test_replay_rejects_a_record_with_a_number_or_text_out_of_bounds(
    tmp_path, capsys, change, expected
):
    path = tmp_path / "record.json"
    path.write_text(change(json.dumps(example_record())), encoding="utf-8")

    out, err, ended = call_replay(path, capsys)

    assert (ended, out) == (1, "")
    assert err.startswith(expected), err[:200]


# -- Ids and times end where they end -------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("id", "a" * 100 + "\n"),
        ("id", "example-1\n"),
        ("competition", "examples\n"),
    ],
)
def test_an_id_followed_by_a_newline_is_no_slug(key, value):
    with pytest.raises(Refused, match="must be a slug") as refusal:
        parse_record(record_with(lambda r: r["match"].update({key: value})))

    assert refusal.value.field == f"match.{key}"


def test_a_recording_time_followed_by_a_newline_is_refused():
    with pytest.raises(Refused) as refusal:
        parse_event(event(type="intermission", at="2026-11-29T10:00:00Z\n"), HEADER, 4)

    assert (refusal.value.field, refusal.value.seq) == ("at", 4)


# -- What PostgreSQL's jsonb would not keep as written ----------------------------------------


@pytest.mark.parametrize(
    ("extra", "field"),
    [
        ({"rating": -0.0}, "match.players.B.rating"),
        ({"ratings": [1.5, -0.0]}, "match.players.B.ratings[1]"),
        ({"club": {"since": -0.0}}, "match.players.B.club.since"),
    ],
)
def test_a_negative_zero_in_a_players_entry_is_refused_naming_it(extra, field):
    with pytest.raises(Refused, match="-0.0") as refusal:
        parse_record(record_with(lambda r: r["match"]["players"]["B"].update(extra)))

    assert refusal.value.field == field


def test_a_zero_and_a_negative_number_in_a_players_entry_are_kept_as_written():
    extra = {"rating": 0.0, "handicap": -0.5, "wins": 0}
    record = record_with(lambda r: r["match"]["players"]["B"].update(extra))

    assert parse_record(record).header.players["B"] == {
        **example_record()["match"]["players"]["B"],
        **extra,
    }
