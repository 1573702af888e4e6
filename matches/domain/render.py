"""Render: the match state as the notation spells it, and what it counts for in the standings.

Pure Python: no Django. Nothing here changes the state or judges an event.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any

from matches.domain.rules import average, next_breaker, placement_zone
from matches.domain.rules.ranking import Result
from matches.domain.state import Game, MatchState

# The scoreboard: the part of the state a live message and a recorded event's answer carry.
# Its size does not grow with the match (no list of shots).
SCOREBOARD = ("status", "winner", "games_won", "games", "next", "positions")


def render(state: MatchState, detached: bool = True) -> dict[str, Any]:
    """Return the match state of the notation.

    Detached (the default), it no longer changes as the fold goes on; a fold about
    to be dropped can hand over its own lists instead.
    """
    copied = _copies if detached else list
    return {
        **board(state),
        "shots": copied(state.shots),
        "stats": _stats(state),
        "fouls": copied(state.outside_fouls),
        "lags": copied(state.lags),
        "intermissions": copied(state.intermissions),
        "confirmed": confirmed(state),
        "seq": state.seq,
    }


def confirmed(state: MatchState) -> dict[str, Any]:
    """Return who has signed the result off: the event it stands at (`head`), who confirmed
    that (`by`: referee, A, B) and whether all three have (`complete`)."""
    by = state.confirmed_by()
    return {"head": state.result_head(), "by": by, "complete": len(by) == 3}


def board(state: MatchState) -> dict[str, Any]:
    """Return the scoreboard of the state (the keys of `SCOREBOARD`), detached from it."""
    review, shown = False, []
    for game in state.games:
        reviewed = game.needs_review  # asked once, for the status and the game's flags
        review = review or reviewed
        shown.append(_game(game, reviewed))
    return {
        "status": _status(state, review),
        "winner": state.winner,
        "games_won": state.games_won(),
        "games": shown,
        "next": _next(state),
        "positions": {
            ball: ([float(p[0]), float(p[1])] if p else None) for ball, p in state.positions.items()
        },
    }


def scoreboard(state: MatchState, event: Mapping[str, Any]) -> dict[str, Any]:
    """Return the scoreboard of the state just after `event`, with that event's ruling."""
    return {**board(state), "ruling": ruling_of(state, event)}


def ruling_of(state: MatchState, event: Mapping[str, Any]) -> dict[str, Any] | None:
    """Return the ruling of the shot an event is, or amends (its new ruling); else None."""
    if event["type"] == "shot":
        shot = state.seq
    elif event["type"] == "shot_amended":
        shot = event["shot"]
    else:
        return None
    entry = state.shot_index.get(shot)
    return None if entry is None else entry["ruling"]


def status(state: MatchState) -> str:
    """Return "lag", "playing", "review" or "finished"."""
    return _status(state, any(game.needs_review for game in state.games))


def _status(state: MatchState, review: bool) -> str:
    if review:
        return "review"
    if state.winner is not None:
        return "finished"
    if not state.games:
        return "lag"
    return "playing"


def shown_of(state: MatchState) -> tuple[str, str | None, int, int]:
    """Return what a competition's stages show of a match: status, winner, games won."""
    won = state.games_won()
    return (status(state), state.winner, won["A"], won["B"])


def result_of(state: MatchState, players: tuple[Hashable, Hashable]) -> Result:
    """Return what a match counts for in the standings, from its fold."""
    if status(state) != "finished" or state.winner is None:
        return Result(players)
    games = [game for game in state.games if not game.void]
    won = state.games_won()
    stats = state.stats
    return Result(
        players=players,
        counted=True,
        winner=state.winner,
        games=(won["A"], won["B"]),
        points=(
            sum(game.score["A"] for game in games),
            sum(game.score["B"] for game in games),
        ),
        own_points=(stats["A"]["points"], stats["B"]["points"]),
        shots=(stats["A"]["shots"], stats["B"]["shots"]),
    )


def _game(game: Game, review: bool) -> dict[str, Any]:
    flags = []
    if game.void_shots:
        flags.append("void_shots")
    if game.void:
        flags.append("void_game")
    if review:
        flags.append("needs_review")
    return {
        "game": game.number,
        "breaker": game.breaker,
        "score": dict(game.score),
        "winner": game.winner,
        "shots": game.shots,
        "end": game.end,
        "flags": flags,
    }


def _next(state: MatchState) -> dict[str, Any] | None:
    games = state.games
    if not games or state.winner is not None:
        return None
    game = games[-1]
    if not state.game_open():
        if state.all_games_played():
            return None  # a game under review is resolved by an amendment or a forfeit
        # The next shot is the next game's break: the same shape as once it has started.
        return {
            "game": game.number + 1,
            "player": next_breaker(game.breaker),
            "ball_in_hand": False,
            "zone": placement_zone("break", None),
            "break": True,
        }
    in_hand = state.in_hand
    return {
        "game": game.number,
        "player": state.due,
        "ball_in_hand": in_hand == "foul",
        "zone": None if in_hand is None else state.zone(),  # no ball in hand, no half for it
        "break": in_hand == "break",
    }


def _stats(state: MatchState) -> dict[str, Any]:
    stats = {}
    for player, counted in state.stats.items():
        entry = {**counted, "caroms": dict(counted["caroms"]), "pins": dict(counted["pins"])}
        entry["average"] = average(counted["points"], counted["shots"])
        stats[player] = entry
    return stats


def _copies(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [dict(entry) for entry in entries]
