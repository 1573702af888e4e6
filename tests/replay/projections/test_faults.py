"""The projector never wedges: a competition whose read model cannot be written keeps its
last good state and its fault, and every other competition and the cursor go on."""

from __future__ import annotations

import io
import logging

import pytest
from django.core.management import CommandError, call_command
from django.db import OperationalError

from matches import services
from matches.domain.championship import Championship
from matches.models import Event, Match, Player
from replay.models import ReadModelFault, StagesView, Standings
from replay.projections import knockouts, projector, stages_writer, standings_writer
from tests.support.championships import championship, play_groups
from tests.support.league import league, win
from tests.support.wedged import faults, unwedge, wedge

pytestmark = pytest.mark.usefixtures("projector_forgotten")


def view(competition: str) -> tuple[int, int, list, list]:
    found = StagesView.objects.get(pk=competition)
    return found.version, found.position, found.stages, found.ranking


@pytest.fixture
def two(db) -> None:
    """Two competitions in stages, entered; the second's groups drawn; all caught up."""
    championship("euro")
    championship("cup")
    services.stage_draw(competition_id="cup", stage_id="groups", by="director")
    projector.catch_up()


def test_a_competition_that_cannot_be_folded_stops_neither_the_others_nor_the_cursor(two):
    before = view("euro")
    broken = wedge("euro")
    win("cup-groups-A1", "A")

    projector.catch_up()

    assert projector.position() == projector.head()
    group = StagesView.objects.get(pk="cup").stages[0]["groups"][0]
    assert sum(row["played"] for row in group["standings"]) == 2
    assert view("euro") == before  # its last good state, nothing half-written
    fault = ReadModelFault.objects.get()
    assert (fault.competition_id, fault.part, fault.event) == ("euro", "stages", broken)
    assert (fault.error, fault.message) == ("KeyError", "'size'")


def test_the_fault_is_logged_with_its_traceback(two, caplog):
    wedge("euro")
    with caplog.at_level(logging.ERROR, logger="replay.projections.faults"):
        projector.catch_up()

    (record,) = caplog.records
    assert "competition euro" in record.getMessage() and "KeyError" in record.getMessage()
    assert record.exc_info is not None


def test_later_events_move_the_fault_on_and_one_that_repairs_it_clears_it(two):
    wedge("euro")
    projector.catch_up()
    rossi = Player.objects.get(name="Rossi")
    services.player_withdraw(
        competition_id="euro", player_key_=rossi.pk, reason="ill", by="director"
    )
    projector.catch_up()
    newest = ReadModelFault.objects.get().event
    assert newest == projector.position()  # the newest event it could not take in

    unwedge("euro")
    projector.catch_up()

    assert not ReadModelFault.objects.exists()
    assert StagesView.objects.get(pk="euro").version == projector.position()


def test_a_rebuild_writes_the_same_fault_and_the_same_read_models(two):
    wedge("euro")
    win("cup-groups-A1", "A")
    projector.catch_up()
    incremental = faults(), view("cup")

    projector.rebuild()

    assert (faults(), view("cup")) == incremental
    assert faults()[0][:4] == ("euro", "stages", ReadModelFault.objects.get().event, "KeyError")


def test_a_rebuild_after_the_repair_writes_no_fault(two):
    wedge("euro")
    projector.catch_up()
    unwedge("euro")
    projector.catch_up()
    incremental = view("euro")

    projector.rebuild()

    assert faults() == []
    assert view("euro")[0::2] == incremental[0::2]  # its version and stages


def test_a_competition_kept_between_runs_that_raises_is_read_again_once_it_folds(two, monkeypatch):
    real = Championship.views

    def views(self):
        if self.competition == "cup":
            raise RuntimeError("no view of cup")
        return real(self)

    monkeypatch.setattr(Championship, "views", views)
    win("cup-groups-A1", "A")
    projector.catch_up()
    stopped = ("cup", "stages", projector.position(), "RuntimeError", "no view of cup")
    assert faults()[0][:5] == stopped

    monkeypatch.setattr(Championship, "views", real)
    win("cup-groups-A2", "A")
    projector.catch_up()

    assert faults() == []
    group = StagesView.objects.get(pk="cup").stages[0]["groups"][0]
    assert sum(row["played"] for row in group["standings"]) == 4


def test_a_failed_write_is_rolled_back_whole_and_no_match_is_made_for_it(db, monkeypatch):
    championship()
    services.stage_draw(competition_id="euro", stage_id="groups", by="director")
    play_groups()
    services.stage_draw(competition_id="euro", stage_id="ko", by="director")
    projector.catch_up()
    before = view("euro")
    real = stages_writer._store

    def store_then_fail(kept, position):
        real(kept, position)  # the row written, then:
        raise ValueError("after the write")

    monkeypatch.setattr(stages_writer, "_store", store_then_fail)
    win("euro-ko-1-1", "A")
    win("euro-ko-1-2", "A")
    projector.catch_up()

    assert not Match.objects.filter(pk__in=["euro-ko-2-1", "euro-ko-3rd"]).exists()
    assert view("euro") == before
    assert faults()[0][:4] == ("euro", "stages", projector.position(), "ValueError")
    assert projector.position() == projector.head()


def test_a_competition_whose_settling_raises_keeps_its_fault_until_its_next_event(db, monkeypatch):
    championship()
    services.stage_draw(competition_id="euro", stage_id="groups", by="director")
    play_groups()
    services.stage_draw(competition_id="euro", stage_id="ko", by="director")
    projector.catch_up()
    real = knockouts.settle

    def refused(competition, championship, stored):
        raise ValueError("no match today")

    monkeypatch.setattr(knockouts, "settle", refused)
    win("euro-ko-1-1", "A")
    projector.catch_up()

    assert faults()[0][:4] == ("euro", "stages", projector.position(), "ValueError")
    assert projector.position() == projector.head()

    monkeypatch.setattr(knockouts, "settle", real)
    win("euro-ko-1-2", "A")
    projector.catch_up()

    assert faults() == []
    assert Match.objects.filter(pk__in=["euro-ko-2-1", "euro-ko-3rd"]).count() == 2
    slots = {m["slot"]: m for games in view("euro")[2][1]["rounds"] for m in games}
    assert slots["2-1"]["match"] == "euro-ko-2-1"


def test_the_database_s_own_trouble_stops_the_batch_to_run_again(two, monkeypatch):
    def lost(*args, **kwargs):
        raise OperationalError("server closed the connection")

    monkeypatch.setattr(stages_writer, "_store", lost)
    position = projector.position()
    wedge("euro")

    with pytest.raises(OperationalError):
        projector.catch_up()

    assert projector.position() == position
    assert faults() == []


def test_standings_that_cannot_be_written_keep_their_version_and_the_others_go_on(db, monkeypatch):
    first = league("cup")
    second = league("open")
    real = standings_writer._name

    def names(names, table, changes):
        if changes[0].competition_id == "cup":
            raise LookupError("no names for cup")
        return real(names, table, changes)

    monkeypatch.setattr(standings_writer, "_name", names)
    win(first[0], "A")
    win(second[0], "A")
    projector.catch_up()

    assert not Standings.objects.filter(pk="cup").exists()
    assert Standings.objects.get(pk="open").version > 0
    result = Event.objects.filter(match_id=first[0]).order_by("-id").first().id
    assert faults()[0][:5] == ("cup", "standings", result, "LookupError", "no names for cup")

    monkeypatch.setattr(standings_writer, "_name", real)
    win(first[1], "A")
    projector.catch_up()

    assert faults() == []
    assert Standings.objects.get(pk="cup").version == projector.position()


def test_verify_archive_names_each_competition_in_error_and_fails(two):
    broken = wedge("euro")
    projector.catch_up()
    out, err = io.StringIO(), io.StringIO()

    with pytest.raises(CommandError, match="1 fault"):
        call_command("verify_archive", stdout=out, stderr=err)

    assert err.getvalue().splitlines() == [
        f"competition euro: its stages stopped at event {broken}: KeyError: 'size'"
    ]
    assert "1 read model(s) in error" in out.getvalue()

    unwedge("euro")
    projector.catch_up()
    out, err = io.StringIO(), io.StringIO()
    call_command("verify_archive", stdout=out, stderr=err)
    assert err.getvalue() == "" and "read model" not in out.getvalue()
