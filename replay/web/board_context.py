"""What the live board and the overlay show of a match: its header, scoreboard and moment.

Built from the match state at the head (replay.projections.states), for the pages' first paint
and the data their scripts start from; the scripts then follow the websocket.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _

from matches import store
from matches.domain.header import Header
from matches.domain.rules import receiver
from matches.models import Match
from replay.presentation.drawing import drawing, legend
from replay.presentation.sentences import (
    is_void_game,
    ruling_in_words,
    shot_in_words,
    shot_name,
    shot_numbers,
)
from replay.projections.positions import last_known_positions
from replay.projections.states import match_state


def board(match: Match) -> dict[str, Any]:
    """Return the board of a match at its head: everything its template and scripts need."""
    state = match_state(match)
    names = {player: entry["name"] for player, entry in match.players.items()}
    balls = {"A": match.ball_a, "B": match.ball_b}
    header = match.header()
    ruleset = header.ruleset
    games = state["games"]
    current = current_game(games)
    shots = [shot for shot in state["shots"] if current and shot["game"] == current["game"]]
    numbers = shot_numbers(state["shots"])
    standing = [shot for shot in state["shots"] if not shot["retracted"]]
    latest = standing[-1] if standing else None
    # The last shot shown is one of a game played: a void game's shots counted for nothing.
    void_games = {game["game"] for game in games if is_void_game(game)}
    last = next((shot for shot in reversed(standing) if shot["game"] not in void_games), None)
    last_type = _last_event_type(state)
    # The pins of the latest shot while its game is the one shown: at a break all stand.
    # `is last` after the lookups: mypy takes `latest` to be as optional as `last` after it.
    down = bool(latest and current and latest["game"] == current["game"] and latest is last)
    fallen = latest["ruling"]["pins"] if latest and down else []
    zone = _zone(state["next"])
    known = _known(match, header, state["positions"])
    players = [
        {
            "key": player,
            "name": names[player],
            "ball": balls[player],
            "games": state["games_won"][player],
            "score": current["score"][player] if current else 0,
            "due": bool(state["next"]) and state["next"]["player"] == player,
            "winner": state["winner"] == player,
        }
        for player in ("A", "B")
    ]
    scoreboard = {key: state[key] for key in ("status", "winner", "games_won", "games", "next")}
    scoreboard["positions"] = state["positions"]
    return {
        "match": match,
        "names": names,
        "balls": balls,
        "players": players,
        "state": state,
        "current": current,
        "games": [{**game, "void": game["game"] in void_games} for game in games],
        "moment": moment(state, names, last_type),
        "last_ruling": last_in_words(last, names, games) if last else "",
        "last_points": _points(last) if last else None,
        "shots": [
            {
                "seq": shot["seq"],
                "player": shot["player"],
                "number": numbers[shot["seq"]],
                "name": shot_name(numbers[shot["seq"]]),
                "who": names.get(shot["player"], shot["player"]),
                "words": shot_in_words(shot, names, games),
                "points": _points(shot),
                **_marks(shot),
            }
            for shot in reversed(shots)
        ],
        "table": drawing(state["positions"], fallen, zone, ruleset, balls, names, known),
        "legend": legend(state["positions"], balls, names, known),
        "data": {
            "match": match.pk,
            "seq": state["seq"],
            "names": names,
            "balls": balls,
            "target": ruleset.target,
            "bestOf": ruleset.best_of,
            "pinPitch": ruleset.pin_pitch,
            "state": scoreboard,
            "lastEvent": {"type": last_type, "minutes": _minutes(state)},
            "lastShot": last,
            "fallen": fallen,
            "shots": shots,
            # Every shot's game and player in log order (its place there is its number), to
            # name a corrected shot of an earlier game.
            "played": [[shot["seq"], shot["game"], shot["player"]] for shot in state["shots"]],
            "known": known,
        },
    }


def current_game(games: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Return the game being played or last played; a void game was never played."""
    played = [game for game in games if not is_void_game(game)]
    return played[-1] if played else None


def last_in_words(
    shot: Mapping[str, Any], names: Mapping[str, str], games: Sequence[Mapping[str, Any]]
) -> str:
    """Return the last shot's ruling in words; a void one claims no points and says why."""
    if shot["void"]:
        return shot_in_words(shot, names, games)
    return ruling_in_words(shot["ruling"], names, shot["player"])


def _known(match: Match, header: Header, positions: Mapping[str, Any]) -> dict[str, Any]:
    """Return where each ball was last known to be; folded again only when one is missing."""
    if all(positions.get(ball) is not None for ball in positions):
        return dict(positions)
    return last_known_positions(header, store.load_facts(match))


def _last_event_type(state: Mapping[str, Any]) -> str:
    """Return "intermission" when the head event is one (the only moment the state hides)."""
    intermissions = state.get("intermissions") or []
    if intermissions and intermissions[-1]["seq"] == state["seq"]:
        return "intermission"
    return ""


def _minutes(state: Mapping[str, Any]) -> int | None:
    intermissions = state.get("intermissions") or []
    return intermissions[-1]["minutes"] if intermissions else None


def _zone(upcoming: Mapping[str, Any] | None) -> str | None:
    """Return the half where the ball in hand (or the break's ball) goes, "any", or None."""
    if not upcoming or not (upcoming.get("ball_in_hand") or upcoming.get("break")):
        return None
    return upcoming.get("zone") or "any"


def _points(shot: Mapping[str, Any]) -> dict[str, Any]:
    ruling = shot["ruling"]
    if shot.get("void"):
        return {"points": 0, "to": None, "foul": bool(ruling["fouls"])}  # it scored nothing
    return {
        "points": ruling["points"],
        "to": receiver(shot["player"], ruling["scorer"], ruling["points"]),
        "foul": bool(ruling["fouls"]),
    }


def _marks(shot: Mapping[str, Any]) -> dict[str, bool]:
    return {key: bool(shot[key]) for key in ("retracted", "void", "amended")}


def moment(
    state: Mapping[str, Any], names: Mapping[str, str], last_type: str = "", minutes: Any = None
) -> dict[str, str]:
    """Return the moment of the match for a viewer: {"kind": ..., "text": ...}.

    Faces: lag, break, playing, between, intermission, review, forfeit, finished
    (the twin of `moment` in scoreboard.js).
    """
    games = state["games"]
    upcoming = state["next"]
    won = state["games_won"]
    if state["status"] == "lag":
        return {"kind": "lag", "text": _("Lag: the players decide who breaks")}
    if state["status"] == "review":
        return {
            "kind": "review",
            "text": _("Under review: the referee is checking a game's result"),
        }
    if state["status"] == "finished":
        winner = names.get(state["winner"], state["winner"])
        loser = names.get("B" if state["winner"] == "A" else "A")
        last = current_game(games)
        if last and last["end"] == "forfeit":
            return {
                "kind": "forfeit",
                "text": _("%(winner)s wins the match: %(loser)s forfeited")
                % {"winner": winner, "loser": loser},
            }
        # The winner's games first, as the standings write a result.
        return {
            "kind": "finished",
            "text": _("%(winner)s wins the match %(won)s–%(lost)s")
            % {
                "winner": winner,
                "won": won[state["winner"]],
                "lost": won["B" if state["winner"] == "A" else "A"],
            },
        }
    if not upcoming:
        return {
            "kind": "review",
            "text": _("Under review: the referee is checking a game's result"),
        }
    due = names.get(upcoming["player"], upcoming["player"])
    current = current_game(games)
    assert current is not None  # a game is under way or over once the lag is
    if upcoming["game"] != current["game"]:
        if last_type == "intermission":
            return {
                "kind": "intermission",
                "text": _("Intermission before game %(game)s") % {"game": upcoming["game"]},
            }
        winner = names.get(current["winner"], current["winner"])
        side = current["winner"] or "A"
        parts = {
            "game": current["game"],
            "winner": winner,
            "loser": names.get("B" if current["winner"] == "A" else "A"),
            # The winner's points first, as for the match.
            "won": current["score"][side],
            "lost": current["score"]["B" if side == "A" else "A"],
            "next": upcoming["game"],
            "breaker": due,
        }
        if current["end"] == "forfeit":
            return {
                "kind": "forfeit",
                "text": _(
                    "Game %(game)s to %(winner)s: %(loser)s forfeited. "
                    "Next: game %(next)s, %(breaker)s breaks"
                )
                % parts,
            }
        return {
            "kind": "between",
            "text": _(
                "Game %(game)s to %(winner)s, %(won)s–%(lost)s. "
                "Next: game %(next)s, %(breaker)s breaks"
            )
            % parts,
        }
    if upcoming.get("break"):
        return {
            "kind": "break",
            "text": _("Game %(game)s: %(name)s breaks from the lower half")
            % {"game": upcoming["game"], "name": due},
        }
    if upcoming["ball_in_hand"]:
        text = {
            "lower": _("%s to play, with ball in hand in the lower half"),
            "upper": _("%s to play, with ball in hand in the upper half"),
        }.get(upcoming.get("zone") or "", _("%s to play, with ball in hand in either half"))
        return {"kind": "playing", "text": text % (due,)}
    return {"kind": "playing", "text": _("%s to play") % (due,)}
