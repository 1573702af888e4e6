"""Downloads: a match's record, a competition's zip, the archive's CSV; the record's JSON Schema."""

from __future__ import annotations

import copy
import csv
import io
import json
import zipfile
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator, FormatChecker

from matches.domain.errors import Refused
from matches.domain.events import parse_record
from matches.domain.simulator import iter_competition
from matches.models import Event, Match
from matches.record_schema import record_schema
from matches.records import record_export, record_import
from matches.services import competition_create, match_create, player_enter
from replay.projections import projector
from replay.queries.csv_cells import csv_cell
from replay.queries.standings_reader import standings_get
from tests.support.exports import FORMULAS, empty_the_database

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
GOLDEN = sorted(
    path for path in (FIXTURES / "matches").glob("*.json") if ".expected" not in path.name
)
RECORDS = [*GOLDEN, FIXTURES / "records" / "match.json"]


def read(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def schema_of(client) -> Draft202012Validator:
    response = client.get("/schemas/match-record.json")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/schema+json"
    schema = json.loads(response.content)
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema, format_checker=FormatChecker())


def first(record: dict, kind: str) -> dict:
    """Return the first event of a kind (a shot with contacts) in a record."""
    return next(
        event
        for event in record["events"]
        if event["type"] == kind and (kind != "shot" or event.get("contacts"))
    )


# -- The JSON Schema --------------------------------------------------------------------


@pytest.mark.parametrize("path", RECORDS, ids=lambda path: path.stem)
def test_every_golden_record_and_its_export_conform_to_the_served_schema(db, client, path):
    validator = schema_of(client)
    record = read(path)
    validator.validate(record)

    exported = record_export(record_import(record).match_id)

    validator.validate(exported)


def test_every_simulated_match_exported_conforms_to_the_schema(db, client):
    validator = schema_of(client)
    for record in iter_competition(3, 8, competition="schema"):
        exported = record_export(record_import(record, by="demo").match_id)
        errors = sorted(validator.iter_errors(exported), key=lambda error: error.path)
        assert not errors, errors[0].message


@pytest.mark.parametrize(
    "change",
    [
        lambda r: r.update(format="carambole.match/2"),
        lambda r: r["match"]["players"].pop("B"),
        lambda r: r["match"]["balls"].update(A="red"),
        lambda r: r["events"][0].update(type="teleport"),
        lambda r: r["events"][0].update(colour="blue"),
        lambda r: first(r, "shot")["contacts"][0].update(hit="ceiling"),
        lambda r: first(r, "ball_placed").update(pos=[700]),
        lambda r: r["match"]["ruleset"].update(best_of="three"),
    ],
    ids=[
        "format",
        "a-player-missing",
        "a-red-cue-ball",
        "an-unknown-event",
        "an-unknown-key",
        "an-unknown-contact",
        "a-position-of-one-number",
        "a-ruleset-in-words",
    ],
)
def test_the_schema_refuses_what_an_import_refuses(db, client, change):
    validator = schema_of(client)
    record = copy.deepcopy(read(FIXTURES / "records" / "match.json"))
    change(record)

    assert not validator.is_valid(record)
    with pytest.raises(Exception):  # noqa: B017 - whichever error the import names
        record_import(record)


def imports(record: dict) -> bool:
    """Say whether an import takes `record` (it refuses it otherwise)."""
    try:
        parse_record(record)
    except Refused:
        return False
    return True


@pytest.mark.parametrize(
    "federation_id",
    ["UA/7", "~5", "a b", "x" * 100, "😀" * 100, "", None]
    + ["x" * 101, "UA\t7", "UA-7\n", "\u2028", "\x85", " UA", "UA\u3000", " ", 7],
)
def test_the_schema_takes_a_federation_id_as_an_import_does(federation_id):
    validator = Draft202012Validator(record_schema())
    record = copy.deepcopy(read(FIXTURES / "records" / "match.json"))
    record["match"]["players"]["B"]["federation_id"] = federation_id

    assert validator.is_valid(record) == imports(record)


# -- A lag recorded by its winner -------------------------------------------------------


def example(*events: dict) -> dict:
    """Return the example record with `events` in place of its own."""
    record = copy.deepcopy(read(FIXTURES / "records" / "match.json"))
    record["events"] = list(events)
    return record


START = {"type": "game_started", "game": 1, "breaker": "B"}


@pytest.mark.parametrize(
    "lag",
    [
        {"type": "lag", "winner": "B"},
        {"type": "lag", "winner": "B", "A": {"fault": "long_cushion"}, "B": {"distance": 90}},
        {"type": "lag", "winner": "B", "A": {"distance": None}},
        {"type": "lag", "winner": None, "A": {"distance": 150}, "B": {"distance": 90}},
        {"type": "lag", "A": {"distance": 150}, "B": {"distance": 90}},
        {"type": "lag", "winner": "C"},
        {"type": "lag", "winner": "B", "A": None},
        {"type": "lag", "winner": "B", "B": {"distance": 3000}},
        {"type": "lag", "winner": None, "A": {"distance": 150}},
        {"type": "lag", "A": {"distance": 150}, "B": {"fault": "crossed"}},
        {"type": "lag", "winner": "B", "B": {"distance": 90, "speed": 3}},
    ],
    ids=[
        "winner-alone",
        "winner-a-fault-and-a-distance",
        "winner-a-distance-null",
        "winner-null-two-distances",
        "two-distances",
        "winner-no-player",
        "winner-a-result-null",
        "winner-a-distance-off-the-table",
        "winner-null-one-distance",
        "no-winner-one-distance",
        "winner-an-unknown-key",
    ],
)
def test_the_schema_takes_a_lag_as_an_import_does(lag):
    validator = Draft202012Validator(record_schema())
    record = example(lag, START)

    assert validator.is_valid(record) == imports(record)


def test_a_lag_recorded_by_its_winner_alone_exports_and_imports_elsewhere_unchanged(db, client):
    validator = schema_of(client)
    match_id = record_import(example({"type": "lag", "winner": "B"}, START)).match_id

    exported = record_export(match_id)

    validator.validate(exported)
    assert {k: v for k, v in exported["events"][0].items() if k in ("type", "winner", "A")} == {
        "type": "lag",
        "winner": "B",
    }
    empty_the_database()
    assert record_import(exported, by="elsewhere").outcome == "created"
    assert record_export(match_id) == exported
    state = client.get(f"/api/matches/{match_id}/state").json()
    assert [(lag["winner"], lag["reason"]) for lag in state["lags"]] == [
        ("B", "the referee's word")
    ]


def test_a_record_whose_lag_winner_the_distances_contradict_is_refused_and_nothing_stored(db):
    lag = {"type": "lag", "winner": "A", "A": {"distance": 150}, "B": {"distance": 90}}

    with pytest.raises(Refused) as refused:
        record_import(example(lag, START))

    assert (refused.value.seq, refused.value.field, refused.value.code) == (
        1,
        "winner",
        "lag_won_by",
    )
    assert not Match.objects.exists() and not Event.objects.exists()


# The first events of the example record as stamped before a lag could name its winner:
# the hashes of a record written then stay what they were.
STAMPED = [
    {"seq": 1, "hash": "2f1d01a90155dde7e7b32772db4982b751b928b2d5cdd09c2c4c53ef82aed28e"},
    {"seq": 2, "hash": "1360501b60ca0bac65c4470925bb0cd127004cd758ad6f191ba94d46df5dfe50"},
    {"seq": 3, "hash": "a9ea93ae2e396eed2806d52611fb2085b5e25398e25a859969ad66dd9ec53ed9"},
]


def test_a_record_of_measured_lags_keeps_the_hashes_it_was_written_with(db):
    own = read(FIXTURES / "records" / "match.json")["events"][:3]
    events = [
        {**event, **stamp, "at": "2026-11-29T14:00:00Z", "by": "referee"}
        for event, stamp in zip(own, STAMPED, strict=True)
    ]

    match_id = record_import(example(*events)).match_id

    assert [event["hash"] for event in record_export(match_id)["events"]] == [
        stamp["hash"] for stamp in STAMPED
    ]


# -- A match's record -------------------------------------------------------------------


def test_a_match_record_downloads_as_a_named_json_file_that_imports_elsewhere_unchanged(db, client):
    match_id = record_import(read(FIXTURES / "records" / "match.json")).match_id

    response = client.get(f"/matches/{match_id}/record.json")

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response["Content-Disposition"] == f'attachment; filename="{match_id}.carambole.json"'
    downloaded = json.loads(response.content)
    assert downloaded == record_export(match_id)
    empty_the_database()
    imported = record_import(downloaded, by="elsewhere")
    assert imported.outcome == "created"
    assert record_export(match_id) == downloaded


def test_the_record_of_no_match_is_a_404(db, client):
    assert client.get("/matches/nothing-here/record.json").status_code == 404


def test_the_replay_page_links_the_download(db, client):
    match_id = record_import(read(FIXTURES / "records" / "match.json")).match_id

    html = client.get(f"/matches/{match_id}/replay/").content.decode()

    assert f'href="/matches/{match_id}/record.json" download' in html


# -- A competition's zip ----------------------------------------------------------------


def test_a_competition_downloads_as_a_zip_of_its_records_and_competition_json(db, client):
    validator = schema_of(client)
    records = list(iter_competition(5, 4, competition="zip-cup"))
    for record in records:
        record_import(record, by="demo")
    unplayed = match_create(
        id="zip-cup-later",
        competition="zip-cup",
        players={"A": {"name": "Late Comer"}, "B": {"name": "Also Late"}},
    )

    response = client.get("/competitions/zip-cup/records.zip")

    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="zip-cup.carambole.zip"'
    archive = zipfile.ZipFile(io.BytesIO(response.content))
    names = set(archive.namelist())
    assert "competition.json" in names
    document = json.loads(archive.read("competition.json"))
    assert document["id"] == "zip-cup"
    assert document["ruleset"]["target"] == 60
    assert document["unplayed"] == [unplayed.id]
    assert {entry["match"] for entry in document["schedule"]} == {
        *(record["match"]["id"] for record in records),
        unplayed.id,
    }
    assert {"Late Comer", "Also Late"} <= {player["name"] for player in document["players"]}
    exported = {}
    for entry in document["schedule"]:
        record = json.loads(archive.read(entry["record"]))
        validator.validate(record)
        exported[entry["match"]] = record
    empty_the_database()
    for match_id, record in exported.items():
        record_import(record, by="elsewhere")
        assert record_export(match_id) == record


def test_the_zip_of_no_competition_is_a_404(db, client):
    competition_create(id="real", name="Real")
    assert client.get("/competitions/not-real/records.zip").status_code == 404
    assert client.get("/competitions/a%00b/records.zip").status_code == 404


# -- A competition's standings ----------------------------------------------------------


def test_a_competition_standings_table_downloads_as_csv_row_for_row(db, client):
    for record in iter_competition(9, 6, competition="csv-cup"):
        record_import(record, by="demo")
    projector.catch_up()
    standings = standings_get("csv-cup")
    assert standings["rows"]

    response = client.get("/competitions/csv-cup/standings.csv")

    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    filename = f"csv-cup.standings.v{standings['version']}.csv"
    assert response["Content-Disposition"] == f'attachment; filename="{filename}"'
    assert response.content.startswith(b"\xef\xbb\xbfrank,")  # spreadsheets read UTF-8
    rows = list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert [row["player"] for row in rows] == [row["player"] for row in standings["rows"]]
    for row, expected in zip(rows, standings["rows"], strict=True):
        assert int(row["rank"]) == expected["rank"]
        assert int(row["match_points"]) == expected["match_points"]
        assert float(row["average"]) == expected["average"]


def test_a_text_cell_that_a_spreadsheet_would_compute_is_written_as_text():
    assert csv_cell("=1+2") == "'=1+2"
    assert [csv_cell(text)[0] for text in ("+1", "-1", "@A1", "\tx", "\rx")] == ["'"] * 5
    assert csv_cell("Olena Kovalenko") == "Olena Kovalenko"
    assert csv_cell("a=1") == "a=1"


def test_a_number_stays_a_number_in_csv_a_negative_one_too():
    assert csv_cell(-3) == -3
    assert csv_cell(-1.5) == -1.5
    assert csv_cell(None) == ""
    assert csv_cell(True) is True


def test_standings_csv_shows_names_and_ids_that_look_like_formulas_as_text(db, client):
    for record in iter_competition(9, 3, FORMULAS, competition="sheet-cup"):
        record_import(record, by="demo")
    projector.catch_up()

    response = client.get("/competitions/sheet-cup/standings.csv")

    rows = list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert {row["player"] for row in rows} == {f"'{p['name']}" for p in FORMULAS}
    assert {row["player_id"] for row in rows} == {f"'{p['federation_id']}" for p in FORMULAS}
    assert all(row["rank"].isdigit() and float(row["average"]) >= 0 for row in rows)


def test_the_standings_of_no_competition_are_a_404(db, client):
    assert client.get("/competitions/nothing/standings.csv").status_code == 404
    assert client.get("/competitions/a%00b/standings.csv").status_code == 404


def test_a_competitions_players_are_two_when_one_has_for_id_the_others_name(db, client):
    competition_create(id="ids", name="Ids")
    for player in [{"name": "Ann", "federation_id": "Bo"}, {"name": "Bo"}]:
        player_enter(competition_id="ids", player=player, by="staff")

    bundle = zipfile.ZipFile(io.BytesIO(client.get("/competitions/ids/records.zip").content))

    document = json.loads(bundle.read("competition.json"))
    assert [entry["name"] for entry in document["players"]] == ["Ann", "Bo"]
