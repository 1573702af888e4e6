"""Decide: whether a new event is legal in the match as it stands, and with what error.

One function per kind of event (`matches.domain.events` lists them). Each takes the state
and the event (its shape already checked by the notation) and returns the event as
it will be stored, or raises Refused naming the field. Nothing here changes the state.
Pure Python: no Django.
"""

from __future__ import annotations

from typing import Any

from matches.domain.errors import Refused
from matches.domain.notation import SHOT_FACTS, decode_lag, parse_shot
from matches.domain.rules import check_placement, check_retraction, next_breaker, overlaps
from matches.domain.state import MatchState

Event = dict[str, Any]


def _refuse_after_match(state: MatchState) -> None:
    if state.winner is not None:
        raise Refused.because("match_over", "type")


def _refuse_outside_game(state: MatchState) -> None:
    _refuse_after_match(state)
    if state.game is None:
        raise Refused.because("no_game", "type")
    if not state.game_open():
        raise Refused.because("game_over", "type", game=state.game.number)


def lag(state: MatchState, event: Event) -> Event:
    if state.games:
        raise Refused.because("lag_after_game", "type")
    winner = event.get("winner")
    if winner is not None:
        # The winner given stands only where the faults and distances leave the lag open.
        decision = decode_lag(event, state.late_starts)
        if decision.winner is None:
            raise Refused.because("lag_repeated", "winner")
        if decision.winner != winner:
            raise Refused.because("lag_won_by", "winner", player=decision.winner)
    return event


def game_started(state: MatchState, event: Event) -> Event:
    _refuse_after_match(state)
    expected = len(state.games) + 1
    if state.all_games_played():
        best_of = state.ruleset.best_of
        raise Refused.because("too_many_games", "game", best_of=best_of)
    if event["game"] != expected:
        raise Refused.because("expected_game", "game", game=expected)
    if state.game_open():
        raise Refused.because("game_in_play", "game", game=expected - 1)
    if state.game is None and state.lag_repeat:
        raise Refused.because("lag_repeat", "type")
    if state.game is not None and event["breaker"] != next_breaker(state.game.breaker):
        breaker = next_breaker(state.game.breaker)
        raise Refused.because("wrong_breaker", "breaker", game=expected, player=breaker)
    return event


def shot(state: MatchState, event: Event) -> Event:
    _refuse_outside_game(state)
    assert state.due is not None
    if event.get("player") is None:
        event["player"] = state.due
    elif event["player"] != state.due:
        raise Refused.because("not_due", "player", player=state.due)
    own = state.header.ball_of(event["player"])
    facts = parse_shot({k: event[k] for k in SHOT_FACTS if k in event}, own)
    # A ball that did not move is still where it was: nothing may come to rest on it.
    moved = facts.balls_that_moved(own)
    still = {b: p for b, p in state.positions.items() if p and b not in moved}
    for ball, position in (facts.rest or {}).items():
        for other_ball, placed in still.items():
            # A still ball's own rest says where it lies: it may lie on its old place.
            if other_ball != ball and overlaps(position, placed):
                raise Refused.because("rest_overlaps", f"rest.{ball}", ball=other_ball)
    return event


def _corrected_shot(state: MatchState, event: Event) -> dict[str, Any]:
    target = event["shot"]
    shot = state.shot_index.get(target)
    if shot is None:
        raise Refused.because("not_a_shot", "shot", shot=target)
    if shot["retracted"]:
        raise Refused.because("shot_retracted", "shot", shot=target)
    return shot


def shot_amended(state: MatchState, event: Event) -> Event:
    shot = _corrected_shot(state, event)
    parse_shot(event["facts"], state.header.ball_of(shot["player"]), prefix="facts")
    return event


def shot_retracted(state: MatchState, event: Event) -> Event:
    shot = _corrected_shot(state, event)
    check_retraction(shot["seq"], state.shots, state.events[shot["seq"] :])
    return event


def ball_placed(state: MatchState, event: Event) -> Event:
    _refuse_outside_game(state)
    assert state.due is not None
    check_placement(
        event["ball"],
        event["pos"],
        event["reason"],
        due=state.due,
        balls=state.header.balls,
        in_hand=state.in_hand,
        positions=state.positions,
        zone=state.zone(),
    )
    return event


def in_game(state: MatchState, event: Event) -> Event:
    """Allow an event only while a game is being played (a re-spot, a foul, a game forfeit)."""
    _refuse_outside_game(state)
    return event


def before_the_end(state: MatchState, event: Event) -> Event:
    """Allow an event until the match is decided (an intermission, a match forfeit)."""
    _refuse_after_match(state)
    return event


def result_confirmed(state: MatchState, event: Event) -> Event:
    """Allow a confirmation of the result as it stands, once the match is finished, by each
    role once (an amendment after it makes the result one to confirm again)."""
    if state.winner is None or any(game.needs_review for game in state.games):
        raise Refused("a result is confirmed once the match is finished", "type")
    head = state.result_head()
    if event["confirms"] != head:
        raise Refused(f"the result stands at event {head}: confirm that one", "confirms")
    if event["role"] in state.confirmed_by():
        raise Refused(f"{event['role']} has confirmed this result already", "role")
    return event
