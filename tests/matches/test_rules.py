"""The rules engine: the ruling of one shot, the ruleset, the lag (see the README's rules)."""

import dataclasses
from typing import Any

import pytest

from matches.domain.errors import Refused
from matches.domain.rules import (
    CALLED_FOULS,
    DEFAULT_RULESET,
    Contact,
    LagResult,
    Ruleset,
    Shot,
    decide_lag,
    fallen_pins,
    foul_base,
    judge,
    pin_positions,
    pin_value,
)

RULING_KEYS = ("scorer", "points", "fouls", "ball_in_hand", "first_contact", "carom")


def c(ball: str, hit: str, *pins: str, same_time: bool = False) -> Contact:
    """Return one contact: `ball` met `hit`, knocking `pins` when `hit` is "pins"."""
    return Contact(ball=ball, hit=hit, pins=pins, same_time=same_time)


def shot(*contacts: Contact, struck: str | None = None, called: tuple[str, ...] = ()) -> Shot:
    return Shot(struck=struck, contacts=contacts, called=called)


def ruling(
    scorer: str | None,
    points: int,
    fouls: list[str],
    ball_in_hand: bool,
    first_contact: str | None,
    carom: str | None,
) -> dict[str, Any]:
    return {
        "scorer": scorer,
        "points": points,
        "fouls": fouls,
        "ball_in_hand": ball_in_hand,
        "first_contact": first_contact,
        "carom": carom,
    }


def judged(facts: Shot, own: str = "white", **options: Any) -> dict[str, Any]:
    """Return the parts of the ruling that RULING_KEYS name."""
    answer = judge(facts, own, **options).as_dict()
    return {key: answer[key] for key in RULING_KEYS}


# -- Worked examples of the rules (the shooter plays white) -------------------

WORKED_EXAMPLES = [
    pytest.param(
        shot(c("white", "yellow"), c("yellow", "pins", "left", "top")),
        ruling("shooter", 4, [], False, "opponent", None),
        id="yellow knocks left and top",
    ),
    pytest.param(
        shot(c("white", "yellow"), c("white", "red")),
        ruling("shooter", 4, [], False, "opponent", "kiss"),
        id="kiss",
    ),
    pytest.param(
        shot(c("white", "yellow"), c("yellow", "red"), c("red", "pins", "center")),
        ruling("shooter", 11, [], False, "opponent", "ricochet"),
        id="ricochet and red knocks center alone",
    ),
    pytest.param(
        shot(c("white", "yellow"), c("yellow", "pins", "center", "right")),
        ruling("shooter", 6, [], False, "opponent", None),
        id="center with a white pin",
    ),
    pytest.param(
        shot(c("white", "yellow")),
        ruling(None, 0, [], False, "opponent", None),
        id="white-yellow only is a pointless valid shot",
    ),
    pytest.param(
        shot(),
        ruling("opponent", 2, ["miss"], True, "none", None),
        id="miss",
    ),
    pytest.param(
        shot(c("white", "red"), c("red", "pins", "left")),
        ruling("opponent", 6, ["red_first"], True, "red", None),
        id="red first",
    ),
    pytest.param(
        shot(c("white", "pins", "bottom"), c("white", "yellow")),
        ruling("opponent", 4, ["pins_first"], True, "pins", None),
        id="pins first",
    ),
    pytest.param(
        shot(c("white", "yellow"), c("yellow", "pins", "left"), c("white", "pins", "right")),
        ruling("opponent", 4, ["cue_pins"], False, "opponent", None),
        id="cue ball on the pins",
    ),
    pytest.param(
        shot(c("white", "yellow"), c("white", "red"), c("white", "pins", "center")),
        ruling("opponent", 12, ["cue_pins"], False, "opponent", "kiss"),
        id="cue ball knocks center alone after a kiss",
    ),
    pytest.param(
        shot(c("white", "yellow"), c("yellow", "red"), c("yellow", "off")),
        ruling("opponent", 5, ["off_table"], True, "opponent", "ricochet"),
        id="yellow leaves the table after a ricochet",
    ),
    pytest.param(
        shot(called=("feet",)),
        ruling("opponent", 4, ["miss", "feet"], True, "none", None),
        id="miss and feet",
    ),
    pytest.param(
        shot(c("white", "off")),
        ruling("opponent", 4, ["miss", "off_table"], True, "none", None),
        id="white leaves the table without touching anything",
    ),
    pytest.param(
        shot(c("yellow", "white"), c("white", "pins", "center"), struck="yellow"),
        ruling("opponent", 10, ["wrong_ball"], True, None, None),
        id="wrong ball",
    ),
]


@pytest.mark.parametrize(("facts", "expected"), WORKED_EXAMPLES)
def test_each_worked_example_of_the_rules_gets_its_full_ruling(facts, expected):
    assert judged(facts) == expected


def test_ruling_spells_every_key_of_the_notation():
    facts = shot(c("white", "yellow"), c("white", "red"), c("red", "pins", "left", "center"))

    assert judge(facts, "white").as_dict() == {
        "valid": True,
        "first_contact": "opponent",
        "carom": "kiss",
        "pins": ["center", "left"],
        "pin_points": 6,
        "carom_points": 4,
        "fouls": [],
        "foul_points": 0,
        "scorer": "shooter",
        "points": 10,
        "ball_in_hand": False,
    }


def test_yellow_shooter_is_judged_with_yellow_as_the_cue_ball():
    facts = shot(c("yellow", "white"), c("white", "red"))

    assert judged(facts, own="yellow") == ruling("shooter", 3, [], False, "opponent", "ricochet")


# -- Each foul code ------------------------------------------------------------

STROKE_FOULS = [
    pytest.param(shot(struck="yellow"), ["wrong_ball"], 2, True, id="wrong_ball"),
    pytest.param(shot(struck="red"), ["wrong_ball"], 2, True, id="wrong_ball with the red"),
    pytest.param(shot(c("white", "cushion")), ["miss"], 2, True, id="miss"),
    pytest.param(shot(c("white", "red")), ["red_first"], 4, True, id="red_first"),
    pytest.param(shot(c("white", "pins", "top")), ["pins_first"], 2, True, id="pins_first"),
    pytest.param(
        shot(c("white", "yellow"), c("white", "pins", "top")),
        ["cue_pins"],
        0,
        False,
        id="cue_pins",
    ),
    pytest.param(
        shot(c("white", "yellow"), c("yellow", "off")), ["off_table"], 2, True, id="off_table"
    ),
]


@pytest.mark.parametrize(("facts", "fouls", "foul_points", "ball_in_hand"), STROKE_FOULS)
def test_each_stroke_foul_has_its_base_and_ball_in_hand(facts, fouls, foul_points, ball_in_hand):
    answer = judge(facts, "white")

    assert list(answer.fouls) == fouls
    assert answer.foul_points == foul_points
    assert answer.ball_in_hand is ball_in_hand
    assert answer.valid is False


@pytest.mark.parametrize(
    ("code", "base"),
    [("red_first", 4), ("cue_pins", 0), ("miss", 2), ("off_table", 2)]
    + [(code, 2) for code in CALLED_FOULS],
)
def test_foul_base_is_two_except_red_first_four_and_cue_pins_nothing(code, base):
    assert foul_base(code) == base


@pytest.mark.parametrize("code", CALLED_FOULS)
def test_each_called_foul_alone_after_a_valid_hit_gives_opponent_two_and_ball_in_hand(code):
    facts = shot(c("white", "yellow"), called=(code,))

    assert judged(facts) == ruling("opponent", 2, [code], True, "opponent", None)


@pytest.mark.parametrize("code", CALLED_FOULS)
def test_each_called_foul_adds_to_a_miss(code):
    facts = shot(called=(code,))

    assert judged(facts) == ruling("opponent", 4, ["miss", code], True, "none", None)


@pytest.mark.parametrize("code", CALLED_FOULS)
def test_each_called_foul_after_cue_pins_gives_ball_in_hand(code):
    facts = shot(c("white", "yellow"), c("white", "pins", "left"), called=(code,))

    assert judged(facts) == ruling("opponent", 4, ["cue_pins", code], True, "opponent", None)


def test_all_called_fouls_together_are_listed_in_rulebook_order_and_add_up():
    facts = shot(c("white", "yellow"), called=tuple(reversed(CALLED_FOULS)))

    answer = judge(facts, "white")

    assert list(answer.fouls) == list(CALLED_FOULS)
    assert answer.foul_points == 2 * len(CALLED_FOULS)
    assert answer.points == 22


def test_stroke_fouls_come_before_called_fouls_in_the_listed_order():
    facts = shot(
        c("yellow", "white"),
        c("white", "off"),
        struck="yellow",
        called=("push_shot", "balls_moving"),
    )

    assert list(judge(facts, "white").fouls) == [
        "wrong_ball",
        "off_table",
        "balls_moving",
        "push_shot",
    ]


def test_red_first_already_includes_the_miss_and_never_adds_to_it():
    facts = shot(c("white", "red"), c("white", "yellow"))

    assert judged(facts) == ruling("opponent", 4, ["red_first"], True, "red", None)


def test_red_first_judges_no_carom_even_when_the_opponent_ball_is_hit_later():
    facts = shot(c("white", "red"), c("white", "yellow"), c("yellow", "red"))

    answer = judge(facts, "white")

    assert answer.carom is None
    assert answer.carom_points == 0


def test_cushions_before_the_first_contact_are_ignored():
    facts = shot(c("white", "cushion"), c("white", "cushion"), c("white", "yellow"))

    assert judged(facts) == ruling(None, 0, [], False, "opponent", None)


def test_contact_written_from_the_other_ball_counts_as_the_cue_ball_first_contact():
    facts = shot(c("red", "white"))

    assert judged(facts)["first_contact"] == "red"


# -- Same-time first contacts ----------------------------------------------------

SAME_TIME = [
    pytest.param(
        shot(c("white", "yellow"), c("white", "red", same_time=True)),
        ruling("shooter", 4, [], False, "opponent", "kiss"),
        id="opponent then red at once is a kiss",
    ),
    pytest.param(
        shot(c("white", "red"), c("white", "yellow", same_time=True)),
        ruling("shooter", 4, [], False, "opponent", "kiss"),
        id="red then opponent at once is a kiss",
    ),
    pytest.param(
        shot(c("white", "cushion"), c("white", "red"), c("white", "yellow", same_time=True)),
        ruling("shooter", 4, [], False, "opponent", "kiss"),
        id="after a cushion, red and opponent at once is a kiss",
    ),
    pytest.param(
        shot(c("white", "yellow"), c("white", "pins", "left", same_time=True)),
        ruling("opponent", 2, ["cue_pins"], False, "opponent", None),
        id="opponent then pin at once is valid then cue_pins",
    ),
    pytest.param(
        shot(c("white", "pins", "left"), c("white", "yellow", same_time=True)),
        ruling("opponent", 2, ["cue_pins"], False, "opponent", None),
        id="pin then opponent at once is valid then cue_pins",
    ),
    pytest.param(
        shot(c("white", "pins", "left"), c("white", "red", same_time=True)),
        ruling("opponent", 6, ["red_first"], True, "red", None),
        id="pin and red at once is red first",
    ),
    pytest.param(
        shot(c("white", "red"), c("white", "yellow")),
        ruling("opponent", 4, ["red_first"], True, "red", None),
        id="red then opponent not at once is red first",
    ),
    pytest.param(
        shot(c("white", "yellow", same_time=True)),
        ruling(None, 0, [], False, "opponent", None),
        id="same_time on the first contact is ignored",
    ),
]


@pytest.mark.parametrize(("facts", "expected"), SAME_TIME)
def test_contacts_at_the_same_time_as_the_first_one_count_opponent_then_red_then_pin(
    facts, expected
):
    assert judged(facts) == expected


def test_cue_ball_on_pins_after_valid_hit_gives_opponent_the_pins():
    facts = shot(
        c("white", "yellow"),
        c("yellow", "red"),
        c("red", "pins", "top"),
        c("white", "pins", "center"),
    )

    answer = judge(facts, "white")

    assert answer.scorer == "opponent"
    assert answer.points == 4 + 2 + 3
    assert answer.foul_points == 0
    assert answer.ball_in_hand is False


# -- Only the earliest carom counts ------------------------------------------------

CAROMS = [
    pytest.param(
        shot(c("white", "yellow"), c("yellow", "red"), c("white", "red")),
        "ricochet",
        3,
        id="ricochet before a kiss",
    ),
    pytest.param(
        shot(c("white", "yellow"), c("white", "red"), c("yellow", "red")),
        "kiss",
        4,
        id="kiss before a ricochet",
    ),
    pytest.param(
        shot(c("white", "yellow"), c("yellow", "red"), c("white", "red", same_time=True)),
        "kiss",
        4,
        id="both on the red at once is a kiss",
    ),
    pytest.param(
        shot(
            c("white", "yellow"),
            c("yellow", "cushion"),
            c("yellow", "red"),
            c("white", "red"),
            c("yellow", "red"),
        ),
        "ricochet",
        3,
        id="later contacts with the red change nothing",
    ),
    pytest.param(
        shot(c("white", "yellow"), c("red", "yellow")),
        "ricochet",
        3,
        id="red written first is still a ricochet",
    ),
]


@pytest.mark.parametrize(("facts", "carom", "carom_points"), CAROMS)
def test_only_the_earliest_contact_with_the_red_decides_the_carom(facts, carom, carom_points):
    answer = judge(facts, "white")

    assert answer.carom == carom
    assert answer.carom_points == carom_points
    assert answer.points == carom_points


# -- Pins: order and values ---------------------------------------------------------

PIN_VALUES = [
    pytest.param((), 0, id="none"),
    pytest.param(("left",), 2, id="one white pin"),
    pytest.param(("top", "bottom", "left", "right"), 8, id="four white pins"),
    pytest.param(("center",), 8, id="red pin alone"),
    pytest.param(("center", "right"), 6, id="red pin with a white pin"),
    pytest.param(("center", "top", "bottom", "left", "right"), 12, id="all five"),
]


@pytest.mark.parametrize(("pins", "points"), PIN_VALUES)
def test_red_pin_is_worth_eight_alone_and_four_with_white_pins(pins, points):
    assert pin_value(pins) == points


def test_pins_are_listed_center_top_bottom_left_right_whoever_knocked_them():
    contacts = (
        c("white", "yellow"),
        c("yellow", "pins", "right", "left"),
        c("yellow", "red"),
        c("red", "pins", "bottom", "center"),
        c("white", "pins", "top"),
    )

    assert fallen_pins(contacts) == ("center", "top", "bottom", "left", "right")


def test_red_pin_knocked_by_one_ball_and_a_white_pin_by_another_is_worth_four():
    facts = shot(
        c("white", "yellow"),
        c("yellow", "red"),
        c("red", "pins", "center"),
        c("yellow", "pins", "left"),
    )

    answer = judge(facts, "white")

    assert answer.pins == ("center", "left")
    assert answer.pin_points == 6
    assert answer.points == 6 + 3


# -- Wrong ball ----------------------------------------------------------------------

WRONG_BALL = [
    pytest.param(
        shot(c("yellow", "pins", "left", "center"), struck="yellow"),
        ruling("opponent", 2 + 6, ["wrong_ball"], True, None, None),
        id="pins knocked by the struck ball go to the opponent",
    ),
    pytest.param(
        shot(c("yellow", "white"), c("white", "pins", "right"), struck="yellow"),
        ruling("opponent", 2 + 2, ["wrong_ball"], True, None, None),
        id="no cue_pins is judged",
    ),
    pytest.param(
        shot(c("yellow", "white"), c("white", "red"), struck="yellow"),
        ruling("opponent", 2, ["wrong_ball"], True, None, None),
        id="no carom is judged",
    ),
    pytest.param(
        shot(c("red", "cushion"), struck="red"),
        ruling("opponent", 2, ["wrong_ball"], True, None, None),
        id="no miss is judged",
    ),
    pytest.param(
        shot(c("yellow", "off"), struck="yellow", called=("feet",)),
        ruling("opponent", 6, ["wrong_ball", "off_table", "feet"], True, None, None),
        id="off table and called fouls count as usual",
    ),
]


@pytest.mark.parametrize(("facts", "expected"), WRONG_BALL)
def test_wrong_ball_judges_no_first_contact_or_carom_but_pins_and_other_fouls(facts, expected):
    assert judged(facts) == expected


def test_struck_ball_absent_means_the_shooters_own_ball():
    assert judge(Shot(struck=None, contacts=(c("white", "yellow"),)), "white").valid is True


# -- Off the table ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "facts",
    [
        pytest.param(shot(c("white", "yellow"), c("yellow", "off"), c("white", "off")), id="two"),
        pytest.param(
            shot(c("white", "yellow"), c("yellow", "red"), c("red", "off"), c("yellow", "off")),
            id="yellow and red",
        ),
        pytest.param(
            shot(
                c("white", "yellow"),
                c("yellow", "red"),
                c("red", "off"),
                c("yellow", "off"),
                c("white", "off"),
            ),
            id="all three",
        ),
    ],
)
def test_off_table_is_counted_once_however_many_balls_leave(facts):
    answer = judge(facts, "white")

    assert answer.fouls.count("off_table") == 1
    assert answer.foul_points == 2


# -- Cumulative and non-cumulative fouls ------------------------------------------------

FOUL_SUMS = [
    pytest.param(shot(called=("feet",)), 4, 2, 4, 2, id="miss and feet"),
    pytest.param(shot(c("white", "red"), c("white", "off")), 6, 4, 6, 4, id="red first, off"),
    pytest.param(
        shot(c("white", "pins", "left"), c("white", "off"), called=("jump",)),
        6,
        2,
        8,
        4,
        id="pins first, off table and jump",
    ),
    pytest.param(
        shot(c("white", "yellow"), c("white", "pins", "left"), c("white", "off")),
        2,
        2,
        4,
        4,
        id="cue_pins and off table",
    ),
    pytest.param(shot(c("white", "red")), 4, 4, 4, 4, id="red first alone"),
]


@pytest.mark.parametrize(
    ("facts", "summed", "largest", "points_summed", "points_largest"), FOUL_SUMS
)
def test_fouls_add_up_when_cumulative_and_only_the_largest_counts_otherwise(
    facts, summed, largest, points_summed, points_largest
):
    cumulative = judge(facts, "white", Ruleset(cumulative_fouls=True))
    largest_only = judge(facts, "white", Ruleset(cumulative_fouls=False))

    assert (cumulative.foul_points, cumulative.points) == (summed, points_summed)
    assert (largest_only.foul_points, largest_only.points) == (largest, points_largest)
    assert cumulative.fouls == largest_only.fouls


# -- Ruleset parameters -----------------------------------------------------------------

PARAMETERS = [
    pytest.param(
        {"side_pin": 3},
        shot(c("white", "yellow"), c("yellow", "pins", "left", "top")),
        ("shooter", 6),
        id="side_pin",
    ),
    pytest.param(
        {"center_with_others": 5},
        shot(c("white", "yellow"), c("yellow", "pins", "center", "top")),
        ("shooter", 7),
        id="center_with_others",
    ),
    pytest.param(
        {"center_alone": 10},
        shot(c("white", "yellow"), c("yellow", "pins", "center")),
        ("shooter", 10),
        id="center_alone",
    ),
    pytest.param(
        {"kiss_carom": 5},
        shot(c("white", "yellow"), c("white", "red")),
        ("shooter", 5),
        id="kiss_carom",
    ),
    pytest.param(
        {"ricochet_carom": 2},
        shot(c("white", "yellow"), c("yellow", "red")),
        ("shooter", 2),
        id="ricochet_carom",
    ),
    pytest.param({"foul": 3}, shot(called=("feet",)), ("opponent", 6), id="foul"),
    pytest.param({"foul": 3}, shot(c("white", "red")), ("opponent", 4), id="foul not red_first"),
    pytest.param({"red_first": 5}, shot(c("white", "red")), ("opponent", 5), id="red_first"),
    pytest.param({"red_first": 5}, shot(), ("opponent", 2), id="red_first not miss"),
    pytest.param(
        {"cumulative_fouls": False}, shot(called=("feet",)), ("opponent", 2), id="cumulative"
    ),
    pytest.param(
        {"pin_pitch": 80.0},
        shot(c("white", "yellow"), c("yellow", "pins", "left")),
        ("shooter", 2),
        id="pin_pitch places pins and changes no ruling",
    ),
    pytest.param(
        {"target": 30, "best_of": 5},
        shot(c("white", "yellow"), c("white", "red")),
        ("shooter", 4),
        id="target and best_of are for the fold",
    ),
]


@pytest.mark.parametrize(("overrides", "facts", "expected"), PARAMETERS)
def test_each_ruleset_parameter_changes_what_it_should(overrides, facts, expected):
    answer = judge(facts, "white", Ruleset.from_overrides(overrides))

    assert (answer.scorer, answer.points) == expected


def test_default_ruleset_has_the_rulebook_numbers():
    assert DEFAULT_RULESET.as_dict() == {
        "target": 60,
        "best_of": 3,
        "side_pin": 2,
        "center_with_others": 4,
        "center_alone": 8,
        "kiss_carom": 4,
        "ricochet_carom": 3,
        "foul": 2,
        "red_first": 4,
        "cumulative_fouls": True,
        "pin_pitch": 71.5,
    }


def test_overrides_change_only_the_named_parameters():
    ruleset = Ruleset.from_overrides({"target": 30, "best_of": 5, "center_alone": 10})

    changed = {k: v for k, v in ruleset.as_dict().items() if v != DEFAULT_RULESET.as_dict()[k]}
    assert changed == {"target": 30, "best_of": 5, "center_alone": 10}


@pytest.mark.parametrize("overrides", [None, {}])
def test_no_overrides_give_the_default_ruleset(overrides):
    assert Ruleset.from_overrides(overrides) == DEFAULT_RULESET


def test_pin_pitch_may_be_a_whole_number_of_millimetres():
    assert Ruleset.from_overrides({"pin_pitch": 70}).pin_pitch == 70.0


REFUSED_OVERRIDES = [
    pytest.param({"targett": 60}, "ruleset.targett", id="unknown key"),
    pytest.param({"target": "60"}, "ruleset.target", id="target as text"),
    pytest.param({"target": 60.5}, "ruleset.target", id="target not whole"),
    pytest.param({"target": True}, "ruleset.target", id="target as boolean"),
    pytest.param({"target": 0}, "ruleset.target", id="target zero"),
    pytest.param({"best_of": 0}, "ruleset.best_of", id="best_of zero"),
    pytest.param({"best_of": 4}, "ruleset.best_of", id="best_of even"),
    pytest.param({"side_pin": -1}, "ruleset.side_pin", id="negative points"),
    pytest.param({"foul": None}, "ruleset.foul", id="null points"),
    pytest.param({"cumulative_fouls": 1}, "ruleset.cumulative_fouls", id="cumulative as number"),
    pytest.param({"cumulative_fouls": "no"}, "ruleset.cumulative_fouls", id="cumulative as text"),
    pytest.param({"pin_pitch": "71.5"}, "ruleset.pin_pitch", id="pin_pitch as text"),
    pytest.param({"pin_pitch": 0}, "ruleset.pin_pitch", id="pin_pitch zero"),
    pytest.param({"pin_pitch": True}, "ruleset.pin_pitch", id="pin_pitch as boolean"),
    pytest.param({"pin_pitch": float("nan")}, "ruleset.pin_pitch", id="pin_pitch NaN"),
    pytest.param({"pin_pitch": float("inf")}, "ruleset.pin_pitch", id="pin_pitch infinite"),
    pytest.param([("target", 60)], "ruleset", id="not an object"),
]


@pytest.mark.parametrize(("overrides", "field"), REFUSED_OVERRIDES)
def test_ruleset_overrides_are_refused_naming_the_parameter(overrides, field):
    with pytest.raises(Refused) as caught:
        Ruleset.from_overrides(overrides)

    assert caught.value.field == field
    assert caught.value.message


def test_ruleset_error_names_the_field_under_the_given_prefix():
    with pytest.raises(Refused) as caught:
        Ruleset.from_overrides({"best_of": 2}, field="match.ruleset")

    assert caught.value.field == "match.ruleset.best_of"


# -- A shot after a ball-in-contact re-spot (no_score) ----------------------------------

NO_SCORE = [
    pytest.param(
        shot(c("white", "yellow"), c("white", "red"), c("red", "pins", "center")),
        ruling(None, 0, [], False, "opponent", "kiss"),
        id="valid shot scores nothing",
    ),
    pytest.param(
        shot(c("white", "yellow")),
        ruling(None, 0, [], False, "opponent", None),
        id="pointless shot stays pointless",
    ),
    pytest.param(
        shot(c("white", "red"), c("red", "pins", "left")),
        ruling("opponent", 6, ["red_first"], True, "red", None),
        id="fouls still count for the opponent",
    ),
    pytest.param(
        shot(c("white", "yellow"), c("yellow", "pins", "left"), c("white", "pins", "right")),
        ruling("opponent", 4, ["cue_pins"], False, "opponent", None),
        id="cue_pins still gives the opponent the pins",
    ),
]


@pytest.mark.parametrize(("facts", "expected"), NO_SCORE)
def test_shot_after_a_respot_cannot_score_for_the_shooter_but_its_fouls_count(facts, expected):
    assert judged(facts, no_score=True) == expected


def test_shot_after_a_respot_still_reports_what_it_obtained():
    facts = shot(c("white", "yellow"), c("yellow", "pins", "left"))

    answer = judge(facts, "white", no_score=True)

    assert answer.valid is True
    assert answer.pin_points == 2


# -- The lag (decide_lag) ---------------------------------------------------------------


def lag(distance: float, fault: str | None = None) -> LagResult:
    return LagResult(distance=distance, fault=fault)


LAGS = [
    # 1. Late starts.
    pytest.param(lag(100, "late_start"), lag(200), False, {"A": 1}, "B", id="A's second late"),
    pytest.param(lag(300), lag(100, "late_start"), False, {"B": 1}, "A", id="B's second late"),
    pytest.param(
        lag(100, "late_start"),
        lag(200, "late_start"),
        False,
        {"A": 1, "B": 1},
        None,
        id="both second late starts at once repeat",
    ),
    pytest.param(lag(300, "late_start"), lag(200), False, {}, None, id="first late repeats"),
    pytest.param(
        lag(300, "late_start"),
        lag(200),
        False,
        {"B": 1},
        None,
        id="the other's earlier late start does not count",
    ),
    pytest.param(
        lag(100, "late_start"),
        lag(200, "late_start"),
        False,
        {"B": 1},
        "A",
        id="first late of A and second late of B",
    ),
    pytest.param(
        lag(100, "late_start"),
        lag(200, "long_cushion"),
        False,
        {"A": 1},
        "B",
        id="second late start loses before another fault",
    ),
    pytest.param(
        lag(100, "late_start"),
        lag(200, "crossed"),
        False,
        {},
        None,
        id="first late start repeats before another fault",
    ),
    pytest.param(
        lag(100),
        lag(200, "late_start"),
        True,
        {"B": 2},
        "A",
        id="a third late start loses too",
    ),
    # 2. Collision without fault.
    pytest.param(lag(100), lag(200), True, None, None, id="collision without fault repeats"),
    pytest.param(
        lag(100, "crossed"), lag(200), True, None, "B", id="collision with a fault goes on"
    ),
    # 3. Both at fault.
    pytest.param(
        lag(100, "red_or_pins"), lag(200, "long_cushion"), False, None, None, id="both at fault"
    ),
    # 4. One at fault.
    pytest.param(lag(100, "red_or_pins"), lag(200), False, None, "B", id="A red_or_pins"),
    pytest.param(lag(100, "long_cushion"), lag(200), False, None, "B", id="A long_cushion"),
    pytest.param(lag(100, "crossed"), lag(200), False, None, "B", id="A crossed"),
    pytest.param(lag(300), lag(100, "long_cushion"), False, None, "A", id="B long_cushion"),
    # 5. Distances.
    pytest.param(lag(150), lag(150), False, None, None, id="equal distances repeat"),
    pytest.param(lag(95), lag(120), False, None, "A", id="A closer"),
    pytest.param(lag(120), lag(95.5), False, None, "B", id="B closer"),
]


@pytest.mark.parametrize(("a", "b", "collision", "earlier", "winner"), LAGS)
def test_lag_is_decided_by_the_first_rule_that_applies(a, b, collision, earlier, winner):
    decision = decide_lag(a, b, collision=collision, earlier_late_starts=earlier)

    assert decision.winner == winner
    assert decision.reason


def not_measured(fault: str | None = None) -> LagResult:
    return LagResult(fault=fault)


# The winner the referee gave, and what the faults, a collision and the distances make of it.
LAGS_WITH_A_WINNER = [
    pytest.param(not_measured(), not_measured(), False, None, "B", "B", id="nothing measured"),
    pytest.param(lag(95), not_measured(), False, None, "B", "B", id="one distance measured"),
    pytest.param(lag(95), lag(120), False, None, "A", "A", id="the distances agree"),
    pytest.param(lag(95), lag(120), False, None, "B", "A", id="the distances give it to A"),
    pytest.param(lag(95), lag(95), False, None, "A", None, id="equal distances repeat"),
    pytest.param(
        not_measured("crossed"), not_measured(), False, None, "B", "B", id="a fault of the loser"
    ),
    pytest.param(
        not_measured("crossed"), not_measured(), False, None, "A", "B", id="a fault of the winner"
    ),
    pytest.param(
        not_measured("crossed"),
        lag(120, "long_cushion"),
        False,
        None,
        "A",
        None,
        id="both at fault",
    ),
    pytest.param(not_measured(), not_measured(), True, None, "A", None, id="a collision repeats"),
    pytest.param(
        not_measured("late_start"), not_measured(), False, {}, "B", None, id="a first late start"
    ),
    pytest.param(
        not_measured("late_start"),
        not_measured(),
        False,
        {"A": 1},
        "B",
        "B",
        id="a second late start loses",
    ),
]


@pytest.mark.parametrize(("a", "b", "collision", "earlier", "given", "winner"), LAGS_WITH_A_WINNER)
def test_a_winner_given_decides_only_what_the_faults_and_distances_leave_open(
    a, b, collision, earlier, given, winner
):
    decision = decide_lag(a, b, collision=collision, earlier_late_starts=earlier, winner=given)

    assert decision.winner == winner
    assert decision.reason


def test_a_lag_with_neither_a_winner_nor_two_distances_cannot_be_decided():
    with pytest.raises(ValueError, match="both distances"):
        decide_lag(lag(95), not_measured())


def test_pins_stand_in_a_cross_one_pitch_from_the_centre_pin():
    pins = pin_positions(Ruleset.from_overrides({"pin_pitch": 80}))

    assert pins["center"] == (710.0, 1420.0)
    assert pins["top"] == (710.0, 1500.0) and pins["bottom"] == (710.0, 1340.0)
    assert pins["left"] == (630.0, 1420.0) and pins["right"] == (790.0, 1420.0)


def test_default_pitch_leaves_room_for_a_ball_between_two_pins():
    pins = pin_positions()

    assert pins["right"][0] - pins["center"][0] == 71.5


def test_a_ruling_spells_out_every_field_of_the_ruling():
    ruling = judge(Shot(contacts=(Contact("white", "yellow"),)), "white")

    assert list(ruling.as_dict()) == [f.name for f in dataclasses.fields(ruling)]
