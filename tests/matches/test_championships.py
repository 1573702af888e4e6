"""A championship in stages on the store: seeded entries, the draws, settling, the ranking."""

from __future__ import annotations

import pytest

from matches import services
from matches.domain.errors import NotFound, Refused
from matches.models import Competition, Event, Match
from matches.services.championships import StateClash, championship_at
from matches.services.competition_log import verify_log
from replay.projections import projector
from tests.support.championships import STAGES, championship, play_groups
from tests.support.league import win


def stages(competition: str = "euro") -> dict:
    from matches.models import Competition

    found = Competition.objects.get(pk=competition)
    as_of = championship_at(found)
    return {view["id"]: view for view in as_of.championship.views()}


def caught_up() -> None:
    projector.catch_up()


@pytest.fixture
def group_matches_drawn(db) -> list[str]:
    """The euro's groups drawn: the ids of their matches."""
    championship()
    created = services.stage_draw(competition_id="euro", stage_id="groups", by="director")
    return [match.pk for match in created]


def test_the_group_draw_snakes_the_seeds_and_creates_each_group_s_round_robin(group_matches_drawn):
    groups = {group["name"]: group["entries"] for group in stages()["groups"]["groups"]}
    assert groups == {
        "A": ["Rossi", "Marchetti", "Petrenko", "Novak"],
        "B": ["Kovalenko", "Fernández", "Bianchi", "Dubois"],
    }
    assert sorted(group_matches_drawn) == sorted(
        [f"euro-groups-A{n}" for n in range(1, 7)] + [f"euro-groups-B{n}" for n in range(1, 7)]
    )
    match = Match.objects.get(pk="euro-groups-A1")
    assert (match.stage_id, match.group, match.slot) == ("groups", "A", "A1")


def test_a_stage_is_drawn_once(group_matches_drawn):
    with pytest.raises(StateClash) as refused:
        services.stage_draw(competition_id="euro", stage_id="groups", by="director")
    assert refused.value.status == 409


def test_the_knockout_waits_for_its_groups_to_settle(group_matches_drawn):
    with pytest.raises(Refused) as refused:
        services.stage_draw(competition_id="euro", stage_id="ko", by="director")
    assert refused.value.field == "stage"
    assert "not settled" in refused.value.message


def test_an_unknown_stage_is_not_found(group_matches_drawn):
    with pytest.raises(NotFound):
        services.stage_draw(competition_id="euro", stage_id="final", by="director")


def test_seeds_are_required_and_unique_and_entries_close_at_the_first_draw(db):
    services.competition_create(
        id="euro", name="Euro", stages=[{"id": "groups", "kind": "groups", "groups": 2}]
    )
    with pytest.raises(Refused) as missing:
        services.player_enter(competition_id="euro", player={"name": "Rossi"}, by="director")
    assert missing.value.field == "seed"
    services.player_enter(competition_id="euro", player={"name": "Rossi"}, seed=1, by="d")
    with pytest.raises(Refused) as taken:
        services.player_enter(competition_id="euro", player={"name": "Novak"}, seed=1, by="d")
    assert taken.value.field == "seed"
    services.player_enter(competition_id="euro", player={"name": "Rossi"}, seed=3, by="d")
    services.player_enter(competition_id="euro", player={"name": "Novak"}, seed=1, by="d")
    for seed, name in [(2, "Bianchi"), (4, "Dubois")]:
        services.player_enter(competition_id="euro", player={"name": name}, seed=seed, by="d")
    services.stage_draw(competition_id="euro", stage_id="groups", by="director")
    groups = {group["name"]: group["entries"] for group in stages()["groups"]["groups"]}
    assert groups == {"A": ["Novak", "Dubois"], "B": ["Bianchi", "Rossi"]}
    with pytest.raises(Refused) as closed:
        services.player_enter(competition_id="euro", player={"name": "Late"}, seed=9, by="d")
    assert "closed" in closed.value.message


def test_the_groups_settle_the_bracket_and_its_winners_make_the_next_matches(group_matches_drawn):
    play_groups()
    view = stages()["groups"]
    assert view["settled"]
    assert [row["player"] for row in view["groups"][0]["standings"]][:2] == ["Rossi", "Marchetti"]
    services.stage_draw(competition_id="euro", stage_id="ko", by="director")
    semis = stages()["ko"]["rounds"][0]
    assert [semi["players"] for semi in semis] == [
        ["Rossi", "Fernández"],
        ["Kovalenko", "Marchetti"],
    ]
    assert [semi["slots"] for semi in semis] == [
        ["groups:A1", "groups:B2"],
        ["groups:B1", "groups:A2"],
    ]
    assert Match.objects.filter(stage_id="ko").count() == 2
    final = stages()["ko"]["rounds"][1]
    assert [(m["slot"], m["status"], m["players"]) for m in final] == [
        ("2-1", "waiting", None),
        ("3rd", "waiting", None),
    ]
    win("euro-ko-1-1", "B")
    win("euro-ko-1-2", "A")
    caught_up()
    final = Match.objects.get(pk="euro-ko-2-1")
    assert [final.players["A"]["name"], final.players["B"]["name"]] == ["Fernández", "Kovalenko"]
    assert (final.stage_id, final.slot) == ("ko", "2-1")
    third = Match.objects.get(pk="euro-ko-3rd")
    assert [third.players["A"]["name"], third.players["B"]["name"]] == ["Rossi", "Marchetti"]


def test_the_final_ranking_places_every_entry_provisional_until_settled(group_matches_drawn):
    play_groups()
    services.stage_draw(competition_id="euro", stage_id="ko", by="director")
    win("euro-ko-1-1", "B")
    win("euro-ko-1-2", "A")
    caught_up()
    before = _ranking()
    assert all(row["provisional"] for row in before[:4])
    assert [row["provisional"] for row in before[4:]] == [False] * 4
    win("euro-ko-2-1", "A")
    win("euro-ko-3rd", "B")
    rows = _ranking()
    assert [(row["place"], row["player"], row["out_in"]) for row in rows] == [
        (1, "Fernández", None),
        (2, "Kovalenko", "ko:2"),
        (3, "Marchetti", "ko:1"),
        (4, "Rossi", "ko:1"),
        (5, "Petrenko", "groups"),
        (6, "Bianchi", "groups"),
        (7, "Dubois", "groups"),  # level with Novak on every count: the better seed
        (8, "Novak", "groups"),
    ]
    assert not any(row["provisional"] for row in rows)


def test_without_a_third_place_match_both_semi_final_losers_share_third(db):
    championship(stages=[STAGES[0], {"id": "ko", "kind": "knockout", "from": "groups"}])
    services.stage_draw(competition_id="euro", stage_id="groups", by="director")
    play_groups()
    services.stage_draw(competition_id="euro", stage_id="ko", by="director")
    win("euro-ko-1-1", "A")
    win("euro-ko-1-2", "A")
    caught_up()
    win("euro-ko-2-1", "A")
    places = [(row["place"], row["player"]) for row in _ranking()[:4]]
    assert places == [(1, "Rossi"), (2, "Kovalenko"), (3, "Fernández"), (3, "Marchetti")]


def test_a_knockout_from_the_entries_gives_the_top_seeds_their_byes(db):
    championship(stages=[{"id": "ko", "kind": "knockout"}], players=6)
    created = services.stage_draw(competition_id="euro", stage_id="ko", by="director")
    first = stages()["ko"]["rounds"][0]
    assert [(m["slots"], m["status"]) for m in first] == [
        (["ko:S1", "BYE"], "bye"),
        (["ko:S4", "ko:S5"], "scheduled"),
        (["ko:S2", "BYE"], "bye"),
        (["ko:S3", "ko:S6"], "scheduled"),
    ]
    assert sorted(match.pk for match in created) == ["euro-ko-1-2", "euro-ko-1-4"]
    win("euro-ko-1-2", "B")
    caught_up()
    semi = Match.objects.get(pk="euro-ko-2-1")
    assert [semi.players["A"]["name"], semi.players["B"]["name"]] == ["Rossi", "Petrenko"]


def test_a_direct_entry_takes_seed_1_and_no_group_s_winner_meets_its_own_runner_up(db):
    three_groups = {"id": "groups", "kind": "groups", "groups": 3, "advance": 2}
    direct = {"id": "ko", "kind": "knockout", "from": "groups", "direct": 1}
    championship(stages=[three_groups, direct], players=10)
    services.stage_draw(competition_id="euro", stage_id="groups", by="director")
    play_groups()

    services.stage_draw(competition_id="euro", stage_id="ko", by="director")

    first = stages()["ko"]["rounds"][0]
    assert [m["slots"] for m in first] == [
        ["ko:S1", "BYE"],
        ["groups:C1", "groups:B2"],
        ["groups:A1", "groups:C2"],
        ["groups:B1", "groups:A2"],
    ]


def test_groups_drawn_from_groups_part_two_qualifiers_of_one_earlier_group(db):
    four_groups = {"id": "groups", "kind": "groups", "groups": 4, "advance": 2}
    final = {"id": "final", "kind": "groups", "groups": 3, "from": "groups"}
    championship(stages=[four_groups, final], players=12)
    services.stage_draw(competition_id="euro", stage_id="groups", by="director")
    play_groups()

    services.stage_draw(competition_id="euro", stage_id="final", by="director")

    competition_log = championship_at(Competition.objects.get(pk="euro")).championship.log
    assert competition_log.draws["final"]["groups"] == {
        "A": ["groups:A1", "groups:B2", "groups:C2"],
        "B": ["groups:B1", "groups:A2", "groups:D2"],
        "C": ["groups:C1", "groups:D1"],
    }


@pytest.mark.parametrize(
    ("stage", "players", "field"),
    [
        # Two groups of three: no group has a fourth place to send on.
        ({"id": "groups", "kind": "groups", "groups": 2, "advance": 4}, 6, "stages[0].advance"),
        ({"id": "groups", "kind": "groups", "groups": 2}, 3, "stages[0].groups"),
        ({"id": "ko", "kind": "knockout", "size": 8}, 3, "stages[0].size"),
        ({"id": "ko", "kind": "knockout", "third_place": True}, 3, "stages[0].third_place"),
    ],
)
def test_a_stage_of_the_entries_they_cannot_fill_is_refused_at_its_draw_naming_its_field(
    db, stage, players, field
):
    championship(stages=[stage], players=players)

    with pytest.raises(Refused) as refused:
        services.stage_draw(competition_id="euro", stage_id=stage["id"], by="director")

    assert refused.value.field == field
    assert not Match.objects.filter(competition_id="euro").exists()


def test_a_draw_is_undone_while_none_of_its_matches_has_begun(group_matches_drawn):
    services.stage_draw_undo(competition_id="euro", stage_id="groups", by="director")
    assert not Match.objects.filter(competition_id="euro").exists()
    assert not stages()["groups"]["drawn"]
    services.stage_draw(competition_id="euro", stage_id="groups", by="director")
    win("euro-groups-A1", "A")
    with pytest.raises(StateClash) as refused:
        services.stage_draw_undo(competition_id="euro", stage_id="groups", by="director")
    assert "euro-groups-A1" in refused.value.message


def test_every_view_can_be_asked_as_it_stood_at_a_version(group_matches_drawn):
    from matches.models import Competition

    competition = Competition.objects.get(pk="euro")
    drawn_at = championship_at(competition).version
    play_groups()
    now = championship_at(competition)
    assert now.version > drawn_at
    then = championship_at(competition, drawn_at)
    assert then.version == drawn_at
    group = then.championship.views()[0]["groups"][0]
    assert [row["played"] for row in group["standings"]] == [0, 0, 0, 0]
    assert not then.championship.views()[0]["settled"]


def test_the_competition_s_log_is_chained_and_refuses_changes(group_matches_drawn):
    from matches.models import Competition

    competition = Competition.objects.get(pk="euro")
    assert verify_log(competition) == []
    logged = Event.objects.filter(competition=competition).order_by("seq")
    assert [event.type for event in logged] == ["player_entered"] * 8 + ["stage_drawn"]
    from matches.models import ImmutableEventError

    with pytest.raises(ImmutableEventError):
        logged.first().delete()


def test_a_withdrawn_player_ranks_last_in_his_group_and_never_qualifies(group_matches_drawn):
    from matches.models import Player

    rossi = Player.objects.get(name="Rossi")
    services.player_withdraw(
        competition_id="euro", player_key_=rossi.pk, reason="injured", by="director"
    )
    group = stages()["groups"]["groups"][0]
    assert group["standings"][-1]["player"] == "Rossi"
    assert group["standings"][-1]["withdrawn"]


def test_a_competition_with_stages_has_no_round_robin_and_one_without_keeps_it(db):
    championship()
    with pytest.raises(Refused) as refused:
        services.round_robin_create(competition_id="euro", by="director")
    assert refused.value.field == "stages"
    services.competition_create(id="league", name="League")
    with pytest.raises(Refused) as seeded:
        services.player_enter(competition_id="league", player={"name": "A"}, seed=1, by="d")
    assert seeded.value.field == "seed"
    for name in ("A", "B", "C"):
        services.player_enter(competition_id="league", player={"name": name}, by="d")
    assert len(services.round_robin_create(competition_id="league", by="d")) == 3
    assert not Event.objects.filter(competition_id="league").exists()


def _ranking() -> list[dict]:
    from matches.models import Competition

    return championship_at(Competition.objects.get(pk="euro")).championship.ranking()


def test_no_one_is_out_of_a_group_that_is_still_being_played(group_matches_drawn):
    group_a = Match.objects.filter(competition_id="euro", group="A")
    for match in group_a:
        win(match.pk, "A")
    win("euro-groups-B1", "A")
    rows = {row["player"]: row for row in _ranking()}
    assert [rows[name]["out_in"] for name in ("Petrenko", "Novak")] == ["groups", "groups"]
    assert [rows[name]["out_in"] for name in ("Bianchi", "Dubois")] == [None, None]
    assert all(rows[name]["provisional"] for name in ("Bianchi", "Dubois"))


def test_a_knockout_drawn_with_a_first_day_plays_a_round_a_day_third_place_with_the_final(
    group_matches_drawn,
):
    play_groups()
    services.stage_draw(
        competition_id="euro", stage_id="ko", by="director", first_date="2026-12-20"
    )
    assert {m.date.isoformat() for m in Match.objects.filter(stage_id="ko")} == {"2026-12-20"}
    win("euro-ko-1-1", "A")
    win("euro-ko-1-2", "A")
    caught_up()
    days = dict(
        Match.objects.filter(stage_id="ko", slot__in=["2-1", "3rd"]).values_list("slot", "date")
    )
    assert {slot: day.isoformat() for slot, day in days.items()} == {
        "2-1": "2026-12-21",
        "3rd": "2026-12-21",
    }
