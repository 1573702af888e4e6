"""The match-flow rules between the shots (domain/rules/flow.py, placement.check_placement)."""

import pytest

from matches.domain.errors import Refused
from matches.domain.rules import (
    DEFAULT_RULESET,
    INTERMISSION_MINUTES,
    SPOTS,
    OutsideFoul,
    Ruleset,
    average,
    big_shot_points,
    capped,
    check_placement,
    check_retraction,
    forfeit_winner,
    game_won,
    is_big_shot,
    latest_in_force,
    match_won,
    needs_review,
    next_breaker,
    outside_foul,
    receiver,
)
from matches.domain.rules.ranking import Totals

BALLS_OF = {"A": "white", "B": "yellow"}


def test_the_players_break_the_games_in_turn():
    assert next_breaker("A") == "B"
    assert next_breaker("B") == "A"


@pytest.mark.parametrize(
    ("player", "scorer", "points", "expected"),
    [
        ("A", "shooter", 6, "A"),
        ("A", "opponent", 4, "B"),
        ("B", "opponent", 2, "A"),
        ("A", None, 0, None),
        ("A", "shooter", 0, None),  # a valid shot after a re-spot scores nothing
        (None, "shooter", 6, None),  # no player known: nobody to name
    ],
)
def test_a_rulings_points_go_to_the_shooter_or_the_opponent_and_no_points_to_nobody(
    player, scorer, points, expected
):
    assert receiver(player, scorer, points) == expected


def test_a_game_score_is_cut_at_the_target_and_reaching_it_wins_the_game():
    assert capped(50, 8, 60) == 58
    assert capped(56, 8, 60) == 60
    assert not game_won(59, 60)
    assert game_won(60, 60)


def test_the_majority_of_best_of_wins_the_match():
    best_of_5 = Ruleset(best_of=5)

    assert not match_won(1, DEFAULT_RULESET)
    assert match_won(2, DEFAULT_RULESET)
    assert not match_won(2, best_of_5)
    assert match_won(3, best_of_5)


def test_a_forfeit_credits_the_opponent_of_the_player_who_left():
    assert forfeit_winner("A") == "B"
    assert forfeit_winner("B") == "A"


def test_a_foul_outside_a_stroke_takes_the_offenders_turn_and_gives_the_foul_to_his_opponent():
    assert outside_foul("A", "A", DEFAULT_RULESET) == OutsideFoul(due="B", receiver="B", points=2)
    # Committed while the opponent is due: the turn stays his.
    assert outside_foul("A", "B", DEFAULT_RULESET) == OutsideFoul(due="B", receiver="B", points=2)
    assert outside_foul("B", "B", Ruleset(foul=3)).points == 3


@pytest.mark.parametrize(
    ("decided", "void", "closed_by_next", "reached_as_recorded", "expected"),
    [
        (False, False, True, False, True),
        (False, False, False, True, True),
        (False, False, False, False, False),  # still being played
        (True, False, True, True, False),  # decided: nothing to review
        (False, True, False, True, False),  # a void game is never reviewed
    ],
)
def test_an_undecided_game_that_was_over_as_recorded_needs_review(
    decided, void, closed_by_next, reached_as_recorded, expected
):
    assert needs_review(decided, void, closed_by_next, reached_as_recorded) is expected


def shots(*entries: tuple[int, bool]) -> list[dict]:
    return [{"seq": seq, "retracted": retracted} for seq, retracted in entries]


def test_the_latest_shot_in_force_skips_the_retracted_ones():
    assert latest_in_force(shots((3, False), (5, False), (7, True))) == 5
    assert latest_in_force(shots((3, True))) is None
    assert latest_in_force([]) is None


def test_only_the_latest_shot_in_force_can_be_retracted():
    played = shots((3, False), (5, False))

    check_retraction(5, played, [{"type": "ball_placed"}])
    with pytest.raises(Refused) as refused:
        check_retraction(3, played, [])
    assert refused.value.field == "shot"
    assert "only the latest shot (seq 5)" in refused.value.message


def test_a_shot_a_game_has_followed_cannot_be_retracted():
    with pytest.raises(Refused, match="a game has started since"):
        check_retraction(5, shots((5, False)), [{"type": "game_started"}])


def test_a_big_shot_scores_the_red_pin_alones_points_for_its_shooter():
    assert big_shot_points(DEFAULT_RULESET) == 8
    assert is_big_shot("shooter", 8, DEFAULT_RULESET)
    assert not is_big_shot("shooter", 7, DEFAULT_RULESET)
    assert not is_big_shot("opponent", 12, DEFAULT_RULESET)  # a foul's points are no feat


def test_a_big_shot_follows_the_rulesets_value_of_the_red_pin_alone():
    ruleset = Ruleset(center_alone=10)

    assert big_shot_points(ruleset) == 10
    assert not is_big_shot("shooter", 8, ruleset)


def test_an_average_is_points_per_shot_to_three_decimals_and_zero_before_any_shot():
    assert average(10, 3) == 3.333
    assert average(0, 0) == 0.0
    assert Totals(own_points=10, shots=3).average() == average(10, 3)


def test_the_intermission_lasts_the_rulebooks_five_minutes_unless_told():
    assert INTERMISSION_MINUTES == 5


# -- Where the referee may put a ball ------------------------------------------------


def placed(ball, position, reason, **situation):
    defaults = {
        "due": "A",
        "balls": BALLS_OF,
        "in_hand": "break",
        "positions": {"white": None, "yellow": list(SPOTS["top"]), "red": list(SPOTS["red"])},
        "zone": "lower",
    }
    check_placement(ball, position, reason, **{**defaults, **situation})


def test_the_breakers_ball_goes_in_the_lower_half_clear_of_the_others():
    placed("white", [710.0, 400.0], "break")

    with pytest.raises(Refused, match="lower half") as refused:
        placed("white", [710.0, 2000.0], "break")
    assert refused.value.field == "pos"
    with pytest.raises(Refused, match="overlaps the red ball"):
        placed("white", [720.0, 2130.0], "break", zone=None)


def test_a_break_position_is_taken_only_at_a_break_or_a_respot():
    with pytest.raises(Refused, match="no break position") as refused:
        placed("white", [710.0, 400.0], "break", in_hand=None)
    assert refused.value.field == "reason"


def test_only_the_player_due_after_a_foul_has_a_ball_in_hand_and_it_is_his_own():
    with pytest.raises(Refused, match="A has no ball in hand"):
        placed("white", [710.0, 400.0], "in_hand", in_hand=None)
    with pytest.raises(Refused, match="the ball in hand is A's white ball") as refused:
        placed("red", [710.0, 400.0], "in_hand", in_hand="foul")
    assert refused.value.field == "ball"


def test_the_ball_in_hand_is_in_the_referees_hand_so_nothing_placed_overlaps_it():
    # The incoming white lay on the top spot: the offender's yellow may go there.
    positions = {"white": list(SPOTS["top"]), "yellow": [300.0, 900.0], "red": list(SPOTS["red"])}

    placed("yellow", list(SPOTS["top"]), "in_hand", in_hand="foul", positions=positions)
    # No ball in hand: the white is on the table, where nothing may overlap it.
    with pytest.raises(Refused, match="overlaps the white ball"):
        placed("yellow", list(SPOTS["top"]), "respot", in_hand=None, positions=positions)


def test_the_offenders_ball_goes_on_the_top_spot_or_the_bottom_one_when_the_red_covers_it():
    positions = {"white": None, "yellow": [300.0, 900.0], "red": list(SPOTS["red"])}
    placed("yellow", list(SPOTS["top"]), "in_hand", in_hand="foul", positions=positions)
    with pytest.raises(Refused, match="goes on the top spot"):
        placed("yellow", [300.0, 500.0], "in_hand", in_hand="foul", positions=positions)

    red_on_top = {**positions, "red": list(SPOTS["top"])}
    with pytest.raises(Refused, match="goes on the bottom spot"):
        placed("yellow", [300.0, 500.0], "in_hand", in_hand="foul", positions=red_on_top)


def test_a_ball_off_the_table_goes_back_anywhere_clear_of_the_others():
    placed("red", [100.0, 2700.0], "respot", in_hand=None, zone=None)

    with pytest.raises(Refused, match="overlaps the yellow ball"):
        placed("red", list(SPOTS["top"]), "respot", in_hand=None, zone=None)
