"""Corrections and decisions in championships of several shapes, each a short fixed
sequence that once broke a law the property test checks: no player twice in a round nor
against himself, no started match changing players, every entry ranked, the stages and
the ranking answered, and the projector never stopping."""

from __future__ import annotations

import pytest

from matches import services
from matches.domain.competition_log import player_key
from matches.domain.errors import Refused
from matches.models import Match
from matches.services.corrections import Forbidden
from replay.projections import projector
from tests.support import championship_shapes as shapes
from tests.support.builders import BY, CAROM_A, LOWER_HALF, QUIET, open_game
from tests.support.later_groups import (
    A_CAROM_FIRST,
    GROUPS_INTO_GROUPS,
    INTO_TWO_GROUPS,
    second_stage_begun_then_group_b_flipped,
    second_stage_drawn,
)
from tests.support.league import CAROM_B, flip, shot, win


def players_of(match_id: str) -> tuple[str, str]:
    return shapes.names(Match.objects.get(pk=match_id))


def test_a_first_stage_correction_disputes_the_second_groups_stage_s_started_matches(
    db, projector_forgotten
):
    last = second_stage_drawn(INTO_TWO_GROUPS)
    win("open-second-A1", "A")
    started = players_of("open-second-A1")
    with pytest.raises(Forbidden):  # it disputes a started match: staff's alone
        flip("open-groups-B1", last)
    shapes.amend("open-groups-B1", A_CAROM_FIRST)  # B's winner and runner-up change places
    assert shapes.checked("open", 4, {}) is False
    assert players_of("open-second-A1") == started
    assert [d.match for d in shapes.fold("open").disputes()] == ["open-second-A1"]


def test_a_first_stage_correction_moves_the_second_groups_stage_s_unbegun_matches(
    db, projector_forgotten
):
    last = second_stage_drawn(INTO_TWO_GROUPS)
    flip("open-groups-B1", last)  # B's winner and runner-up change places
    assert shapes.checked("open", 4, {}) is False  # the stages name the matches' players


def test_a_first_stage_result_retracted_while_the_second_groups_stage_is_played_keeps_it_served(
    db, projector_forgotten
):
    last = second_stage_drawn(GROUPS_INTO_GROUPS)
    win("open-second-A1", "A")
    started = {m.pk: shapes.names(m) for m in shapes.live("open") if shapes.seq_of(m.pk)}
    shapes.amend(
        "open-groups-B1", {"type": "shot_retracted", "shot": last, "reason": "entered twice"}
    )
    assert shapes.checked("open", 4, {}) is False
    assert {pk: players_of(pk) for pk in started} == started


def test_a_semi_final_corrected_after_the_final_began_never_puts_its_player_into_third_place(
    db, projector_forgotten
):
    shapes.entered("open", [{"id": "ko", "kind": "knockout", "third_place": True}], 4)
    shapes.draw("open", "ko")
    win("open-ko-1-1", "A")
    win("open-ko-1-2", "B")  # Fernández beats Kovalenko
    projector.catch_up()
    shapes.start("open-ko-2-1")  # Rossi v Fernández, begun
    shapes.amend(
        "open-ko-1-2", A_CAROM_FIRST
    )  # Kovalenko won after all: Fernández lost the semi-final
    assert shapes.checked("open", 4, {}) is False
    assert players_of("open-ko-3rd") == ("Marchetti", "Kovalenko")


def test_a_semi_final_corrected_after_third_place_began_never_puts_its_player_into_the_final(
    db, projector_forgotten
):
    shapes.entered("open", [{"id": "ko", "kind": "knockout", "third_place": True}], 4)
    shapes.draw("open", "ko")
    win("open-ko-1-1", "B")  # the fourth seed beats Rossi
    win("open-ko-1-2", "A")
    projector.catch_up()
    loser = players_of("open-ko-1-1")[0]
    shapes.start("open-ko-3rd")  # the semi-finals' losers, begun
    final = players_of("open-ko-2-1")

    shapes.amend("open-ko-1-1", A_CAROM_FIRST)  # the first semi-final's A won after all

    assert players_of("open-ko-2-1") == final  # its loser as amended plays third place
    assert loser in players_of("open-ko-3rd")
    assert shapes.checked("open", 4, {}) is False


def test_a_group_short_of_qualifiers_by_a_withdrawal_still_lets_the_next_stage_be_drawn(
    db, projector_forgotten
):
    shapes.entered("open", INTO_TWO_GROUPS, 4)
    shapes.draw("open", "groups")
    shapes.withdraw("open", "Marchetti")  # group A: Rossi alone goes on
    win("open-groups-B1", "A")
    with pytest.raises(Refused) as refused:  # 3 players left for 2 groups
        shapes.draw("open", "second")
    assert refused.value.field == "stages[1].groups"
    assert shapes.checked("open", 4, {}) is False


def test_a_group_winner_with_a_bye_changed_before_his_match_begins_is_followed_into_it(
    db, projector_forgotten
):
    three_groups = [
        {"id": "groups", "kind": "groups", "groups": 3, "advance": 1},
        {"id": "ko", "kind": "knockout", "from": "groups"},  # A1 has the bye
    ]
    shapes.entered("open", three_groups, 6)
    shapes.draw("open", "groups")
    last = win("open-groups-A1", "B")  # Bianchi beats Rossi
    win("open-groups-B1", "A")
    win("open-groups-C1", "A")
    shapes.draw("open", "ko")
    win("open-ko-1-2", "A")
    projector.catch_up()
    assert players_of("open-ko-2-1") == ("Bianchi", "Kovalenko")
    flip("open-groups-A1", last)  # Rossi won group A after all, before the final began
    assert shapes.checked("open", 6, {}) is False
    assert players_of("open-ko-2-1") == ("Rossi", "Kovalenko")
    shapes.start("open-ko-2-1")


def test_two_qualifiers_of_one_group_are_in_opposite_halves_when_direct_entries_join(
    db, projector_forgotten
):
    direct = [
        {"id": "groups", "kind": "groups", "groups": 4, "advance": 2},
        {"id": "ko", "kind": "knockout", "from": "groups", "direct": 1},
    ]
    shapes.entered("open", direct, 9)
    shapes.draw("open", "groups")
    for match in shapes.live("open"):
        win(match.pk, "A")
    shapes.draw("open", "ko")
    shapes.checked("open", 9, {})
    first_round = shapes.fold("open").views()[1]["rounds"][0]
    halves = [first_round[: len(first_round) // 2], first_round[len(first_round) // 2 :]]
    top = {slot for m in halves[0] for slot in m["slots"]}
    assert [
        group for group in "ABCD" if (f"groups:{group}1" in top) == (f"groups:{group}2" in top)
    ] == []


def play_from_the_lag(match_id: str, winner: str) -> None:
    """Play a match whose lag is recorded to its end, won by `winner`."""
    services.game_start(match_id=match_id, expected_seq=1, by=BY, game=1, breaker="A")
    services.ball_place(
        match_id=match_id, expected_seq=2, by=BY, ball="white", pos=LOWER_HALF, reason="break"
    )
    if winner == "B":
        shot(match_id, shot(match_id, 3, QUIET), CAROM_B)
    else:
        shot(match_id, 3, CAROM_A)


def play_on_to_b(match_id: str) -> None:
    """Let B win a match whose result a correction undid."""
    shapes.amend(match_id, {"type": "shot", **CAROM_B})


def ranked(competition: str = "open") -> list[tuple[int, str, str | None, bool]]:
    rows = shapes.fold(competition).ranking()
    return [(row["place"], row["player"], row["out_in"], row["provisional"]) for row in rows]


def test_a_group_winner_denied_by_a_kept_final_is_ranked_out_in_the_groups_and_settled(
    db, projector_forgotten
):
    into_a_final = [
        {"id": "groups", "kind": "groups", "groups": 2, "advance": 1},
        {"id": "ko", "kind": "knockout", "from": "groups"},
    ]
    shapes.entered("open", into_a_final, 4)
    shapes.draw("open", "groups")
    win("open-groups-A1", "B")  # Marchetti wins group A
    win("open-groups-B1", "A")
    shapes.draw("open", "ko")
    shapes.start("open-ko-1-1")  # Marchetti v Kovalenko
    shapes.amend("open-groups-A1", A_CAROM_FIRST)  # Rossi won group A
    shapes.decide("open", "groups:A1", keep=True)
    play_from_the_lag("open-ko-1-1", "A")
    assert shapes.checked("open", 4, {}) is True
    assert ranked() == [
        (1, "Marchetti", None, False),
        (2, "Kovalenko", "ko:1", False),
        (3, "Rossi", "groups", False),
        (4, "Fernández", "groups", False),
    ]


def test_a_semi_final_replayed_after_a_kept_final_leaves_the_final_s_places_as_played(
    db, projector_forgotten
):
    shapes.entered("open", [{"id": "ko", "kind": "knockout"}], 8)
    shapes.draw("open", "ko")
    win("open-ko-1-1", "B")  # Novak beats Rossi
    for match in ("open-ko-1-2", "open-ko-1-3", "open-ko-1-4"):
        win(match, "A")
    projector.catch_up()
    win("open-ko-2-1", "A")  # Novak v Marchetti
    win("open-ko-2-2", "A")  # Kovalenko v Fernández
    projector.catch_up()
    win("open-ko-3-1", "A")  # Novak beats Kovalenko
    shapes.amend("open-ko-1-1", A_CAROM_FIRST)  # Rossi won after all
    shapes.decide("open", "W:ko-1-1", keep=False)
    projector.catch_up()
    open_game("open-ko-2-1-r2")  # Rossi v Marchetti: Marchetti wins the replay
    shapes.amend("open-ko-2-1-r2", {"type": "shot", **QUIET})
    shapes.amend("open-ko-2-1-r2", {"type": "shot", **CAROM_B})  # as staff: it disputes
    for slot in shapes.disputed_slots("open"):
        shapes.decide("open", slot, keep=True)  # the final stands
    assert ranked()[:3] == [
        (1, "Novak", None, False),
        (2, "Kovalenko", "ko:3", False),
        (3, "Marchetti", "ko:2", False),
    ]
    assert shapes.checked("open", 8, {}) is True


def test_a_void_decision_never_puts_a_player_with_a_bye_into_the_replacement(
    db, projector_forgotten
):
    three_groups = [
        {"id": "groups", "kind": "groups", "groups": 3, "advance": 2},
        {"id": "ko", "kind": "knockout", "from": "groups"},  # A1 and B1 have byes
    ]
    shapes.entered("open", three_groups, 6)
    shapes.draw("open", "groups")
    for match in shapes.live("open"):
        win(match.pk, "A")  # Rossi wins group A, Bianchi second
    shapes.draw("open", "ko")
    win("open-ko-1-2", "A")
    projector.catch_up()
    shapes.start("open-ko-2-1")  # Rossi, from his bye, v Marchetti
    shapes.start("open-ko-1-4")  # Fernández v Bianchi
    shapes.amend("open-groups-A1", {**A_CAROM_FIRST, "facts": QUIET})  # undone: B wins on
    play_on_to_b("open-groups-A1")  # Bianchi wins group A, Rossi second
    shapes.decide("open", "groups:A2", keep=False)  # its replacement waits for Rossi
    shapes.decide("open", "W:ko-1-1", keep=True)  # Rossi plays on in round 2
    shapes.checked("open", 6, {})
    replacement = Match.objects.filter(pk="open-ko-1-4-r2").first()
    assert replacement is None or "Rossi" not in shapes.names(replacement)


def keys_of(match_id: str) -> set[str]:
    return {f"name:{name}" for name in players_of(match_id)}


def test_a_place_of_a_later_group_kept_as_played_keeps_its_player_in_every_match(
    db, projector_forgotten
):
    as_played, _, runner_up = second_stage_begun_then_group_b_flipped()
    assert [d.slot for d in shapes.fold("open").disputes()] == ["groups:B2"]

    shapes.decide("open", "groups:B2", keep=True)

    assert shapes.fold("open").disputes() == []
    assert all(as_played in keys_of(match_id) for match_id in runner_up)
    shapes.play_on(Match.objects.get(pk=runner_up[1]))  # the group plays on
    assert shapes.checked("open", 4, {}) is False


def test_a_place_of_a_later_group_voided_replays_its_begun_match_and_moves_the_rest(
    db, projector_forgotten
):
    as_played, as_amended, runner_up = second_stage_begun_then_group_b_flipped()

    decided = shapes.decide("open", "groups:B2", keep=False)

    assert decided["made"] == f"{runner_up[0]}-r2"
    assert Match.objects.get(pk=runner_up[0]).status == Match.Status.VOID
    assert as_amended in keys_of(f"{runner_up[0]}-r2")
    for match_id, side in shapes.fold("open").position_matches("groups:B2")[1:]:
        assert player_key(Match.objects.get(pk=match_id).players["AB"[side]]) == as_amended
    folded = shapes.fold("open")
    assert folded.disputes() == []
    assert as_played in folded.members("second", "A")
    assert shapes.checked("open", 4, {}) is False


def test_a_place_left_empty_by_a_withdrawal_sends_no_one_on(db, projector_forgotten):
    shapes.entered("open", GROUPS_INTO_GROUPS, 4)
    shapes.draw("open", "groups")
    shapes.withdraw("open", "Marchetti")  # group A: Rossi alone goes on
    win("open-groups-B1", "A")

    shapes.draw("open", "second")

    entries = shapes.fold("open").views()[1]["groups"][0]["entries"]
    assert sorted(entries) == ["Fernández", "Kovalenko", "Rossi"]
    assert shapes.checked("open", 4, {}) is False


def test_a_knockout_is_not_settled_while_a_match_a_correction_reopened_is_played(
    db, projector_forgotten
):
    shapes.entered("open", [{"id": "ko", "kind": "knockout"}], 4)
    shapes.draw("open", "ko")
    win("open-ko-1-1", "A")
    win("open-ko-1-2", "A")
    projector.catch_up()
    win("open-ko-2-1", "A")
    # The semi-final's winning carom was a miss: its game goes on, the final is disputed.
    shapes.amend("open-ko-1-1", {**A_CAROM_FIRST, "facts": QUIET})
    for slot in shapes.disputed_slots("open"):
        shapes.decide("open", slot, keep=True)  # the final stands

    folded = shapes.fold("open")
    assert not folded.settled(folded.stage("ko"))
    rows = {row["player"]: row for row in folded.ranking()}
    finalist, other = players_of("open-ko-1-1")
    assert (rows[finalist]["place"], rows[finalist]["provisional"]) == (1, False)  # kept
    assert rows[other]["provisional"]  # his semi-final is being played again
    assert shapes.checked("open", 4, {}) is False


def test_a_knockout_is_not_settled_while_a_replay_ordered_under_a_kept_final_waits(
    db, projector_forgotten
):
    shapes.entered("open", [{"id": "ko", "kind": "knockout", "size": 8}], 6)
    shapes.draw("open", "ko")
    win("open-ko-1-4", "A")
    win("open-ko-1-2", "B")
    projector.catch_up()
    win("open-ko-2-1", "A")
    shapes.amend("open-ko-1-2", A_CAROM_FIRST)  # round one's other player won after all
    win("open-ko-2-2", "A")
    projector.catch_up()
    win("open-ko-3-1", "B")
    shapes.decide("open", "W:ko-1-2", keep=False)  # the semi-final is to be replayed
    shapes.decide("open", "W:ko-2-1", keep=True)  # and the final stands

    folded = shapes.fold("open")
    assert Match.objects.filter(pk="open-ko-2-1-r2").exists()
    assert not folded.settled(folded.stage("ko"))
    assert shapes.checked("open", 6, {}) is False


def test_a_side_that_follows_a_correction_moves_though_the_other_side_is_open_again(
    db, projector_forgotten
):
    """Three seeds join the knockout directly: round one is A1 v B1, S2 v B2, S3 v A2."""
    shapes.entered(
        "open",
        [
            {"id": "groups", "kind": "groups", "groups": 2, "advance": 2},
            {"id": "ko", "kind": "knockout", "from": "groups", "size": 8, "direct": 3},
        ],
        9,
    )
    shapes.draw("open", "groups")
    for match in shapes.live("open"):
        win(match.pk, "B" if match.pk == "open-groups-B1" else "A")
    shapes.draw("open", "ko")
    assert (players_of("open-ko-1-2"), players_of("open-ko-1-3")[1]) == (
        ("Marchetti", "Horvat"),  # A1 v B1
        "Petrenko",  # B2
    )
    shapes.amend("open-groups-A1", {**A_CAROM_FIRST, "facts": QUIET})  # group A open again

    shapes.amend("open-groups-B1", A_CAROM_FIRST)  # group B's first two change places

    b1, b2 = (shapes.fold("open").holder(f"groups:B{n}").key for n in (1, 2))
    assert b1 != "name:Horvat"
    assert players_of("open-ko-1-2") == ("Marchetti", b1.removeprefix("name:"))  # A1 stays
    assert players_of("open-ko-1-3")[1] == b2.removeprefix("name:")
    assert shapes.checked("open", 9, {}) is False
