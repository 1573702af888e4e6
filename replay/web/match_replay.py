"""The replay page: a match shot by shot, its amendments in the open, its charts."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from matches.domain.errors import Refused
from matches.domain.state import CONFIRMING_ROLES
from replay.presentation import charts
from replay.presentation.compare import STATUS_NAMES, rows_side_by_side
from replay.presentation.sentences import (
    event_name,
    is_void_game,
    ruling_in_words,
    shot_in_words,
    shot_name,
)
from replay.presentation.sheet import role_name
from replay.projections.timeline import match_timeline
from replay.queries.player_keys import player_key
from replay.web.lookups import match_or_404, match_unreadable, stage_label


def requested_seq(text: str | None, head: int, default: int) -> tuple[int, str]:
    """Return the seq `?seq=` asks for, or the default with why it was not taken."""
    if text is None or text == "":
        return default, ""
    try:
        seq = int(text)
    except ValueError:
        return default, _("seq: must be a whole number")
    if not 0 <= seq <= head:
        return default, _("seq: must be between 0 and %(head)s") % {"head": head}
    return seq, ""


def match_replay(request: HttpRequest, match_id: str) -> HttpResponse:
    """Show a match shot by shot: the table, the ruling, the scores, the amendments."""
    match = match_or_404(match_id)
    names = {player: entry.get("name", player) for player, entry in match.players.items()}
    try:
        timeline = match_timeline(match)
    except Refused as error:
        # A corrupt or missing stored event: the page says so rather than failing.
        notice = _("This match cannot be replayed: a stored event cannot be read.")
        return match_unreadable(request, match, error, notice)
    shots = timeline["shots"]
    first_shot = shots[0]["seq"] if shots else timeline["head"]
    seq, seq_problem = requested_seq(request.GET.get("seq"), timeline["head"], first_shot)
    view = "live" if request.GET.get("view") == "live" else "amended"
    final = timeline["frames"][-1]
    void_games = {game["game"] for game in final["games"] if is_void_game(game)}
    mark_names = _mark_names()
    context = {
        "match": match,
        "stage": stage_label(match),
        "names": names,
        "sides": [
            {
                "side": side,
                "name": names[side],
                "key": player_key(match.players[side].get("federation_id"), player_id),
            }
            for side, player_id in (("A", match.player_a_id), ("B", match.player_b_id))
        ],
        "timeline": timeline,
        "page": {
            "match": match.id,
            "names": names,
            "balls": {"A": match.ball_a, "B": match.ball_b},
            "pin_pitch": match.header().ruleset.pin_pitch,
            "seq": seq,
            "view": view,
        },
        "seq_problem": seq_problem,
        "final": final,
        # A void game (started after an amendment decided the match) was never played.
        "played_games": [game for game in final["games"] if game["game"] not in void_games],
        "game_choices": [
            {**game, "void": game["game"] in void_games} for game in timeline["games"]
        ],
        "status_name": STATUS_NAMES.get(final["status"], final["status"]),
        "shot_lines": [_shot_line(shot, names, mark_names, final["games"]) for shot in shots],
        "amendments": [
            _amendment(shot, names, timeline["events"]) for shot in shots if _corrected(shot)
        ],
        "charts": charts.score_charts(timeline, names, void_games),
        "summary": _summary(timeline["stats"], names),
        "signed_off": _signed_off(timeline["confirmed"], names)
        if final["status"] == "finished"
        else "",
    }
    return render(request, "replay/replay.html", context)


def _signed_off(confirmed: dict[str, Any], names: dict[str, str]) -> str:
    """Return who has signed the result off, in a sentence."""
    if confirmed["complete"]:
        return _("Signed off by the referee and both players.")

    waiting = [role_name(role, names) for role in CONFIRMING_ROLES if role not in confirmed["by"]]
    if not confirmed["by"]:
        return _("Not signed off yet by the referee or the players.")
    return _("Confirmed by %(done)s; not yet by %(waiting)s.") % {
        "done": ", ".join(role_name(role, names) for role in confirmed["by"]),
        "waiting": ", ".join(waiting),
    }


def _corrected(shot: Mapping[str, Any]) -> bool:
    return bool(shot.get("amended") or shot.get("retracted"))


def _mark_names() -> dict[str, str]:
    """Return the shot list's marks in the active language (once a page, not once a shot)."""
    return {
        "foul": _("foul"),
        "carom": _("carom"),
        "big": _("big shot"),
        "amended": _("amended"),
        "retracted": _("retracted"),
        "void": _("void"),
    }


def _shot_line(
    shot: Mapping[str, Any],
    names: Mapping[str, str],
    mark_names: Mapping[str, str],
    games: Sequence[Mapping[str, Any]],
) -> dict[str, Any]:
    # A void shot scored nothing: its words say why rather than claim its points.
    summary = (
        shot_in_words(shot, names, games)
        if shot["void"]
        else ruling_in_words(shot["ruling"], names, shot["player"])
    )
    return {
        "seq": shot["seq"],
        "game": shot["game"],
        "shot": shot_name(shot["number"], shot["game"]),
        "player": shot["player"],
        "name": names.get(shot["player"], shot["player"]),
        "summary": summary,
        "marks": shot["marks"],
        "labels": [(mark, mark_names[mark]) for mark in shot["marks"]],
    }


def _amendment(
    shot: Mapping[str, Any], names: Mapping[str, str], events: Sequence[Mapping[str, Any]]
) -> dict[str, Any]:
    """Return an amended or retracted shot's rulings and facts side by side, and who, when, why."""
    player = shot["player"]
    correction = shot.get("amended_by") or shot.get("retracted_by") or {}
    recorded = events[shot["seq"] - 1]
    amending = events[correction["seq"] - 1] if correction.get("seq") else {}
    return {
        "seq": shot["seq"],
        "game": shot["game"],
        "shot": shot_name(shot["number"], shot["game"]),
        "event": event_name(shot["seq"]),
        "name": names.get(player, player),
        "retracted": shot.get("retracted", False),
        "rows": rows_side_by_side(
            shot["original"] or shot["ruling"],
            shot["ruling"],
            player,
            names,
            (recorded, amending.get("facts") or recorded),
        ),
        "by": correction.get("by", ""),
        "at": correction.get("at", ""),
        "when": _moment(correction.get("at")),
        "correction_seq": correction.get("seq"),
        "reason": shot.get("reason") or "",
    }


def _moment(text: str | None) -> datetime | None:
    """Return a recorded time (ISO 8601 in UTC with Z) as a datetime, for the page to word."""
    try:
        return datetime.fromisoformat(text.replace("Z", "+00:00")) if text else None
    except ValueError:
        return None


def _summary(
    stats: Mapping[str, Mapping[str, Any]], names: Mapping[str, str]
) -> list[dict[str, Any]]:
    """Return each player's line of the match summary: points, average, caroms, pins, fouls."""
    return [
        {
            "player": player,
            "name": names.get(player, player),
            "points": entry["points"],
            "shots": entry["shots"],
            "average": entry["average"],
            "caroms": sum(entry["caroms"].values()),
            "kiss": entry["caroms"]["kiss"],
            "ricochet": entry["caroms"]["ricochet"],
            "pins": sum(entry["pins"].values()),
            "fouls": entry["fouls"],
            "best": (entry["best_shot"] or {}).get("points"),
        }
        for player, entry in sorted(stats.items())
    ]
