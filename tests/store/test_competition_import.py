"""A competition's zip carries its log, and `import_competition` brings it back whole:
into an empty database, the same groups, bracket, ranking and versions."""

from __future__ import annotations

import io
import json
import zipfile

import pytest
from django.core.management import CommandError, call_command

from matches import services
from matches.competition_archive import competition_import
from matches.domain.errors import Refused
from matches.models import Competition, Event, Match
from replay.projections import projector
from tests.support.competition_zip import downloaded, emptied, played, views
from tests.support.corrections import FLIPPED, amend, drawn_with_a_flip_to_come, first_match_begun
from tests.support.league import league, win


@pytest.fixture
def exported(db, client, tmp_path):
    """The played euro, caught up and downloaded: the zip's path."""
    played()
    path = tmp_path / "euro.carambole.zip"
    path.write_bytes(downloaded(client))
    return path


def test_the_zip_carries_the_log_with_who_and_when_and_every_match_s_place(exported):
    with zipfile.ZipFile(exported) as archive:
        document = json.loads(archive.read("competition.json"))
        log = json.loads(archive.read("log.json"))
        semi = json.loads(archive.read("matches/euro-ko-1-1.json"))
    assert document["stages"][1]["kind"] == "knockout"
    assert [e["type"] for e in log["events"]] == ["player_entered"] * 8 + ["stage_drawn"] * 2
    assert {"at", "by", "hash", "id", "seq"} <= set(log["events"][0])
    assert log["events"][0]["by"] == "director"
    assert (semi["match"]["stage_id"], semi["match"]["slot"]) == ("ko", "1-1")
    entry = next(e for e in document["schedule"] if e["match"] == "euro-groups-A1")
    assert (entry["stage_id"], entry["group"], entry["slot"]) == ("groups", "A", "A1")


def test_an_import_into_an_empty_database_gives_the_same_views_at_every_version(exported):
    versions = sorted(
        {event.id for event in Event.objects.filter(competition_id="euro")}
        | {event.id for event in Event.objects.filter(match__stage_id="ko")}
    )
    before = {version: views(version) for version in versions[-4:]}
    latest = views()
    emptied()

    out = io.StringIO()
    call_command("import_competition", str(exported), stdout=out)
    projector.catch_up()

    assert "its versions as in the archive" in out.getvalue()
    assert views() == latest
    for version, shown in before.items():
        assert views(version) == shown
    assert Match.objects.get(pk="euro-ko-1-1").slot == "1-1"
    entries = Competition.objects.get(pk="euro").entries.order_by("seed")
    assert [entry.seed for entry in entries] == list(range(1, 9))


def test_an_import_into_a_busy_database_moves_every_version_by_one_offset(exported):
    latest = views()
    emptied()
    cup = league("cup")
    win(cup[0], "A")  # this database's log has passed the archive's ids
    done = competition_import(str(exported))
    projector.catch_up()
    assert done.offset > 0
    assert views()[0]["stages"] == latest[0]["stages"]
    assert views()[1]["rows"] == latest[1]["rows"]
    assert views()[0]["version"] == latest[0]["version"] + done.offset


def test_a_competition_already_stored_is_refused_and_nothing_is_stored(exported):
    events = Event.objects.count()
    with pytest.raises(CommandError, match="stored already"):
        call_command("import_competition", str(exported))
    assert Event.objects.count() == events


def test_a_zip_with_a_broken_chain_is_refused_whole(exported, tmp_path):
    emptied()
    broken = tmp_path / "broken.zip"
    with zipfile.ZipFile(exported) as source, zipfile.ZipFile(broken, "w") as target:
        for name in source.namelist():
            body = source.read(name)
            if name == "log.json":
                log = json.loads(body)
                log["events"][3]["seed"] = 99  # a seed changed after the fact
                body = json.dumps(log).encode()
            target.writestr(name, body)
    with pytest.raises(Refused) as refused:
        competition_import(str(broken))
    assert refused.value.field == "log.json: events[3].hash" and refused.value.seq == 4
    assert not Competition.objects.exists()
    assert not Event.objects.exists()


def test_what_is_not_a_zip_is_refused_in_words(db, tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("hello")
    with pytest.raises(CommandError, match="not a competition's zip"):
        call_command("import_competition", str(path))


def test_a_competition_corrected_through_its_draw_comes_back_with_its_moves_and_decisions(
    db, client, tmp_path
):
    drawn_with_a_flip_to_come()
    first_match_begun()
    amend(FLIPPED, staff=True)  # ko-1-1 disputed, ko-1-2 (not begun) moved
    services.dispute_decide(
        competition_id="euro", slot="groups:B2", keep=False, reason="replay it", by="chief"
    )
    projector.catch_up()
    path = tmp_path / "euro.carambole.zip"
    path.write_bytes(downloaded(client))
    latest = views()
    emptied()

    call_command("import_competition", str(path), stdout=io.StringIO())
    projector.catch_up()

    assert views() == latest
    assert Match.objects.get(pk="euro-ko-1-1").status == Match.Status.VOID
    assert Match.objects.filter(pk="euro-ko-1-1-r2").exists()
    kinds = list(Event.objects.filter(competition_id="euro").values_list("type", flat=True))
    assert "players_moved" in kinds and "dispute_decided" in kinds
