"""Transitions: a match state and one event that was legal when recorded give the next state.

One function per kind of event (`matches.domain.events` lists them). Each changes the
state in place, the fold's accumulator, since the rebuild of a whole archive must
stay close to the speed of reading it. A correction returns `REFOLD`: the shot it
names and everything after it must be folded again (`matches.domain.fold` does). A game
decided and followed by another is never changed again (the replay's boards show it
as they showed it before: `render.board`). Pure Python: no Django.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from orjson import dumps

from matches.domain.notation import decode_lag, decode_shot
from matches.domain.rules import (
    INTERMISSION_MINUTES,
    PLAYERS,
    Ruleset,
    Ruling,
    Shot,
    break_position,
    capped,
    forfeit_winner,
    game_won,
    judge,
    match_won,
    next_breaker,
    other,
    outside_foul,
    receiver,
)
from matches.domain.state import Game, MatchState

REFOLD = "refold"


class Judged(NamedTuple):
    """A shot's ruling, the balls it moved, the ruling as the state shows it (shared), and
    who receives its points when A or when B plays it (`receiver`: None for no one)."""

    ruling: Ruling
    moved: frozenset[str]
    shown: dict[str, Any]
    receivers: Mapping[str, str | None]


# The same strokes recur all match long and from match to match: each is judged once
# per ruleset (rest positions never change a ruling). Bounded, since rulesets are many.
_RULINGS: dict[Ruleset, dict[tuple[Any, ...], Judged]] = {}
MAX_RULINGS = 100_000
MAX_RULESETS = 64


def _rulings_under(ruleset: Ruleset) -> dict[tuple[Any, ...], Judged]:
    rulings = _RULINGS.get(ruleset)
    if rulings is None or len(rulings) > MAX_RULINGS:
        if len(_RULINGS) > MAX_RULESETS:
            _RULINGS.clear()
        rulings = _RULINGS[ruleset] = {}
    return rulings


def judged(state: MatchState, shot: Shot, own: str) -> Judged:
    """Return a shot's ruling in this state (the next shot after a re-spot cannot score)."""
    rulings = state.rulings
    if rulings is None:
        rulings = state.rulings = _rulings_under(state.ruleset)
    key = (shot.struck, shot.contacts, shot.called, own, state.no_score_next)
    found = rulings.get(key)
    if found is None:
        ruling = judge(shot, own, state.ruleset, state.no_score_next)
        found = rulings[key] = Judged(
            ruling,
            frozenset(shot.balls_that_moved(own)),
            ruling.as_dict(),
            {player: receiver(player, ruling.scorer, ruling.points) for player in PLAYERS},
        )
    return found


def judged_as_stored(state: MatchState, facts: Mapping[str, Any], own: str) -> Judged:
    """Return `judged` of shot facts the store accepted, decoded only when first met.

    Keyed by the contacts as JSON, the one thing of a shot that varies and needs more
    than a lookup to read; the same JSON always decodes to the same shot, so it always
    gets the same ruling, and a known stroke is not decoded again.
    """
    rulings = state.rulings
    if rulings is None:
        rulings = state.rulings = _rulings_under(state.ruleset)
    called = facts.get("called")
    key = (
        facts.get("struck") or own,
        dumps(facts.get("contacts")),
        tuple(called) if called else (),
        own,
        state.no_score_next,
    )
    found = rulings.get(key)
    if found is None:
        found = rulings[key] = judged(state, decode_shot(facts, own), own)
    return found


# -- Before the games ---------------------------------------------------------------


def lag(state: MatchState, event: Mapping[str, Any]) -> None:
    decision = decode_lag(event, state.late_starts)
    for player in PLAYERS:
        if (event.get(player) or {}).get("fault") == "late_start":
            state.late_starts[player] += 1
    state.lag_winner, state.lag_repeat = decision.winner, decision.winner is None
    state.lags.append({"seq": state.seq, "winner": decision.winner, "reason": decision.reason})


def intermission(state: MatchState, event: Mapping[str, Any]) -> None:
    state.intermissions.append(
        {"seq": state.seq, "minutes": event.get("minutes", INTERMISSION_MINUTES)}
    )


# -- Games and the balls -------------------------------------------------------------


def game_started(state: MatchState, event: Mapping[str, Any]) -> None:
    previous = state.game
    if previous is not None and not previous.decided and previous.end is None:
        previous.closed_by_next = True
    breaker = event["breaker"]
    state.games.append(
        Game(number=len(state.games) + 1, breaker=breaker, void=state.winner is not None)
    )
    state.positions = break_position(state.header.ball_of(breaker))
    state.due, state.in_hand, state.offender, state.no_score_next = breaker, "break", None, False


def ball_placed(state: MatchState, event: Mapping[str, Any]) -> None:
    state.positions[event["ball"]] = [float(v) for v in event["pos"]]


def balls_respotted(state: MatchState, event: Mapping[str, Any]) -> None:
    # Section 9: back in the break position for the player due; the next shot cannot score.
    state.positions = break_position(state.header.ball_of(state.due or "A"))
    state.in_hand, state.offender, state.no_score_next = "respot", None, True


# -- Shots ---------------------------------------------------------------------------


def shot(state: MatchState, event: Mapping[str, Any]) -> None:
    seq, games = state.seq, state.games
    game = games[-1] if games else None
    player = event.get("player") or state.due or "A"
    own = state.header.balls[player]
    corrections = state.corrections
    amendments = corrections.amendments
    amendment = amendments.get(seq) if amendments else None
    # Stored events were checked when they were recorded (`decide`, `check_log`).
    recorded = judged_as_stored(state, event, own)
    facts = amendment.facts if amendment else event
    ruling, moved, shown, receivers = judged_as_stored(state, facts, own) if amendment else recorded
    entry: dict[str, Any] = {
        "seq": seq,
        "game": game.number if game else None,
        "player": player,
        "ruling": shown,
        "original": None,
        "amended": False,
        "void": False,
        "retracted": False,
    }
    if amendment:
        entry["original"] = recorded.shown
        entry.update(amended=True, amended_by=amendment.seq, reason=amendment.reason)
    retraction = corrections.retractions.get(seq) if corrections.retractions else None
    if retraction:
        entry.update(retracted=True, retracted_by=retraction.seq, reason=retraction.reason)
        _add_shot(state, entry)
        return
    state.no_score_next = False
    if game is None or game.void or game.winner is not None or game.end is not None:
        # Played after the game (or the match) was decided: kept, void, scores nothing.
        entry["void"] = True
        if game is not None:
            game.void_shots = game.void_shots or not game.void
    else:
        to = receivers[player]
        added = _award(state, game, to, ruling.points) if to else 0
        if amendments:
            # The score with the rulings first recorded: did the game end as it was played?
            first_to = recorded.receivers[player]
            if first_to:
                _add_as_recorded(state, game, first_to, recorded.ruling.points)
        _count_shot(state, player, seq, ruling, added)
        game.shots += 1
    entry["score"] = dict(game.score) if game else None
    _add_shot(state, entry)
    # A ball that moved is where the shot says it came to rest, or somewhere unknown; one
    # that did not move keeps its place, unless the referee says where it lies (it may have
    # been unknown, or marked roughly before).
    rest, positions = facts.get("rest") or {}, state.positions
    for ball in moved:
        positions[ball] = rest.get(ball)
    positions.update(rest)
    state.due = other(player)
    if ruling.ball_in_hand:
        state.in_hand, state.offender = "foul", player
    else:
        state.in_hand = state.offender = None


def _add_shot(state: MatchState, entry: dict[str, Any]) -> None:
    state.shots.append(entry)
    state.shot_index[entry["seq"]] = entry


def _add_as_recorded(state: MatchState, game: Game, player: str, points: int) -> None:
    """Keep the score with the rulings first recorded: did the game end as it was played?"""
    target, score = state.ruleset.target, game.recorded_score
    after = score[player] = capped(score[player], points, target)
    if game_won(after, target):
        game.reached_as_recorded = True


def _award(state: MatchState, game: Game, player: str, points: int) -> int:
    """Add points to a game score, cut at the target; reaching it wins the game."""
    score, target = game.score, state.ruleset.target
    before = score[player]
    after = score[player] = capped(before, points, target)
    if game_won(after, target) and not game.decided:
        _win_game(state, game, player, "target")
    return after - before


def _win_game(state: MatchState, game: Game, player: str, end: str) -> None:
    game.winner, game.end = player, end
    if state.winner is None and match_won(state.games_won()[player], state.ruleset):
        state.winner = player


def _count_shot(state: MatchState, player: str, seq: int, ruling: Ruling, added: int) -> None:
    """Count a shot in the stats; points are those the scores took (cut at the target)."""
    mine = state.stats[player]
    mine["shots"] += 1
    if ruling.fouls:
        mine["fouls"] += 1
        mine["foul_points_conceded"] += added
        state.stats[other(player)]["points_received"] += added
    elif ruling.points:
        mine["points"] += added
        if ruling.carom:
            mine["caroms"][ruling.carom] += 1
        if ruling.pins:
            pins = mine["pins"]
            for pin in ruling.pins:
                pins[pin] += 1
        best = mine["best_shot"]
        if best is None or ruling.points > best["points"]:
            mine["best_shot"] = {"seq": seq, "points": ruling.points}


def correction(state: MatchState, event: Mapping[str, Any]) -> str | None:
    """Note an amendment or retraction; a new one means the match must be folded again.

    Known in advance (a fold given every correction), it is in force already.
    """
    return REFOLD if state.corrections.note(state.seq, event) else None


# -- Fouls and forfeits ----------------------------------------------------------------


def foul(state: MatchState, event: Mapping[str, Any]) -> None:
    player, game = event["player"], state.game
    entry = {
        "seq": state.seq,
        "game": game.number if game else None,
        "player": player,
        "code": event["code"],
        "points": state.ruleset.foul,
        "void": not state.game_open(),
    }
    state.outside_fouls.append(entry)
    if entry["void"] or game is None:
        return
    ruled = outside_foul(player, state.due, state.ruleset)
    state.due, state.in_hand, state.offender = ruled.due, "foul", player
    added = _award(state, game, ruled.receiver, ruled.points)
    if state.corrections.amendments:
        # Its points count in the score as played too, whatever an amendment does later.
        _add_as_recorded(state, game, ruled.receiver, ruled.points)
    state.stats[player]["fouls"] += 1
    state.stats[player]["foul_points_conceded"] += added
    state.stats[ruled.receiver]["points_received"] += added


def game_forfeited(state: MatchState, event: Mapping[str, Any]) -> None:
    # Section 8: leaving without permission loses the open game, its score as it was.
    if state.game_open():
        assert state.game is not None
        _win_game(state, state.game, forfeit_winner(event["player"]), "forfeit")


def match_forfeited(state: MatchState, event: Mapping[str, Any]) -> None:
    """Section 8: refusing to continue loses the match, never creating a game past `best_of`.

    Every unfinished game goes to the opponent, those under review first, then the open
    one; then as many new games as he still needs for the majority.
    """
    winner = forfeit_winner(event["player"])
    for game in state.games:
        if game.needs_review:
            _win_game(state, game, winner, "forfeit")
    if state.game_open():
        assert state.game is not None
        _win_game(state, state.game, winner, "forfeit")
    while state.winner is None and not state.all_games_played():
        last = state.game
        game = Game(
            number=len(state.games) + 1, breaker=next_breaker(last.breaker) if last else winner
        )
        state.games.append(game)
        _win_game(state, game, winner, "forfeit")


def result_confirmed(state: MatchState, event: Mapping[str, Any]) -> None:
    """Note who confirmed the result, and which head of the match they confirmed."""
    state.confirmations.append(
        {"role": event["role"], "seq": state.seq, "confirms": event["confirms"]}
    )
