"""Laws of the fold that hold for every legal log, and of the ruling for every legal shot."""

from hypothesis import given
from hypothesis import strategies as st

from matches.domain.fold import check_log, evolve, fold
from matches.domain.notation import decode_shot, parse_shot
from matches.domain.render import render
from matches.domain.rules import judge, other, receiver
from matches.domain.state import MatchState
from matches.domain.transitions import judged_as_stored
from tests.support.legal_logs import (
    CORRECTIONS,
    PROPERTY,
    header_for,
    legal_logs,
    rulesets,
    shot_facts,
)


@PROPERTY
@given(data=st.data(), own=st.sampled_from(["white", "yellow"]), ruleset=rulesets)
def test_every_legal_shot_gets_one_ruling_whose_points_go_to_at_most_one_player(data, own, ruleset):
    facts = data.draw(shot_facts(own))
    no_score = data.draw(st.booleans())
    rules = header_for(ruleset).ruleset

    ruling = judge(parse_shot(facts, own), own, rules, no_score=no_score)

    assert ruling.points >= 0
    assert (ruling.scorer is None) == (ruling.points == 0)
    assert ruling.scorer in (None, "shooter", "opponent")
    assert ruling.valid == (not ruling.fouls)
    obtained = ruling.pin_points + ruling.carom_points
    if ruling.fouls:
        assert ruling.points == ruling.foul_points + obtained
        assert ruling.scorer != "shooter"
        assert ruling.ball_in_hand == (list(ruling.fouls) != ["cue_pins"])
    else:
        assert ruling.points == (0 if no_score else obtained)
        assert ruling.scorer != "opponent"
        assert not ruling.ball_in_hand


@PROPERTY
@given(log=legal_logs())
def test_folding_one_event_at_a_time_equals_folding_the_log_at_once(log):
    header, events = log
    running = MatchState(header)

    for upto, event in enumerate(events, start=1):
        running = evolve(running, event)
        assert render(running) == fold(header, events, upto=upto, view="live")
    assert render(running) == fold(header, events)


@PROPERTY
@given(log=legal_logs())
def test_a_legal_log_is_stored_as_recorded(log):
    header, events = log

    assert check_log(header, events) == events


@PROPERTY
@given(log=legal_logs())
def test_no_game_score_ever_exceeds_the_target(log):
    header, events = log
    target = header.ruleset.target

    for upto in range(len(events) + 1):
        for view in ("amended", "live"):
            state = fold(header, events, upto=upto, view=view)
            for game in state["games"]:
                assert max(game["score"].values()) <= target
                assert (game["winner"] is not None) == (game["end"] is not None)
            assert state["winner"] is None or state["games_won"][state["winner"]] >= (
                header.ruleset.best_of // 2 + 1
            )


@PROPERTY
@given(log=legal_logs())
def test_amended_view_equals_live_view_when_no_correction_comes_later(log):
    header, events = log
    last_correction = max(
        (seq for seq, e in enumerate(events, start=1) if e["type"] in CORRECTIONS), default=0
    )

    for upto in range(last_correction, len(events) + 1):
        assert fold(header, events, upto=upto) == fold(header, events, upto=upto, view="live")


@PROPERTY
@given(log=legal_logs())
def test_each_counted_shot_moves_at_most_one_players_score(log):
    header, events = log
    target = header.ruleset.target
    previous: dict[int, dict[str, int]] = {}

    for upto, event in enumerate(events, start=1):
        state = fold(header, events, upto=upto, view="live")
        scores = {g["game"]: g["score"] for g in state["games"]}
        if event["type"] == "shot" and state["games"]:
            entry = state["shots"][-1]
            game = entry["game"]
            before = previous.get(game, {"A": 0, "B": 0})
            moved = [p for p in "AB" if scores[game][p] != before[p]]
            ruling = entry["ruling"]
            assert len(moved) <= 1
            if moved:
                receiver = (
                    entry["player"] if ruling["scorer"] == "shooter" else other(entry["player"])
                )
                assert moved == [receiver]
                gained = scores[game][receiver] - before[receiver]
                assert gained == min(ruling["points"], target - before[receiver])
        previous = scores


@PROPERTY
@given(log=legal_logs())
def test_a_stored_shot_found_by_its_json_is_ruled_as_its_facts_judged_afresh(log):
    header, events = log
    state = MatchState(header)
    for event in events:
        if event["type"] == "shot":
            player = event.get("player") or state.due or "A"
            asked = [(event, header.ball_of(player))]
        elif event["type"] == "shot_amended":
            asked = [(event["facts"], header.ball_of(state.shot_index[event["shot"]]["player"]))]
        else:
            asked = []
        for facts, own in asked:
            found = judged_as_stored(state, facts, own)
            shot = decode_shot(facts, own)
            ruling = judge(shot, own, header.ruleset, state.no_score_next)
            assert found.ruling == ruling
            assert found.moved == shot.balls_that_moved(own)
            assert found.shown == ruling.as_dict()
            assert found.receivers == {p: receiver(p, ruling.scorer, ruling.points) for p in "AB"}
        state = evolve(state, event)
