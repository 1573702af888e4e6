"""A competition in stages as the projector keeps it: settled, written as of its cursor,
the same after a rebuild, and followed by random results without a slot held twice."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matches import services
from matches.models import Match, Player
from replay.models import StagesView
from replay.projections import projector
from replay.queries.championships import ranking_get, stages_get
from tests.support.championships import championship, play_groups
from tests.support.league import win
from tests.support.stages import folded, open_slots_hold_no_one_twice, stored


@pytest.fixture
def drawn(db) -> None:
    """The euro's groups drawn, nothing played, the projector not run."""
    championship()
    services.stage_draw(competition_id="euro", stage_id="groups", by="director")


def test_the_projector_writes_the_stages_as_the_fold_gives_them_at_its_cursor(drawn):
    win("euro-groups-A1", "A")
    win("euro-groups-B1", "B")
    projector.catch_up()
    assert stored() == folded()
    view = StagesView.objects.get(pk="euro")
    assert view.position == projector.position()
    group = view.stages[0]["groups"][0]
    assert sum(row["played"] for row in group["standings"]) == 2


def test_the_read_model_serves_the_latest_and_the_fold_what_it_has_not_reached(drawn):
    projector.catch_up()
    before = stages_get("euro")["version"]
    win("euro-groups-A1", "A")  # not caught up: the fold shows it
    fresh = stages_get("euro")
    assert fresh["version"] > before
    assert StagesView.objects.get(pk="euro").version == before
    projector.catch_up()
    assert stages_get("euro") == {
        "competition": "euro",
        "version": fresh["version"],
        "stages": stored()[1],
        "error": None,
    }
    assert ranking_get("euro")["rows"] == stored()[2]


def test_the_projector_creates_the_knockout_matches_its_groups_settle(drawn):
    play_groups()
    services.stage_draw(competition_id="euro", stage_id="ko", by="director")
    win("euro-ko-1-1", "A")
    win("euro-ko-1-2", "B")
    assert not Match.objects.filter(pk="euro-ko-2-1").exists()
    projector.catch_up()
    assert Match.objects.filter(pk__in=["euro-ko-2-1", "euro-ko-3rd"]).count() == 2
    final = next(m for m in stored()[1][1]["rounds"][1] if m["slot"] == "2-1")
    assert final["match"] == "euro-ko-2-1"


def test_a_rebuild_writes_what_the_incremental_path_wrote(drawn):
    play_groups()
    services.stage_draw(competition_id="euro", stage_id="ko", by="director")
    win("euro-ko-1-1", "B")
    projector.catch_up()
    incremental = stored()
    projector.rebuild()
    assert stored() == incremental


def test_a_withdrawal_forfeits_the_player_s_unplayed_matches_and_keeps_his_results(drawn):
    rossi = Player.objects.get(name="Rossi")
    played = Match.objects.filter(stage_id="groups", player_a=rossi).first()
    win(played.pk, "A")
    services.player_withdraw(
        competition_id="euro", player_key_=rossi.pk, reason="injured", by="director"
    )
    projector.catch_up()
    group = stored()[1][0]["groups"][0]
    rows = {row["player"]: row for row in group["standings"]}
    assert (rows["Rossi"]["played"], rows["Rossi"]["won"]) == (3, 1)
    assert group["standings"][-1]["player"] == "Rossi"
    for match in group["matches"]:
        if "Rossi" in match["players"] and match["match"] != played.pk:
            assert match["status"] == "finished" and match["winner"] != "Rossi"


# -- Any sequence of results -------------------------------------------------------------


EXAMPLES = itertools.count()


@settings(
    max_examples=max(5, settings.default.max_examples // 25),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(seed=st.integers(0, 2**32 - 1))
def test_any_sequence_of_results_keeps_slots_single_and_a_rebuild_agrees(db, seed):
    competition = f"euro{next(EXAMPLES)}"  # the database is the test's, not the example's
    championship(competition)
    services.stage_draw(competition_id=competition, stage_id="groups", by="director")
    rng = random.Random(seed)
    started: dict[str, tuple] = {}
    knockout_drawn = False
    while True:
        open_matches = [
            m
            for m in Match.objects.filter(competition_id=competition).exclude(stage_id="")
            if m.pk not in started
        ]
        if not open_matches:
            if knockout_drawn:
                break
            services.stage_draw(competition_id=competition, stage_id="ko", by="director")
            knockout_drawn = True
            continue
        match = rng.choice(open_matches)
        started[match.pk] = (match.players["A"]["name"], match.players["B"]["name"])
        win(match.pk, rng.choice("AB"))
        projector.catch_up()
        version, views, ranking = stored(competition)
        assert (version, views, ranking) == folded(competition)
        open_slots_hold_no_one_twice(views)
        for match_id, players in started.items():
            now = Match.objects.get(pk=match_id)
            assert (now.players["A"]["name"], now.players["B"]["name"]) == players
    incremental = stored(competition)
    assert not any(row["provisional"] for row in incremental[2])
    assert sorted(row["place"] for row in incremental[2])[:2] == [1, 2]
    projector.rebuild()
    assert stored(competition) == incremental
