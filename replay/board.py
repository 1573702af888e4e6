"""What the live board and the overlay show of a match: its header, scoreboard and moment.

Built from the match state at the head (replay.projection), for the pages' first paint
and the data their scripts start from; the scripts then follow the websocket.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _

from matches.models import Match
from replay.drawing import drawing, legend
from replay.projection import match_state
from replay.sentences import ruling_in_words, shot_in_words


def board(match: Match) -> dict[str, Any]:
    """Return the board of a match at its head: everything its template and scripts need."""
    state = match_state(match)
    names = {player: entry["name"] for player, entry in match.players.items()}
    balls = {"A": match.ball_a, "B": match.ball_b}
    ruleset = match.header().ruleset
    games = state["games"]
    current = games[-1] if games else None
    shots = [shot for shot in state["shots"] if current and shot["game"] == current["game"]]
    last = next((shot for shot in reversed(state["shots"]) if not shot["retracted"]), None)
    last_type = _last_event_type(state)
    fallen = last["ruling"]["pins"] if last and current and last["game"] == current["game"] else []
    zone = _zone(state["next"])
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
        "moment": moment(state, names, last_type),
        "last_ruling": ruling_in_words(last["ruling"], names, last["player"]) if last else "",
        "last_points": _points(last) if last else None,
        "shots": [
            {
                "seq": shot["seq"],
                "player": shot["player"],
                "words": shot_in_words(shot, names),
                "points": _points(shot),
                **_marks(shot),
            }
            for shot in reversed(shots)
        ],
        "table": drawing(state["positions"], fallen, zone, ruleset, balls, names),
        "legend": legend(state["positions"], balls, names),
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
            "shots": shots,
        },
    }


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
    scorer = ruling["scorer"]
    to = shot["player"] if scorer == "shooter" else ("B" if shot["player"] == "A" else "A")
    return {
        "points": ruling["points"],
        "to": to if ruling["points"] else None,
        "foul": bool(ruling["fouls"]),
    }


def _marks(shot: Mapping[str, Any]) -> dict[str, bool]:
    return {key: bool(shot[key]) for key in ("retracted", "void", "amended")}


def moment(
    state: Mapping[str, Any], names: Mapping[str, str], last_type: str = "", minutes: Any = None
) -> dict[str, str]:
    """Return the moment of the match for a viewer: {"face": ..., "text": ...}.

    Faces: lag, break, playing, between, intermission, review, forfeit, finished
    (the twin of `moment` in scoreboard.js).
    """
    games = state["games"]
    upcoming = state["next"]
    won = state["games_won"]
    if state["status"] == "lag":
        return {"face": "lag", "text": _("Lag: the players decide who breaks")}
    if state["status"] == "review":
        return {
            "face": "review",
            "text": _("Under review: the referee is checking a game's result"),
        }
    if state["status"] == "finished":
        winner = names.get(state["winner"], state["winner"])
        loser = names.get("B" if state["winner"] == "A" else "A")
        played = [game for game in games if "void_game" not in game["flags"]]
        if played and played[-1]["end"] == "forfeit":
            return {
                "face": "forfeit",
                "text": _("%(winner)s wins the match: %(loser)s forfeited")
                % {"winner": winner, "loser": loser},
            }
        return {
            "face": "finished",
            "text": _("%(winner)s wins the match %(a)s–%(b)s")
            % {"winner": winner, "a": won["A"], "b": won["B"]},
        }
    if not upcoming:
        return {
            "face": "review",
            "text": _("Under review: the referee is checking a game's result"),
        }
    due = names.get(upcoming["player"], upcoming["player"])
    current = games[-1]
    if upcoming["game"] != current["game"]:
        if last_type == "intermission":
            return {
                "face": "intermission",
                "text": _("Intermission before game %(game)s") % {"game": upcoming["game"]},
            }
        winner = names.get(current["winner"], current["winner"])
        parts = {
            "game": current["game"],
            "winner": winner,
            "loser": names.get("B" if current["winner"] == "A" else "A"),
            "a": current["score"]["A"],
            "b": current["score"]["B"],
            "next": upcoming["game"],
            "breaker": due,
        }
        if current["end"] == "forfeit":
            return {
                "face": "forfeit",
                "text": _(
                    "Game %(game)s to %(winner)s: %(loser)s forfeited. "
                    "Next: game %(next)s, %(breaker)s breaks"
                )
                % parts,
            }
        return {
            "face": "between",
            "text": _(
                "Game %(game)s to %(winner)s, %(a)s–%(b)s. Next: game %(next)s, %(breaker)s breaks"
            )
            % parts,
        }
    if upcoming.get("break"):
        return {
            "face": "break",
            "text": _("Game %(game)s: %(name)s breaks from the lower half")
            % {"game": upcoming["game"], "name": due},
        }
    if upcoming["ball_in_hand"]:
        text = {
            "lower": _("%s to play, with ball in hand in the lower half"),
            "upper": _("%s to play, with ball in hand in the upper half"),
        }.get(upcoming.get("zone") or "", _("%s to play, with ball in hand in either half"))
        return {"face": "playing", "text": text % (due,)}
    return {"face": "playing", "text": _("%s to play") % (due,)}
