"""The open-data export: one zip of the whole archive, checked, and imported back whole.

The import runs where a user runs it: `manage.py migrate` and `import_open_data` on a new
SQLite database of its own, in another process; what it then shows (standings, stages,
rankings, ratings) is compared with what this database shows.
"""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
import zipfile
from datetime import date
from pathlib import Path

import pytest
from django.core.management import call_command

from matches import services
from matches.domain.chain import event_hash
from matches.domain.simulator import iter_competition
from matches.immutability import triggers_lifted
from matches.models import Competition, Entry, Event, Match
from matches.records import record_import
from replay.models import PlayerRating
from replay.queries.csv_cells import FORMULA_STARTS
from replay.queries.open_data import SUMS, open_data_import, open_data_write
from tests.support.corrections import FLIPPED, amend, drawn_with_a_flip_to_come
from tests.support.exports import FORMULAS, empty_the_database
from tests.support.league import dated_league, flip, win
from tests.support.projected import projected
from tests.support.shown import shown

ROOT = Path(__file__).resolve().parents[2]
DAY = date(2026, 6, 1)

SHOWN = (
    "import json, django; django.setup(); "
    "from tests.support.shown import shown; print(json.dumps(shown()))"
)


@pytest.fixture
def archive(db):
    """A league with a flipped result, and a championship in stages with a correction."""
    first, second, *_ = dated_league()
    seq = win(first, "B")
    flip(first, seq)
    win(second, "A")
    drawn_with_a_flip_to_come()
    amend(FLIPPED)  # group B's places change after the knockout's draw
    projected()


def test_the_export_holds_every_competition_the_players_and_ratings_each_checked(archive, tmp_path):
    written = open_data_write(tmp_path, DAY)

    with zipfile.ZipFile(written.path) as export:
        names = set(export.namelist())
        sums = export.read(SUMS).decode()
        manifest = json.loads(export.read("manifest.json"))
        readme = export.read("README.txt").decode()
    assert {f"competitions/{c.pk}.carambole.zip" for c in Competition.objects.all()} <= names
    assert {"players.csv", "ratings.csv", "ratings-history.csv", "README.txt"} <= names
    assert all(name in sums for name in names - {SUMS})
    assert manifest["format"] == "carambole.open-data/1" and manifest["day"] == "2026-06-01"
    assert "players.csv" in readme and "import_open_data" in readme
    assert written.checksum.read_text().split()[1] == written.path.name


def test_a_file_changed_in_the_export_refuses_the_import_and_nothing_is_stored(archive, tmp_path):
    written = open_data_write(tmp_path, DAY)
    tampered = tmp_path / "tampered.zip"
    with zipfile.ZipFile(written.path) as source, zipfile.ZipFile(tampered, "w") as out:
        for name in source.namelist():
            body = source.read(name)
            out.writestr(name, body + b"x" if name == "players.csv" else body)

    with pytest.raises(Exception, match="players.csv does not match its checksum"):
        open_data_import(tampered)


@pytest.mark.journey  # a whole archive exported and imported again
def test_imported_into_an_empty_database_it_gives_the_same_standings_brackets_and_ratings(
    archive, tmp_path
):
    written = open_data_write(tmp_path, DAY)
    here = shown()
    environ = {
        **{k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")},
        "DATABASE_URL": f"sqlite:///{tmp_path / 'imported.sqlite3'}",
        "DJANGO_SETTINGS_MODULE": "carambole.settings",
    }

    def run(*command: str) -> str:
        done = subprocess.run(
            command, cwd=ROOT, env=environ, capture_output=True, text=True, timeout=300
        )
        assert done.returncode == 0, done.stderr[-3000:]
        return done.stdout

    run(sys.executable, "manage.py", "migrate", "--no-input", "-v", "0")
    said = run(sys.executable, "manage.py", "import_open_data", str(written.path))
    there = json.loads(run(sys.executable, "-c", SHOWN))

    assert "imported 2 competitions" in said
    assert there["standings"] == here["standings"]
    assert there["stages"] == here["stages"]
    assert there["ratings"] == here["ratings"] and here["ratings"]


def test_the_command_writes_the_export_and_the_page_links_it(archive, tmp_path, client, settings):
    settings.OPEN_DATA_DIR = tmp_path
    out = io.StringIO()

    call_command("export_open_data", "--day", "2026-06-01", "--no-progress", stdout=out)

    page = client.get("/open-data/").content.decode()
    name = "carambole-open-data-2026-06-01.zip"
    assert name in out.getvalue() and name in page
    download = client.get(f"/open-data/{name}")
    assert download.status_code == 200
    assert b"".join(download.streaming_content) == (tmp_path / name).read_bytes()
    assert client.get("/open-data/..%2Fsettings.py").status_code == 404
    assert PlayerRating.objects.exists()


def test_every_csv_of_the_export_writes_a_name_or_id_a_spreadsheet_would_compute_as_text(
    db, tmp_path
):
    for record in iter_competition(9, 3, FORMULAS, competition="sheet-cup"):
        record_import(record, by="demo")
    projected()
    last_day = PlayerRating.objects.latest("day").day

    with zipfile.ZipFile(open_data_write(tmp_path, last_day).path) as export:
        files = {
            name: list(csv.reader(io.StringIO(export.read(name).decode("utf-8"))))
            for name in export.namelist()
            if name.endswith(".csv")
        }

    assert set(files) == {"players.csv", "ratings.csv", "ratings-history.csv"}
    for name, (header, *rows) in files.items():
        assert len(rows) >= len(FORMULAS), name
        cells = [dict(zip(header, row, strict=True)) for row in rows]
        names = {cell["player"] if "player" in cell else cell["name"] for cell in cells}
        assert names == {f"'{player['name']}" for player in FORMULAS}, name
        computed = [
            value
            for row in rows
            for value in row
            if value.startswith(FORMULA_STARTS) and not is_number(value)
        ]
        assert computed == [], name


def is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def sealed_but_unfoldable(match_id: str) -> None:
    """Rewrite a match's last event as its first (a lag after the game began) and seal it
    again, as a tamperer with the database would: the chain holds, the fold refuses it."""
    rows = list(Event.objects.filter(match_id=match_id).order_by("seq"))
    first, before, last = rows[0], rows[-2], rows[-1]
    with triggers_lifted():
        Event.objects.filter(pk=last.pk).update(type=first.type, data_text=first.data_text)
        last.refresh_from_db()
        Event.objects.filter(pk=last.pk).update(hash=event_hash(before.hash, last.as_record()))


@pytest.fixture
def three_corrupt(db) -> dict[str, int]:
    """A league of six matches, four played: three of them corrupt, each its own way.

    Return each corrupt match with the seq its fault is at."""
    played = dated_league()[:4]
    last = {match_id: win(match_id, "A") for match_id in played}
    missing, changed, unfoldable, _ = played
    with triggers_lifted():
        Event.objects.filter(match_id=missing, seq=2).delete()
        Event.objects.filter(match_id=changed, seq=3).update(recorded_by="someone else")
    sealed_but_unfoldable(unfoldable)
    return {missing: 2, changed: 3, unfoldable: last[unfoldable]}


def test_a_corrupt_match_is_left_out_of_the_export_and_listed_in_its_manifest(
    three_corrupt, tmp_path
):
    written = open_data_write(tmp_path, DAY)

    with zipfile.ZipFile(written.path) as export:
        manifest = json.loads(export.read("manifest.json"))
        cup = zipfile.ZipFile(io.BytesIO(export.read("competitions/cup.carambole.zip")))
    left_out = {entry["match"]: entry for entry in manifest["left_out"]}
    assert {match_id: e["seq"] for match_id, e in left_out.items()} == three_corrupt
    assert all(e["competition"] == "cup" and e["error"] for e in left_out.values())
    assert written.left_out == manifest["left_out"]
    assert manifest["matches"] == written.matches == 6 - len(three_corrupt)
    with cup:
        names = set(cup.namelist())
        schedule = json.loads(cup.read("competition.json"))["schedule"]
        logged = json.loads(cup.read("log.json"))["match_event_ids"]
    kept = {entry["match"] for entry in schedule}
    assert len(kept) == 6 - len(three_corrupt) and not kept & set(three_corrupt)
    assert {name for name in names if name.startswith("matches/")} == {
        f"matches/{match_id}.json" for match_id in kept
    }
    assert not set(logged) & set(three_corrupt)


def test_an_export_with_matches_left_out_imports_whole_into_an_empty_database(
    three_corrupt, tmp_path
):
    written = open_data_write(tmp_path, DAY)
    Entry.objects.all().delete()
    empty_the_database()

    imported = open_data_import(written.path)

    assert (imported.competitions, imported.matches) == (1, 6 - len(three_corrupt))
    assert not Event.objects.filter(match_id__in=list(three_corrupt)).exists()


def test_the_command_names_each_match_it_left_out(three_corrupt, tmp_path):
    out, err = io.StringIO(), io.StringIO()

    call_command(
        "export_open_data", "--out", str(tmp_path), "--no-progress", stdout=out, stderr=err
    )

    said = err.getvalue().splitlines()
    assert sorted(said) == sorted(
        line for line in said if line.startswith("left out: match cup-") and " of cup (seq " in line
    )
    assert len(said) == len(three_corrupt) and "3 matches" in out.getvalue()


def test_a_championship_whose_log_seals_a_corrupt_match_is_left_out_whole_and_the_rest_imports(
    db, tmp_path
):
    """A draw after the group matches hashes their events' ids: without one of them its
    log's chain would break, and an import refuse the whole archive."""
    from tests.support.championships import championship, play_groups

    championship()
    services.stage_draw(competition_id="euro", stage_id="groups", by="director")
    play_groups()
    services.stage_draw(competition_id="euro", stage_id="ko", by="director")
    dated_league()
    victim = Match.objects.filter(competition_id="euro", stage_id="groups").first()
    with triggers_lifted():
        Event.objects.filter(match=victim, seq=2).delete()

    written = open_data_write(tmp_path, DAY)
    with zipfile.ZipFile(written.path) as export:
        names = export.namelist()
    Entry.objects.all().delete()
    empty_the_database()
    imported = open_data_import(written.path)

    assert [(e["competition"], e["match"]) for e in written.left_out] == [
        ("euro", victim.pk),
        ("euro", None),
    ]
    assert written.left_out[1]["seq"] == 10  # the knockout's draw
    assert "competitions/euro.carambole.zip" not in names
    assert imported.competitions == 1 and not Competition.objects.filter(pk="euro").exists()
