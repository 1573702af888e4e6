"""The stages endpoints: staff create, seed and draw; anyone reads stages and ranking, as of V."""

from __future__ import annotations

import pytest

from matches import services
from matches.models import Event, Match, Player
from matches.selectors import assigned_referee
from matches.services.championships import championship_at
from replay.api.stages import LARGEST_ID
from replay.models import MatchSummary, Standings
from replay.projections import projector
from replay.queries import championships
from tests.support.caches import answered_alike, clear_all_caches
from tests.support.corrections import FLIPPED, drawn_with_a_flip_to_come
from tests.support.league import RULESET, flip, win
from tests.support.logins import api

pytestmark = pytest.mark.usefixtures("projector_forgotten")

CHAMPIONSHIP = {
    "id": "euro",
    "name": "Euro",
    "ruleset": RULESET,
    "stages": [
        {"id": "groups", "kind": "groups", "groups": 2, "advance": 2},
        {"id": "ko", "kind": "knockout", "from": "groups", "third_place": True},
    ],
}
NAMES = ["Rossi", "Kovalenko", "Fernández", "Marchetti", "Petrenko", "Bianchi", "Dubois", "Novak"]


@pytest.fixture
def entered(staff):
    client = api(staff.key)
    assert client.post("/api/competitions/", CHAMPIONSHIP, format="json").status_code == 201
    for seed, name in enumerate(NAMES, start=1):
        answer = client.post(
            "/api/competitions/euro/players", {"name": name, "seed": seed}, format="json"
        )
        assert answer.status_code == 201, answer.json()
        assert answer.json()["seed"] == seed
    return client


def test_staff_draw_the_groups_and_anyone_reads_them(entered):
    drawn = entered.post("/api/competitions/euro/stages/groups/draw", {}, format="json")

    assert drawn.status_code == 201
    assert len(drawn.json()["matches"]) == 12
    assert [g["name"] for g in drawn.json()["stage"]["groups"]] == ["A", "B"]
    read = api().get("/api/competitions/euro/stages").json()
    assert [stage["id"] for stage in read["stages"]] == ["groups", "ko"]
    assert read["stages"][1] == {
        "id": "ko",
        "kind": "knockout",
        "ruleset": {},
        "drawn": False,
        "settled": False,
        "rounds": [],
    }
    assert read["version"] > 0


def test_a_second_draw_is_a_409_and_an_early_knockout_a_422_naming_the_stage(entered):
    entered.post("/api/competitions/euro/stages/groups/draw", {}, format="json")
    again = entered.post("/api/competitions/euro/stages/groups/draw", {}, format="json")
    early = entered.post("/api/competitions/euro/stages/ko/draw", {}, format="json")

    assert again.status_code == 409
    assert (early.status_code, early.json()["field"]) == (422, "stage")


def test_drawing_and_undoing_are_for_staff_only(entered, referee):
    client = api(referee.key)
    assert client.post("/api/competitions/euro/stages/groups/draw", {}).status_code == 403
    assert api().post("/api/competitions/euro/stages/groups/draw", {}).status_code == 401
    entered.post("/api/competitions/euro/stages/groups/draw", {}, format="json")
    assert client.delete("/api/competitions/euro/stages/groups/draw").status_code == 403
    assert entered.delete("/api/competitions/euro/stages/groups/draw").status_code == 204
    assert not Match.objects.filter(competition_id="euro").exists()


def test_a_seed_taken_or_missing_is_a_422_naming_seed(entered):
    taken = entered.post(
        "/api/competitions/euro/players", {"name": "Late", "seed": 1}, format="json"
    )
    missing = entered.post("/api/competitions/euro/players", {"name": "Late"}, format="json")

    assert (taken.status_code, taken.json()["field"]) == (422, "seed")
    assert (missing.status_code, missing.json()["field"]) == (422, "seed")


def test_a_bad_stage_is_refused_naming_its_field_and_nothing_is_stored(staff):
    body = {**CHAMPIONSHIP, "stages": [{"id": "ko-1", "kind": "knockout"}]}
    answer = api(staff.key).post("/api/competitions/", body, format="json")

    assert (answer.status_code, answer.json()["field"]) == (422, "stages[0].id")
    assert api().get("/api/competitions/euro/stages").status_code == 404


GROUPS = CHAMPIONSHIP["stages"][0]  # 2 groups advancing 2: 4 qualifiers


@pytest.mark.parametrize(
    ("stages", "field"),
    [
        ([GROUPS, {"id": "ko", "kind": "knockout", "from": "groups", "size": 8}], "stages[1].size"),
        (
            [GROUPS, {"id": "ko", "kind": "knockout", "from": "groups", "direct": 1, "size": 4}],
            "stages[1].size",
        ),
        (
            [{**GROUPS, "groups": 1, "advance": 3}, CHAMPIONSHIP["stages"][1]],
            "stages[1].third_place",
        ),
        (
            [GROUPS, {"id": "final", "kind": "groups", "from": "groups", "groups": 3}],
            "stages[1].groups",
        ),
        (
            [
                GROUPS,
                {"id": "final", "kind": "groups", "from": "groups", "groups": 2, "advance": 3},
            ],
            "stages[1].advance",
        ),
    ],
)
def test_a_stage_its_players_cannot_fill_is_a_422_at_creation_naming_its_field(
    staff, stages, field
):
    answer = api(staff.key).post(
        "/api/competitions/", {**CHAMPIONSHIP, "stages": stages}, format="json"
    )

    assert (answer.status_code, answer.json()["field"]) == (422, field)
    assert api().get("/api/competitions/euro/stages").status_code == 404


def test_a_group_with_fewer_players_than_go_on_is_a_422_at_the_draw_naming_advance(staff):
    client = api(staff.key)
    stages = [{**GROUPS, "advance": 4}, CHAMPIONSHIP["stages"][1]]
    assert (
        client.post(
            "/api/competitions/", {**CHAMPIONSHIP, "stages": stages}, format="json"
        ).status_code
        == 201
    )
    for seed, name in enumerate(NAMES[:6], start=1):
        client.post("/api/competitions/euro/players", {"name": name, "seed": seed}, format="json")

    drawn = client.post("/api/competitions/euro/stages/groups/draw", {}, format="json")

    assert (drawn.status_code, drawn.json()["field"]) == (422, "stages[0].advance")
    assert "at most 3" in drawn.json()["error"]


def test_the_ranking_reads_as_of_any_version(entered):
    entered.post("/api/competitions/euro/stages/groups/draw", {}, format="json")
    drawn_at = api().get("/api/competitions/euro/stages").json()["version"]
    for match in Match.objects.filter(stage_id="groups"):
        win(match.pk, "A")
    entered.post("/api/competitions/euro/stages/ko/draw", {}, format="json")
    win("euro-ko-1-1", "A")
    win("euro-ko-1-2", "A")
    projector.catch_up()
    win("euro-ko-2-1", "A")
    win("euro-ko-3rd", "A")

    now = api().get("/api/competitions/euro/ranking").json()
    then = api().get(f"/api/competitions/euro/ranking?at={drawn_at}").json()

    assert now["provisional"] is False
    assert [row["player"] for row in now["rows"][:2]] == ["Rossi", "Kovalenko"]
    assert then["version"] == drawn_at and then["provisional"] is True
    bad = api().get("/api/competitions/euro/ranking?at=-1")
    assert (bad.status_code, bad.json()["field"]) == (400, "at")


def test_staff_withdraw_a_player_with_a_reason(entered):
    rossi = Player.objects.get(name="Rossi").pk
    answer = entered.post(
        f"/api/competitions/euro/players/{rossi}/withdrawal", {"reason": "ill"}, format="json"
    )
    again = entered.post(
        f"/api/competitions/euro/players/{rossi}/withdrawal", {"reason": "ill"}, format="json"
    )

    assert answer.status_code == 201 and again.status_code == 409
    groups = entered.post("/api/competitions/euro/stages/groups/draw", {}, format="json")
    names = [entry for group in groups.json()["stage"]["groups"] for entry in group["entries"]]
    assert "Rossi" not in names


def test_a_competition_without_stages_lists_none_and_keeps_its_round_robin(staff):
    client = api(staff.key)
    client.post("/api/competitions/", {"id": "league", "name": "League"}, format="json")

    stages = api().get("/api/competitions/league/stages")

    assert (stages.status_code, stages.json()["stages"]) == (200, [])
    ranking = api().get("/api/competitions/league/ranking")
    assert (ranking.status_code, ranking.json()["field"]) == (422, "stages")
    for name in ("A", "B"):
        client.post("/api/competitions/league/players", {"name": name}, format="json")
    answer = client.post("/api/competitions/league/round-robin", {}, format="json")
    assert answer.status_code == 201


def test_an_amendment_that_disputes_a_started_match_is_staff_s_and_so_is_its_decision(
    staff, referee
):

    drawn_with_a_flip_to_come()
    services.referee_assign(match_id=FLIPPED, username=referee.username, by="federation")
    win("euro-ko-1-1", "A")
    seq = Event.objects.filter(match_id=FLIPPED).count()
    body = {
        "expected_seq": seq,
        "event": {
            "type": "shot_amended",
            "shot": 4,
            "reason": "video",
            "facts": {
                "contacts": [{"ball": "white", "hit": "yellow"}, {"ball": "white", "hit": "red"}]
            },
        },
    }

    by_referee = api(referee.key).post(f"/api/matches/{FLIPPED}/events", body, format="json")
    by_staff = api(staff.key).post(f"/api/matches/{FLIPPED}/events", body, format="json")

    assert by_referee.status_code == 403, by_referee.json()
    assert "only staff" in by_referee.json()["error"]
    assert by_staff.status_code == 201, by_staff.json()
    projector.catch_up()
    ko = api().get("/api/competitions/euro/stages").json()["stages"][1]
    disputed = ko["rounds"][0][0]["disputed"]
    assert disputed["slot"] == "groups:B2" and disputed["as_played"] != disputed["as_amended"]
    path = "/api/competitions/euro/slots/groups:B2/decision"
    decision = {"keep": False, "reason": "the jury voids it"}
    assert api(referee.key).post(path, decision, format="json").status_code == 403
    decided = api(staff.key).post(path, decision, format="json")
    assert decided.status_code == 201, decided.json()
    assert decided.json()["made"] == "euro-ko-1-1-r2"
    again = api(staff.key).post(path, decision, format="json")
    assert (again.status_code, again.json()["field"]) == (409, "slot")
    projector.catch_up()
    assert MatchSummary.objects.get(match_id="euro-ko-1-1").status == "void"
    counted = Standings.objects.get(pk="euro").rows
    assert sum(row["played"] for row in counted) == 2 * 12  # the 12 group matches, not the void
    ko = api().get("/api/competitions/euro/stages").json()["stages"][1]
    assert (
        ko["rounds"][0][0]["match"] == "euro-ko-1-1-r2" and ko["rounds"][0][0]["disputed"] is None
    )


@pytest.fixture
def disputed_api(staff, referee):
    """ko-1-1 begun, with the referee's login assigned to it, then disputed by an amendment."""
    drawn_with_a_flip_to_come()
    services.referee_assign(match_id="euro-ko-1-1", username=referee.username, by="federation")
    win("euro-ko-1-1", "A")
    seq = Event.objects.filter(match_id=FLIPPED).count()
    services.ruling_amend(
        match_id=FLIPPED,
        expected_seq=seq,
        by="jury",
        shot=4,
        facts=FLIPPED_TO_A,
        reason="video",
        staff=True,
    )
    return api(staff.key)


FLIPPED_TO_A = {"contacts": [{"ball": "white", "hit": "yellow"}, {"ball": "white", "hit": "red"}]}
DECISION = "/api/competitions/euro/slots/groups:B2/decision"


def test_a_replacement_is_refereed_by_the_voided_match_s_login_unless_the_decision_names_one(
    disputed_api, referee
):
    decided = disputed_api.post(DECISION, {"keep": False, "reason": "void"}, format="json")

    assert decided.status_code == 201, decided.json()
    assert decided.json()["referee"] == referee.username
    assert assigned_referee(Match.objects.get(pk="euro-ko-1-1-r2")).username == referee.username


def test_a_decision_names_the_replacement_s_referee(disputed_api, stranger):
    body = {"keep": False, "reason": "void", "referee": stranger.username}
    decided = disputed_api.post(DECISION, body, format="json")

    assert decided.status_code == 201, decided.json()
    assert decided.json()["referee"] == stranger.username
    replacement = Match.objects.get(pk="euro-ko-1-1-r2")
    assert assigned_referee(replacement).username == stranger.username
    assert replacement.assignments.last().assigned_by == "federation"


@pytest.mark.parametrize(
    ("named", "keep", "code"),
    [
        (7, False, 400),
        ("", False, 400),
        ("x" * 151, False, 400),
        ("nobody-here", False, 422),
        ("petrenko", True, 422),
    ],
)
def test_a_bad_referee_is_refused_naming_it_and_decides_nothing(disputed_api, named, keep, code):
    body = {"keep": keep, "reason": "the jury", "referee": named}
    answer = disputed_api.post(DECISION, body, format="json")

    assert (answer.status_code, answer.json()["field"]) == (code, "referee"), answer.json()
    assert not Event.objects.filter(competition_id="euro", type="dispute_decided").exists()


# -- As of a version, from the read cache ------------------------------------------------


@pytest.fixture
def folds(monkeypatch) -> list[int]:
    """Count the competitions folded on the spot as of a version: each fold's `at`."""
    done: list[int] = []

    def counted(competition, at=None):
        if at is not None:
            done.append(at)
        return championship_at(competition, at)

    monkeypatch.setattr(championships, "championship_at", counted)
    return done


def stages_at(at: int) -> dict:
    answer = api().get(f"/api/competitions/euro/stages?at={at}")
    assert answer.status_code == 200, answer.json()
    return answer.json()


def test_a_version_read_again_folds_nothing_and_answers_as_a_fold_from_nothing(entered, folds):
    entered.post("/api/competitions/euro/stages/groups/draw", {}, format="json")
    drawn_at = api().get("/api/competitions/euro/stages").json()["version"]
    for match in Match.objects.filter(stage_id="groups")[:3]:
        win(match.pk, "A")

    answered = answered_alike(lambda: stages_at(drawn_at))

    assert answered["version"] == drawn_at
    assert folds == [drawn_at, drawn_at]  # the first read, and the one after every cache went


def test_a_correction_leaves_an_earlier_versions_answer_and_a_later_one_sees_it(entered, folds):
    entered.post("/api/competitions/euro/stages/groups/draw", {}, format="json")
    match = Match.objects.filter(stage_id="groups").first()
    seq = win(match.pk, "B")
    before = api().get("/api/competitions/euro/stages").json()["version"]
    stages_at(before)
    flip(match.pk, seq)
    newest = Event.objects.latest("id").pk

    kept = stages_at(before)
    clear_all_caches()

    assert kept == stages_at(before)
    assert stages_at(LARGEST_ID)["version"] == newest
    assert folds == [before, before, LARGEST_ID]


def test_a_version_beyond_the_log_is_read_again_once_the_log_grows(entered, folds):
    entered.post("/api/competitions/euro/stages/groups/draw", {}, format="json")
    first = stages_at(LARGEST_ID)
    winning = win(Match.objects.filter(stage_id="groups").first().pk, "A")

    second = stages_at(LARGEST_ID)

    assert first["version"] < second["version"] and winning
    assert folds == [LARGEST_ID, LARGEST_ID]


def test_a_match_the_projector_makes_is_in_the_next_read_of_the_same_version(entered):
    entered.post("/api/competitions/euro/stages/groups/draw", {}, format="json")
    for match in Match.objects.filter(stage_id="groups"):
        win(match.pk, "A")
    entered.post("/api/competitions/euro/stages/ko/draw", {}, format="json")
    win("euro-ko-1-1", "A")
    win("euro-ko-1-2", "A")
    newest = Event.objects.latest("id").pk
    stages_at(newest)

    projector.catch_up()  # makes the final, and writes no event
    kept = stages_at(newest)
    clear_all_caches()

    assert Match.objects.filter(pk="euro-ko-2-1").exists()
    assert kept == stages_at(newest)
