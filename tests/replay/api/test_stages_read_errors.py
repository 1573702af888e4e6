"""Whatever a competition's log holds, its stages and ranking answer 200: the last good
state with the error (null when none); a preview that needs the fold refuses with a 409."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from matches import services
from matches.models import Event
from replay.models import StagesView
from replay.projections import projector
from replay.queries import previews
from tests.support.builders import CAROM_A, open_game
from tests.support.championships import championship
from tests.support.league import league
from tests.support.logins import api
from tests.support.wedged import unwedge, wedge

pytestmark = pytest.mark.usefixtures("projector_forgotten")


@pytest.fixture
def drawn_version(db) -> int:
    """The groups drawn and caught up; the version the read model stands at."""
    championship()
    services.stage_draw(competition_id="euro", stage_id="groups", by="director")
    projector.catch_up()
    return StagesView.objects.get(pk="euro").version


def read(what: str, query: str = "") -> dict:
    answer = api().get(f"/api/competitions/euro/{what}{query}")
    assert answer.status_code == 200, answer.content
    return answer.json()


def stopped_at(event: int) -> dict:
    return {
        "part": "stages",
        "event": event,
        "at": Event.objects.get(pk=event).at,
        "exception": "KeyError",
        "message": "'size'",
    }


def test_a_fault_the_projector_kept_is_answered_with_the_last_good_state(drawn_version):
    good = StagesView.objects.get(pk="euro")
    broken = wedge()
    projector.catch_up()

    stages, ranking = read("stages"), read("ranking")

    assert stages == {
        "competition": "euro",
        "version": drawn_version,
        "stages": good.stages,
        "error": stopped_at(broken),
    }
    assert (ranking["version"], ranking["rows"]) == (drawn_version, good.ranking)
    assert ranking["error"] == stopped_at(broken)


def test_a_fold_on_the_spot_that_raises_is_answered_so_before_the_projector_meets_it(drawn_version):
    broken = wedge()  # not caught up: the read model is behind, and the fold raises

    stages = read("stages")

    assert (stages["version"], stages["error"]) == (drawn_version, stopped_at(broken))
    assert read("ranking")["error"] == stopped_at(broken)


def test_with_no_read_model_yet_the_answer_is_empty_with_the_error(db):
    championship()
    broken = wedge()

    stages = read("stages")

    assert (stages["version"], stages["stages"], stages["error"]) == (0, [], stopped_at(broken))
    assert read("ranking")["rows"] == []


def test_as_of_a_version_before_the_fault_the_draw_reads_whole_and_after_it_the_error(
    drawn_version,
):
    good = StagesView.objects.get(pk="euro").stages
    broken = wedge()
    projector.catch_up()

    before = read("stages", f"?at={drawn_version}")
    after = read("stages", f"?at={broken}")

    assert (before["stages"], before["error"]) == (good, None)
    assert (after["version"], after["stages"], after["error"]) == (0, [], stopped_at(broken))


def test_the_error_is_null_when_none_and_once_an_event_repairs_the_fold(drawn_version):
    assert read("stages")["error"] is None and read("ranking")["error"] is None
    wedge()
    projector.catch_up()
    repaired = unwedge()
    assert read("stages")["error"] is None  # the fold on the spot takes it already

    projector.catch_up()

    stages = read("stages")
    assert (stages["version"], stages["error"]) == (repaired, None)
    assert not stages["stages"][1]["drawn"]  # the broken knockout draw undone


def test_a_round_robin_s_stages_answer_no_error(db):
    league("rr")
    answer = api().get("/api/competitions/rr/stages")

    assert answer.json() == {"competition": "rr", "version": 0, "stages": [], "error": None}


def test_a_preview_that_needs_a_fold_that_raises_is_a_409_naming_the_competition(
    drawn_version, monkeypatch
):
    cache.clear()  # the previews' throttle
    seq = open_game("euro-groups-A1")  # A's carom would win the match: its group changes

    def unfoldable(*args, **kwargs):
        raise KeyError("groups:S99")

    monkeypatch.setattr(previews, "consequences", unfoldable)
    event = {"expected_seq": seq, "event": {"type": "shot", **CAROM_A}}
    answer = api().post("/api/matches/euro-groups-A1/events/preview", event, format="json")

    assert answer.status_code == 409, answer.content
    assert answer.json()["field"] == "competition"
    assert "KeyError: 'groups:S99'" in answer.json()["error"] and "euro" in answer.json()["error"]
