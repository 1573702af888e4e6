"""A player's page: their matches and results, averages, form over time, head-to-head."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.db.models import F, Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from matches.models import Player
from matches.rules import average
from replay.models import MatchSummary
from replay.presentation import charts
from replay.presentation.compare import STATUS_NAMES
from replay.queries.player_keys import player_for_key, player_key

# The matches listed on the page, newest first; the totals and the chart count them all.
LISTED = 100


def _side(summary: MatchSummary, player: Player) -> str:
    return "A" if summary.player_a_id == player.pk else "B"


def _outcome(summary: MatchSummary, side: str) -> str:
    if not summary.winner:
        return ""
    return "won" if summary.winner == side else "lost"


def player_line(summary: MatchSummary, player: Player) -> dict[str, Any]:
    """Return one of a player's matches as their page lists it, from their side of the table."""
    side = _side(summary, player)
    other = summary.player_b if side == "A" else summary.player_a
    mine, theirs = ("a", "b") if side == "A" else ("b", "a")
    return {
        "match": summary.match_id,
        "competition": summary.competition,
        "date": summary.date,
        "opponent": {
            "name": getattr(summary, f"player_{theirs}_name"),
            "key": player_key(other.federation_id, other.pk),
        },
        "games": (getattr(summary, f"games_won_{mine}"), getattr(summary, f"games_won_{theirs}")),
        "points": (getattr(summary, f"points_{mine}"), getattr(summary, f"points_{theirs}")),
        "average": getattr(summary, f"average_{mine}"),
        "own_points": getattr(summary, f"own_points_{mine}"),
        "shots": getattr(summary, f"shots_{mine}"),
        "outcome": _outcome(summary, side),
        "status": summary.status,
        "status_name": STATUS_NAMES.get(summary.status, summary.status),
    }


def _form_label(line: dict[str, Any]) -> str:
    """Return what a point of the form chart says of its match: the day and the opponent."""
    name = line["opponent"]["name"]
    return f"{date_format(line['date'], 'SHORT_DATE_FORMAT')} {name}" if line["date"] else name


def _totals(lines: list[dict[str, Any]]) -> dict[str, Any]:
    played = [line for line in lines if line["outcome"]]
    won = sum(line["outcome"] == "won" for line in played)
    shots = sum(line["shots"] for line in lines)
    return {
        "matches": len(lines),
        "decided": len(played),
        "won": won,
        "lost": len(played) - won,
        "games_won": sum(line["games"][0] for line in lines),
        "games_lost": sum(line["games"][1] for line in lines),
        "points": sum(line["points"][0] for line in lines),
        "average": average(sum(line["own_points"] for line in lines), shots),
    }


def player_page(request: HttpRequest, key: str) -> HttpResponse:
    """Show a player: matches, results, averages, form over time; ?versus= another player."""
    player = player_for_key(key)
    if player is None:
        raise Http404(_("No such player"))
    rows = (
        MatchSummary.objects.filter(Q(player_a=player) | Q(player_b=player))
        .select_related("competition", "player_a", "player_b")
        # Newest first, and an undated match (one under way, most often) before every dated
        # one, whichever database: the chart reads this list backwards, oldest first.
        .order_by(F("date").desc(nulls_first=True), "-match_id")
    )
    versus = None
    versus_key = request.GET.get("versus", "").strip()
    if versus_key:
        versus = player_for_key(versus_key)
        if versus is not None:
            rows = rows.filter(Q(player_a=versus) | Q(player_b=versus))
    lines = [player_line(row, player) for row in rows]
    played = [line for line in reversed(lines) if line["status"] != "scheduled"]
    form = [{"average": line["average"], "label": _form_label(line)} for line in played]
    opponents: dict[str, dict[str, Any]] = {}
    for line in lines:
        entry = opponents.setdefault(line["opponent"]["key"], {**line["opponent"], "matches": 0})
        entry["matches"] += 1
    own_key = player_key(player.federation_id, player.pk)  # not `key`: an old `id-N` too
    context = {
        "player": player,
        "key": own_key,
        "versus": versus,
        "versus_key": versus_key,
        "versus_missing": bool(versus_key) and versus is None,
        "lines": lines[:LISTED],
        "more": max(len(lines) - LISTED, 0),
        "totals": _totals(lines),
        "chart": charts.form_chart(form) if form else None,
        "archive_url": f"{reverse('replay:archive')}?{urlencode({'player': own_key})}",
        "opponents": sorted(opponents.values(), key=lambda entry: entry["name"].casefold()),
    }
    return render(request, "replay/player.html", context)
