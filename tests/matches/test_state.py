"""The match fold: legality of each event (check_log), the two views, games and the match."""

from typing import Any

import pytest

from matches.domain.errors import Refused
from matches.domain.fold import check_log, evolve, fold, state_after
from matches.domain.header import Header, parse_header
from matches.domain.render import render
from matches.domain.rules import Ruleset
from matches.domain.state import MatchState

W, Y, R = "white", "yellow", "red"


def header(**ruleset: Any) -> Header:
    """Return a header: A plays white, B yellow, a ruleset with small targets."""
    _, parsed = parse_header(
        {
            "players": {"A": {"name": "Ann"}, "B": {"name": "Bea"}},
            "balls": {"A": W, "B": Y},
            "ruleset": {"target": 10, "best_of": 3, **ruleset},
        }
    )
    return parsed


def c(ball: str, hit: str, *pins: str) -> dict[str, Any]:
    contact: dict[str, Any] = {"ball": ball, "hit": hit}
    if pins:
        contact["pins"] = list(pins)
    return contact


def shot(player: str | None, *contacts: dict[str, Any], **facts: Any) -> dict[str, Any]:
    event: dict[str, Any] = {"type": "shot", "contacts": list(contacts), **facts}
    if player is not None:
        event["player"] = player
    return event


def start(game: int, breaker: str) -> dict[str, Any]:
    return {"type": "game_started", "game": game, "breaker": breaker}


def place(ball: str, pos: list[float], reason: str) -> dict[str, Any]:
    return {"type": "ball_placed", "ball": ball, "pos": pos, "reason": reason}


def lag(a: float, b: float, **faults: str) -> dict[str, Any]:
    event: dict[str, Any] = {"type": "lag", "A": {"distance": a}, "B": {"distance": b}}
    for player, fault in faults.items():
        event[player]["fault"] = fault
    return event


def lag_won(winner: str, **results: dict[str, Any]) -> dict[str, Any]:
    """Return a lag recorded by its winner, each player's result (distance, fault) optional."""
    return {"type": "lag", "winner": winner, **results}


def amend(seq: int, *contacts: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "shot_amended",
        "shot": seq,
        "facts": {"contacts": list(contacts)},
        "reason": "video",
    }


def retract(seq: int) -> dict[str, Any]:
    return {"type": "shot_retracted", "shot": seq, "reason": "entered twice"}


def foul(player: str, code: str = "touched") -> dict[str, Any]:
    return {"type": "foul", "player": player, "code": code}


# Shots worth a known amount for the shooter (A plays white, B yellow).
def a_scores_10() -> dict[str, Any]:
    """White–yellow, yellow–red (ricochet 3), red knocks the centre alone (8), cut to 10."""
    return shot("A", c(W, Y), c(Y, R), c(R, "pins", "center"))


def b_scores_10() -> dict[str, Any]:
    return shot("B", c(Y, W), c(W, R), c(R, "pins", "center"))


def a_zero() -> dict[str, Any]:
    return shot("A", c(W, Y))


def b_zero() -> dict[str, Any]:
    return shot("B", c(Y, W))


A_WINS_GAME_1 = [start(1, "A"), a_scores_10()]  # 11 points, cut to the target 10


# -- Rejections: the notation's list, each naming seq and field ----------------------------

REJECTED = {
    "shot by the wrong player": ([start(1, "A"), b_zero()], 2, "player"),
    "shot by the wrong player later in the game": (
        [start(1, "A"), a_zero(), b_zero(), b_zero()],
        4,
        "player",
    ),
    "shot before any game started": ([a_zero()], 1, "type"),
    "shot during the lag": ([lag(100, 200), a_zero()], 2, "type"),
    "shot after the match ended": (
        [*A_WINS_GAME_1, start(2, "B"), shot("B", c(Y, "cushion")), a_scores_10(), b_zero()],
        6,
        "type",
    ),
    "shot after its game was won": ([*A_WINS_GAME_1, b_zero()], 3, "type"),
    "game 2 started first": ([start(2, "A")], 1, "game"),
    "game 1 started twice": ([start(1, "A"), a_zero(), start(1, "B")], 3, "game"),
    "game 3 started after game 1": ([*A_WINS_GAME_1, start(3, "A")], 3, "game"),
    "game 2 started while game 1 is open": ([start(1, "A"), a_zero(), start(2, "B")], 3, "game"),
    "game 2 with game 1's breaker": ([*A_WINS_GAME_1, start(2, "A")], 3, "breaker"),
    "game 3 with game 2's breaker": (
        [*A_WINS_GAME_1, start(2, "B"), b_scores_10(), start(3, "B")],
        5,
        "breaker",
    ),
    "game started after a lag with equal distances": ([lag(90, 90), start(1, "A")], 2, "type"),
    "game started after a lag both lost": (
        [lag(90, 100, A="long_cushion", B="crossed"), start(1, "B")],
        2,
        "type",
    ),
    "game started after a first late start": (
        [lag(90, 100, A="late_start"), start(1, "A")],
        2,
        "type",
    ),
    "game started after a collision": (
        [{**lag(90, 100), "collision": True}, start(1, "A")],
        2,
        "type",
    ),
    "game started after a decided lag, then a repeated one": (
        [lag(90, 100), lag(90, 90), start(1, "A")],
        3,
        "type",
    ),
    "lag after the first game started": ([start(1, "A"), lag(90, 100)], 2, "type"),
    "lag won by the player the distances make the loser": (
        [lag_won("B", A={"distance": 90}, B={"distance": 100})],
        1,
        "winner",
    ),
    "lag won by the player at fault": ([lag_won("A", A={"fault": "crossed"})], 1, "winner"),
    "lag won although both are at fault": (
        [lag_won("A", A={"fault": "crossed"}, B={"fault": "red_or_pins"})],
        1,
        "winner",
    ),
    "lag won although the balls collided": ([{**lag_won("A"), "collision": True}], 1, "winner"),
    "lag won despite a first late start": ([lag_won("A", B={"fault": "late_start"})], 1, "winner"),
    "lag won with equal distances": (
        [lag_won("A", A={"distance": 90}, B={"distance": 90})],
        1,
        "winner",
    ),
    "game started after the match ended": (
        [*A_WINS_GAME_1, start(2, "B"), b_zero(), a_scores_10(), start(3, "A")],
        6,
        "type",
    ),
    "amendment of a game start": ([start(1, "A"), a_zero(), amend(1, c(W, Y))], 3, "shot"),
    "amendment of a seq that does not exist yet": (
        [start(1, "A"), a_zero(), amend(9, c(W, Y))],
        3,
        "shot",
    ),
    "amendment of a retracted shot": (
        [start(1, "A"), a_zero(), retract(2), amend(2, c(W, Y))],
        4,
        "shot",
    ),
    "amendment with facts that break the notation": (
        [start(1, "A"), a_zero(), amend(2, c(Y, R))],
        3,
        "facts.contacts[0].ball",
    ),
    "retraction of a shot that is not the latest": (
        [start(1, "A"), a_zero(), b_zero(), retract(2)],
        4,
        "shot",
    ),
    "retraction of a shot retracted already": (
        [start(1, "A"), a_zero(), retract(2), retract(2)],
        4,
        "shot",
    ),
    "retraction of a non-shot": ([start(1, "A"), retract(1)], 2, "shot"),
    "retraction after a game started": ([*A_WINS_GAME_1, start(2, "B"), retract(2)], 4, "shot"),
    "break placement in the upper half": (
        [start(1, "A"), place(W, [700, 2000], "break")],
        2,
        "pos",
    ),
    "break placement across the centre line": (
        [start(1, "A"), place(W, [700, 1400], "break")],
        2,
        "pos",
    ),
    "break placement of the opponent's ball": (
        [start(1, "A"), place(Y, [700, 500], "break")],
        2,
        "ball",
    ),
    "ball in hand placed in the offender's half": (
        [
            start(1, "A"),
            shot("A", c(W, "cushion"), rest={W: [700, 2400]}),
            place(Y, [700, 2000], "in_hand"),
        ],
        3,
        "pos",
    ),
    "ball in hand placed upper when the offender lies on the centre line": (
        [
            start(1, "A"),
            shot("A", c(W, "cushion"), rest={W: [700, 1430]}),
            place(Y, [700, 2000], "in_hand"),
        ],
        3,
        "pos",
    ),
    "ball in hand without a foul": (
        [start(1, "A"), a_zero(), place(Y, [700, 2000], "in_hand")],
        3,
        "reason",
    ),
    "offender's ball placed off the spots": (
        [start(1, "A"), shot("A", c(W, "cushion")), place(W, [700, 2000], "in_hand")],
        3,
        "pos",
    ),
    "placement on top of another ball": (
        [start(1, "A"), place(W, [710, 2740], "respot")],
        2,
        "pos",
    ),
    "shot facts that break the notation": (
        [start(1, "A"), shot(None, c(Y, R))],
        2,
        "contacts[0].ball",
    ),
    "foul outside a stroke before any game": ([foul("A")], 1, "type"),
    "foul outside a stroke between games": ([*A_WINS_GAME_1, foul("B")], 3, "type"),
    "game forfeited between games": (
        [*A_WINS_GAME_1, {"type": "game_forfeited", "player": "B"}],
        3,
        "type",
    ),
    "match forfeited after it ended": (
        [*A_WINS_GAME_1, start(2, "B"), b_zero(), a_scores_10()]
        + [{"type": "match_forfeited", "player": "B"}],
        6,
        "type",
    ),
}


@pytest.mark.parametrize(("events", "seq", "field"), REJECTED.values(), ids=REJECTED.keys())
def test_check_log_refuses_the_first_illegal_event_naming_its_seq_and_field(events, seq, field):
    with pytest.raises(Refused) as refused:
        check_log(header(), events)

    assert (refused.value.seq, refused.value.field) == (seq, field)
    assert f"seq {seq}" in str(refused.value)


ACCEPTED = {
    "game 1 after a decided lag": [lag(90, 100), start(1, "B"), b_zero()],
    "game 1 after a repeated lag then a decided one": [lag(90, 90), lag(90, 100), start(1, "A")],
    "game 1 after a lag recorded by its winner alone": [lag_won("B"), start(1, "A")],
    "game 1 after a lag won with one distance measured": [
        lag_won("B", B={"distance": 40}),
        start(1, "B"),
    ],
    "game 1 after a lag won and the loser at fault": [
        lag_won("B", A={"fault": "long_cushion"}),
        start(1, "B"),
    ],
    "game 1 after a lag won and distances that agree": [
        lag_won("A", A={"distance": 90}, B={"distance": 100}),
        start(1, "A"),
    ],
    "game 1 after a repeated lag, then one recorded by its winner": [
        lag(90, 90),
        lag_won("A"),
        start(1, "A"),
    ],
    "game 1 after a second late start loses the lag": [
        lag(90, 100, A="late_start"),
        lag(90, 100, A="late_start"),
        start(1, "B"),
    ],
    "game 1 without a lag (lots drawn), B breaking": [start(1, "B"), b_zero()],
    "break placement in the lower half": [start(1, "A"), place(W, [700, 500], "break"), a_zero()],
    "ball in hand opposite the offender": [
        start(1, "A"),
        shot("A", c(W, "cushion"), rest={W: [700, 2400]}),
        place(Y, [700, 600], "in_hand"),
        b_zero(),
    ],
    "ball in hand anywhere when the offender's ball is unknown": [
        start(1, "A"),
        shot("A", c(W, "cushion")),
        place(Y, [700, 2000], "in_hand"),
    ],
    "offender's ball on the top spot, the incoming ball in the lower half": [
        start(1, "A"),
        shot("A", c(W, Y), called=["feet"], rest={W: [700, 600]}),
        place(W, [710, 2740], "in_hand"),
        place(Y, [700, 600], "in_hand"),
    ],
    "retraction of the latest shot, then the shot again": [
        start(1, "A"),
        a_zero(),
        retract(2),
        a_zero(),
        b_zero(),
    ],
    "amendment of an earlier shot of the game": [
        start(1, "A"),
        a_zero(),
        b_zero(),
        amend(2, c(W, R)),
    ],
    "shots after an amendment that decided the game were legal when recorded": [
        start(1, "A"),
        a_zero(),
        b_zero(),
        a_zero(),
        amend(2, c(W, Y), c(Y, R), c(R, "pins", "center")),
    ],
    "foul outside a stroke by the player not due": [start(1, "A"), foul("B"), a_zero()],
    "shot without a player is given the one due": [start(1, "A"), shot(None, c(W, Y))],
}


@pytest.mark.parametrize("events", ACCEPTED.values(), ids=ACCEPTED.keys())
def test_check_log_accepts_legal_events(events):
    assert len(check_log(header(), events)) == len(events)


def test_check_log_names_the_player_due_on_a_shot_that_omits_it():
    checked = check_log(header(), [start(1, "B"), shot(None, c(Y, W)), shot(None, c(W, Y))])

    assert [event.get("player") for event in checked] == [None, "B", "A"]


def test_check_log_judges_a_shot_without_player_with_the_due_players_ball():
    # A is due and plays white, so yellow is not moving yet when it meets the red.
    with pytest.raises(Refused) as refused:
        check_log(header(), [start(1, "A"), shot(None, c(Y, R))])

    assert refused.value.field == "contacts[0].ball"


def test_check_log_judges_each_event_with_the_corrections_recorded_before_it():
    # Once amended, B's shot decides game 1, so a further shot of game 1 is refused.
    events = [
        start(1, "A"),
        a_zero(),
        b_zero(),
        amend(3, c(Y, W), c(W, R), c(R, "pins", "center")),
        a_zero(),
    ]

    with pytest.raises(Refused) as refused:
        check_log(header(), events)

    assert (refused.value.seq, refused.value.field) == (5, "type")


def test_a_lag_recorded_by_its_winner_alone_is_won_on_the_referees_word():
    state = fold(header(), check_log(header(), [lag_won("B")]))

    assert state["lags"] == [{"seq": 1, "winner": "B", "reason": "the referee's word"}]
    assert state["status"] == "lag"


def test_a_lag_won_and_measured_is_won_by_the_rule_that_decides_it():
    events = [lag_won("A", A={"distance": 90}, B={"distance": 100, "fault": "crossed"})]

    state = fold(header(), check_log(header(), events))

    assert state["lags"] == [{"seq": 1, "winner": "A", "reason": "B at fault"}]


def test_a_late_start_in_a_lag_recorded_by_its_winner_counts_towards_the_second():
    events = [lag_won("A", B={"fault": "long_cushion"}), lag_won("A", B={"fault": "late_start"})]

    with pytest.raises(Refused) as refused:
        check_log(header(), events)
    assert (refused.value.seq, refused.value.field, refused.value.code) == (
        2,
        "winner",
        "lag_repeated",
    )

    second = [lag(90, 100, B="late_start"), lag_won("A", B={"fault": "late_start"})]
    assert fold(header(), check_log(header(), second))["lags"][-1]["winner"] == "A"


def test_a_winner_the_distances_contradict_is_refused_naming_who_they_make_the_winner():
    with pytest.raises(Refused) as refused:
        check_log(header(), [lag_won("B", A={"distance": 90}, B={"distance": 100})])

    assert refused.value.as_dict() == {
        "error": "the faults and distances given make A the winner",
        "field": "winner",
        "seq": 1,
        "code": "lag_won_by",
        "params": {"player": "A"},
    }


def test_foul_outside_a_stroke_by_the_player_due_passes_his_turn():
    state = fold(header(), [start(1, "A"), foul("A")])

    assert state["games"][0]["score"] == {"A": 0, "B": 2}
    assert state["next"]["player"] == "B"
    assert state["next"]["ball_in_hand"] is True
    with pytest.raises(Refused):
        check_log(header(), [start(1, "A"), foul("A"), a_zero()])


def test_foul_outside_a_stroke_by_the_player_not_due_keeps_the_turn_and_gives_ball_in_hand():
    state = fold(header(foul=3), [start(1, "A"), a_zero(), foul("A", "displaced")])

    assert state["games"][0]["score"] == {"A": 0, "B": 3}
    assert state["next"] == {
        "game": 1,
        "player": "B",
        "ball_in_hand": True,
        "zone": None,
        "break": False,
    }


def test_foul_outside_a_stroke_can_win_the_game():
    events = [start(1, "A"), shot("A", c(W, Y), c(W, R), c(Y, "pins", "top", "left")), foul("B")]
    # A reaches 8 with the shot, then 10 with B's foul.
    state = fold(header(), events)

    assert state["games"][0]["winner"] == "A"
    assert state["games"][0]["score"] == {"A": 10, "B": 0}


# -- The views ---------------------------------------------------------------------------

CORRECTED = [
    start(1, "A"),  # 1
    a_zero(),  # 2
    b_zero(),  # 3
    shot("A", c(W, Y), c(W, R)),  # 4: kiss 4
    b_zero(),  # 5: entered twice
    retract(5),  # 6
    amend(2, c(W, Y), c(Y, "pins", "left")),  # 7: 2 for A
]


def test_amended_view_applies_corrections_recorded_after_upto():
    state = fold(header(), CORRECTED, upto=5)

    assert state["games"][0]["score"] == {"A": 6, "B": 0}
    assert state["games"][0]["shots"] == 3
    assert state["shots"][-1]["retracted"] is True
    assert state["next"]["player"] == "B"


def test_live_view_shows_only_what_was_recorded_up_to_upto():
    state = fold(header(), CORRECTED, upto=5, view="live")

    assert state["games"][0]["score"] == {"A": 4, "B": 0}
    assert state["games"][0]["shots"] == 4
    assert [s["amended"] or s["retracted"] for s in state["shots"]] == [False] * 4
    assert state["next"]["player"] == "A"


def test_without_upto_the_live_and_amended_views_are_the_same():
    assert fold(header(), CORRECTED, view="live") == fold(header(), CORRECTED)


@pytest.mark.parametrize("upto", range(len(CORRECTED) + 1))
def test_amended_view_at_upto_equals_the_full_replay_cut_after_the_last_correction(upto):
    last = fold(header(), CORRECTED)
    cut = fold(header(), CORRECTED, upto=upto)

    assert cut["seq"] == upto
    assert cut["shots"] == last["shots"][: len(cut["shots"])]


def test_amended_shot_keeps_its_first_ruling_as_original():
    entry = fold(header(), CORRECTED)["shots"][0]

    assert entry["amended"] is True
    assert entry["original"]["points"] == 0
    assert entry["ruling"]["points"] == 2
    assert entry["ruling"]["scorer"] == "shooter"


def test_latest_amendment_of_a_shot_is_the_one_in_force():
    events = [*CORRECTED[:4], amend(2, c(W, "cushion")), amend(2, c(W, Y), c(W, R))]

    state = fold(header(), events)

    assert state["shots"][0]["ruling"]["carom"] == "kiss"
    assert state["games"][0]["score"] == {"A": 8, "B": 0}


def test_a_correction_folded_into_a_copy_leaves_the_state_copied_as_it_was():
    """What a preview does: fold an amendment into a copy of the match as it stands."""
    state = state_after(header(), CORRECTED[:6])
    shown = render(state)

    evolve(state.copy(), amend(2, c(W, Y), c(Y, "pins", "left")))

    assert not state.corrections.amendments
    assert render(state) == shown
    assert render(evolve(state.copy(), b_zero())) == fold(header(), [*CORRECTED[:6], b_zero()])


def test_an_unknown_view_is_refused():
    with pytest.raises(ValueError, match="view"):
        fold(header(), CORRECTED, view="as-recorded")


# -- Games and the match ------------------------------------------------------------------


def test_score_past_the_target_is_cut_to_the_target():
    state = fold(header(target=5), [start(1, "A"), a_scores_10()])

    assert state["games"][0]["score"] == {"A": 5, "B": 0}
    assert state["games"][0]["end"] == "target"


def test_score_exactly_at_the_target_wins_and_one_short_does_not():
    short = fold(header(target=12), [start(1, "A"), a_scores_10()])
    exact = fold(header(target=11), [start(1, "A"), a_scores_10()])

    assert short["games"][0]["winner"] is None
    assert exact["games"][0]["winner"] == "A"


@pytest.mark.parametrize(("best_of", "wins_needed"), [(1, 1), (3, 2), (5, 3), (7, 4)])
def test_match_ends_as_soon_as_a_player_wins_a_majority(best_of, wins_needed):
    events: list[dict[str, Any]] = []
    breaker = "A"
    for game in range(1, wins_needed + 1):
        events.append(start(game, breaker))
        if breaker == "B":
            events.append(b_zero())
        events.append(a_scores_10())
        breaker = "B" if breaker == "A" else "A"
        state = fold(header(best_of=best_of), events)
        if game < wins_needed:
            assert state["status"] == "playing"
            assert state["next"]["game"] == game + 1
    assert state["status"] == "finished"
    assert state["winner"] == "A"
    assert state["games_won"] == {"A": wins_needed, "B": 0}
    assert state["next"] is None
    with pytest.raises(Refused, match="over"):
        check_log(header(best_of=best_of), [*events, start(wins_needed + 1, breaker)])


def test_breakers_alternate_and_next_names_the_next_games_breaker():
    events = [start(1, "B"), b_scores_10()]
    state = fold(header(best_of=5), events)
    assert state["next"] == {
        "game": 2,
        "player": "A",
        "ball_in_hand": False,
        "zone": "lower",
        "break": True,
    }

    events += [start(2, "A"), a_scores_10(), start(3, "B"), b_scores_10()]
    state = fold(header(best_of=5), check_log(header(best_of=5), events))

    assert [g["breaker"] for g in state["games"]] == ["B", "A", "B"]
    assert state["next"]["player"] == "A"


def test_a_break_is_played_with_the_breakers_ball_in_the_lower_half():
    state = fold(header(), [start(1, "B")])

    assert state["status"] == "playing"
    assert state["next"] == {
        "game": 1,
        "player": "B",
        "ball_in_hand": False,
        "zone": "lower",
        "break": True,
    }
    assert state["positions"] == {"white": [710.0, 2740.0], "yellow": None, "red": [710.0, 2130.0]}


def test_shots_alternate_whatever_the_result():
    events = [start(1, "A"), a_zero(), shot("B", c(Y, W), c(W, R)), shot("A", c(W, "cushion"))]

    assert fold(header(), events)["next"]["player"] == "B"


def test_game_forfeited_ends_the_open_game_with_the_score_as_it_was():
    events = [start(1, "A"), shot("A", c(W, Y), c(W, R)), {"type": "game_forfeited", "player": "A"}]

    game = fold(header(), events)["games"][0]

    assert game == {
        "game": 1,
        "breaker": "A",
        "score": {"A": 4, "B": 0},
        "winner": "B",
        "shots": 1,
        "end": "forfeit",
        "flags": [],
    }


def test_match_forfeited_credits_the_open_game_and_as_many_more_as_needed():
    events = [*A_WINS_GAME_1, start(2, "B"), b_zero(), {"type": "match_forfeited", "player": "A"}]

    state = fold(header(best_of=5), events)

    assert state["status"] == "finished"
    assert state["winner"] == "B"
    assert state["games_won"] == {"A": 1, "B": 3}
    assert [(g["breaker"], g["winner"], g["end"]) for g in state["games"]] == [
        ("A", "A", "target"),
        ("B", "B", "forfeit"),
        ("A", "B", "forfeit"),
        ("B", "B", "forfeit"),
    ]


def test_match_forfeited_between_games_credits_only_the_games_needed():
    events = [*A_WINS_GAME_1, {"type": "match_forfeited", "player": "B"}]

    state = fold(header(), events)

    assert state["winner"] == "A"
    assert [(g["breaker"], g["winner"], g["end"]) for g in state["games"]] == [
        ("A", "A", "target"),
        ("B", "A", "forfeit"),
    ]


def test_balls_respotted_puts_red_on_its_spot_and_the_non_due_ball_on_the_top_spot():
    events = [start(1, "A"), a_zero(), {"type": "balls_respotted"}]

    state = fold(header(), events)

    assert state["positions"] == {"white": [710.0, 2740.0], "yellow": None, "red": [710.0, 2130.0]}
    assert state["next"] == {
        "game": 1,
        "player": "B",
        "ball_in_hand": False,
        "zone": "lower",
        "break": False,
    }


def test_shot_after_a_respot_cannot_score_but_its_fouls_count():
    scoring = fold(header(), [start(1, "A"), {"type": "balls_respotted"}, a_scores_10()])
    fouling = fold(header(), [start(1, "A"), {"type": "balls_respotted"}, shot("A", c(W, R))])
    after = fold(header(), [start(1, "A"), {"type": "balls_respotted"}, a_zero(), b_scores_10()])

    assert scoring["games"][0]["score"] == {"A": 0, "B": 0}
    assert scoring["shots"][0]["ruling"]["valid"] is True
    assert fouling["games"][0]["score"] == {"A": 0, "B": 4}
    assert after["games"][0]["score"] == {"A": 0, "B": 10}


@pytest.mark.parametrize(
    ("offender_rest", "zone"),
    [
        ([700, 600], "upper"),
        ([700, 2400], "lower"),
        ([700, 1420], "lower"),
        ([700, 1440], "lower"),
        (None, None),
    ],
)
def test_ball_in_hand_zone_is_opposite_the_offenders_ball(offender_rest, zone):
    facts = {"rest": {W: offender_rest}} if offender_rest else {}
    state = fold(header(), [start(1, "A"), shot("A", c(W, "cushion"), **facts)])

    assert state["next"]["ball_in_hand"] is True
    assert state["next"]["zone"] == zone


def test_cue_pins_gives_the_points_but_no_ball_in_hand():
    state = fold(header(), [start(1, "A"), shot("A", c(W, Y), c(W, "pins", "left"))])

    assert state["games"][0]["score"] == {"A": 0, "B": 2}
    assert state["next"]["ball_in_hand"] is False


def test_amendment_that_leaves_the_winning_shot_short_needs_review_until_the_game_is_won():
    events = [start(1, "A"), a_scores_10(), amend(2, c(W, Y), c(Y, "pins", "left"))]
    review = fold(header(), events)
    resolved = fold(header(), [*events, b_zero(), a_scores_10()])

    assert review["status"] == "review"
    assert review["games"][0]["flags"] == ["needs_review"]
    assert review["games"][0]["score"] == {"A": 2, "B": 0}
    assert review["winner"] is None
    assert resolved["status"] == "playing"
    assert resolved["games"][0]["flags"] == []
    assert resolved["games"][0]["winner"] == "A"


def test_a_game_won_with_a_foul_outside_a_stroke_among_its_points_needs_review_once_amended_short():
    events = [
        start(1, "B"),  # 1
        shot("B", c(Y, W), c(W, "pins", "left")),  # 2: 2 to B
        foul("A"),  # 3: 2 more to B, outside a stroke
        shot("B", c(Y, W), c(W, "pins", "center")),  # 4: the red pin alone, B reaches 12
        amend(4, c(Y, W)),  # 5: no points after all
    ]

    as_played = fold(header(target=12, best_of=1), events[:4])
    amended = fold(header(target=12, best_of=1), events)

    assert as_played["status"] == "finished"
    assert amended["games"][0]["score"] == {"A": 0, "B": 4}
    assert amended["games"][0]["flags"] == ["needs_review"]
    assert amended["status"] == "review"


def test_amendment_that_restores_the_target_resolves_the_review():
    events = [
        start(1, "A"),
        a_scores_10(),
        start(2, "B"),
        amend(2, c(W, Y)),
        amend(2, c(W, Y), c(W, R), c(Y, "pins", "center", "left", "right")),
    ]

    assert fold(header(), events, upto=3, view="live")["status"] == "playing"
    assert fold(header(), events, upto=4, view="live")["status"] == "review"
    assert fold(header(), events, upto=4)["status"] == "playing"
    assert fold(header(), events)["status"] == "playing"
    assert fold(header(), events)["games"][0]["score"] == {"A": 10, "B": 0}


def test_games_started_after_the_match_was_decided_by_amendment_are_void():
    events = [
        start(1, "A"),
        a_zero(),  # 2: amended to a win for A
        b_scores_10(),  # 3: void after the amendment
        start(2, "A"),  # 4: void game
        a_zero(),  # 5: void
        amend(2, c(W, Y), c(Y, R), c(R, "pins", "center")),
    ]

    state = fold(header(best_of=1), events)

    assert state["winner"] == "A"
    assert state["status"] == "finished"
    assert [g["flags"] for g in state["games"]] == [["void_shots"], ["void_game"]]
    assert [s["void"] for s in state["shots"]] == [False, True, True]
    assert state["games"][1]["shots"] == 0
    assert state["next"] is None


def test_stats_count_points_fouls_caroms_pins_and_the_best_shot():
    events = [
        start(1, "A"),
        shot("A", c(W, Y), c(W, R), c(Y, "pins", "left")),  # kiss 4 + 2
        shot("B", c(Y, R)),  # red_first 4 to A
        shot("A", c(W, Y), c(Y, R), c(R, "pins", "right")),  # ricochet 3 + 2
    ]

    stats = fold(header(target=60), events)["stats"]

    assert stats["A"]["shots"] == 2
    assert stats["A"]["points"] == 11
    assert stats["A"]["points_received"] == 4
    assert stats["A"]["caroms"] == {"kiss": 1, "ricochet": 1}
    assert stats["A"]["pins"] == {"center": 0, "top": 0, "bottom": 0, "left": 1, "right": 1}
    assert stats["A"]["best_shot"] == {"seq": 2, "points": 6}
    assert stats["A"]["average"] == 5.5
    assert stats["B"]["fouls"] == 1
    assert stats["B"]["foul_points_conceded"] == 4
    assert stats["B"]["best_shot"] is None
    assert stats["B"]["average"] == 0.0


def test_folding_one_event_at_a_time_equals_folding_them_all():
    events = check_log(header(), CORRECTED)
    incremental = MatchState(header())
    states = []
    for event in events:
        incremental = evolve(incremental, event)
        states.append(render(incremental))

    assert states[-1] == fold(header(), events, view="live", upto=len(events))
    for upto, state in enumerate(states, start=1):
        assert state == fold(header(), events, upto=upto, view="live")


def test_stats_count_the_points_the_score_took_when_a_shot_passes_the_target():
    header = Header(
        players={"A": {"name": "Ann"}, "B": {"name": "Bob"}},
        balls={"A": "white", "B": "yellow"},
        ruleset=Ruleset.from_overrides({"target": 10}),
    )
    centre_alone = {
        "contacts": [
            {"ball": "white", "hit": "yellow"},
            {"ball": "yellow", "hit": "pins", "pins": ["center"]},
        ]
    }
    nothing = {"contacts": [{"ball": "yellow", "hit": "white"}]}
    events = [
        {"type": "game_started", "game": 1, "breaker": "A"},
        {"type": "shot", "player": "A", **centre_alone},
        {"type": "shot", "player": "B", **nothing},
        {"type": "shot", "player": "A", **centre_alone},
    ]

    state = fold(header, events)

    assert state["games"][0]["score"] == {"A": 10, "B": 0}
    assert state["stats"]["A"]["points"] == 10
    assert state["stats"]["A"]["best_shot"] == {"seq": 2, "points": 8}


def refusal(events: list[dict[str, Any]]) -> tuple[int | None, str | None]:
    with pytest.raises(Refused) as refused:
        check_log(header(), events)
    return refused.value.seq, refused.value.field


def test_offender_ball_may_go_on_the_top_spot_where_the_ball_in_hand_lay():
    # A misses on the break; B takes ball in hand and has A's white put on the top spot,
    # where B's yellow (now in the referee's hand) stood for the break.
    events = [
        start(1, "A"),
        place(W, [700, 500], "break"),
        shot("A", c(W, "cushion")),
        place(W, [710, 2740], "in_hand"),
        place(Y, [700, 600], "in_hand"),
    ]

    assert check_log(header(), events)[-1]["pos"] == [700, 600]


def test_offender_ball_goes_on_the_bottom_spot_only_when_the_red_covers_the_top_spot():
    missed = [start(1, "A"), place(W, [700, 500], "break"), shot("A", c(W, "cushion"))]

    assert refusal([*missed, place(W, [710, 100], "in_hand")]) == (4, "pos")

    red_on_top = [
        *missed[:2],
        shot("A", c(W, Y), c(Y, "red"), rest={Y: [300, 2000], "red": [710, 2700]}),
        shot("B", c(Y, "cushion")),
    ]
    assert check_log(header(), [*red_on_top, place(Y, [710, 100], "in_hand")])


def test_a_ball_cannot_come_to_rest_on_a_ball_that_did_not_move():
    events = [
        start(1, "A"),
        place(W, [700, 500], "break"),
        shot("A", c(W, Y), rest={W: [710, 2130]}),
    ]  # the red, untouched, is there

    assert refusal(events) == (3, "rest.white")


def test_a_rest_given_for_a_ball_that_did_not_move_is_where_the_state_puts_it():
    events = [
        start(1, "A"),
        place(W, [700, 500], "break"),
        # The yellow, not on the table at the break, and the red, untouched, marked by the
        # referee; the red a little off its spot, over where it was drawn.
        shot("A", c(W, "cushion"), rest={W: [300, 900], Y: [1000, 2500], R: [720, 2135]}),
    ]

    assert check_log(header(), events)
    assert fold(header(), events)["positions"] == {
        W: [300, 900],
        Y: [1000, 2500],
        R: [720, 2135],
    }


def test_a_ball_that_did_not_move_and_has_no_rest_keeps_its_place():
    events = [
        start(1, "A"),
        place(W, [700, 500], "break"),
        shot("A", c(W, Y), rest={W: [300, 900]}),
    ]

    assert fold(header(), events)["positions"] == {W: [300, 900], Y: None, R: [710.0, 2130.0]}


# -- No game beyond best_of ----------------------------------------------------------------

# Best of 3: A wins games 1 and 3, B game 2; then game 1's winning shot is amended short.
ALL_GAMES_THEN_GAME_1_SHORT = [
    start(1, "A"),
    a_scores_10(),
    start(2, "B"),
    b_scores_10(),
    start(3, "A"),
    a_scores_10(),
    amend(2, c(W, Y), c(Y, "pins", "left")),
]


def test_when_every_game_is_played_and_one_needs_review_nothing_is_next():
    state = fold(header(), check_log(header(), ALL_GAMES_THEN_GAME_1_SHORT))

    assert state["status"] == "review"
    assert state["winner"] is None
    assert state["games_won"] == {"A": 1, "B": 1}
    assert [g["flags"] for g in state["games"]] == [["needs_review"], [], []]
    assert state["next"] is None


def test_a_game_beyond_best_of_is_refused():
    with pytest.raises(Refused) as refused:
        check_log(header(), [*ALL_GAMES_THEN_GAME_1_SHORT, start(4, "B")])

    assert (refused.value.seq, refused.value.field) == (8, "game")
    assert "at most 3 games" in refused.value.message


def test_a_match_forfeit_during_review_credits_the_game_under_review_and_adds_none():
    forfeit = {"type": "match_forfeited", "player": "A", "reason": "refused to continue"}
    events = check_log(header(), [*ALL_GAMES_THEN_GAME_1_SHORT, forfeit])

    state = fold(header(), events)

    assert state["status"] == "finished"
    assert state["winner"] == "B"
    assert state["games_won"] == {"A": 1, "B": 2}
    assert [(g["game"], g["winner"], g["end"]) for g in state["games"]] == [
        (1, "B", "forfeit"),
        (2, "B", "target"),
        (3, "A", "target"),
    ]
    assert state["games"][0]["score"] == {"A": 2, "B": 0}  # the score stays as it was


@pytest.mark.parametrize("best_of", [1, 3, 5, 7])
@pytest.mark.parametrize("opening", [[], [start(1, "A"), a_zero()]], ids=["between", "open"])
def test_a_match_forfeit_never_creates_a_game_beyond_best_of(best_of, opening):
    state = fold(header(best_of=best_of), [*opening, {"type": "match_forfeited", "player": "B"}])

    assert state["winner"] == "A"
    assert len(state["games"]) == best_of // 2 + 1


def test_a_shot_is_numbered_by_its_place_among_the_shots_a_retracted_one_counted():
    state = state_after(header(), CORRECTED)

    # Events 2 to 5 are the match's first four shots; 5 retracted keeps its number.
    assert [state.shot_number(seq) for seq in (2, 3, 4, 5)] == [1, 2, 3, 4]
    assert state.shot_number(1) is None  # the game's start is no shot
    assert state.shot_number(7) is None  # nor an amendment
