"""The competitions' pages: the list, and one competition's standings, schedule and history."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from matches.models import FEDERATION_ID_LENGTH, Competition, Entry, Match
from matches.rules import Ruleset
from replay.models import MatchSummary, Standings, StandingsChange
from replay.presentation.standings_words import counts, sentence
from replay.queries.player_keys import player_key
from replay.queries.standings_reader import standings_get
from replay.web.lookups import competition_or_404

HISTORY = 15
PLAYED = ("finished", "review")


def competition_list(request: HttpRequest) -> HttpResponse:
    """List the competitions, the newest first, with how far each has got."""
    competitions = Competition.objects.order_by("-created_at").annotate(
        total=Count("summaries"),
        finished=Count("summaries", filter=Q(summaries__status="finished")),
        entrants=Count("entries", distinct=True),
    )
    versions = dict(Standings.objects.values_list("competition_id", "version"))
    lines = [{"competition": c, "version": versions.get(c.pk, 0)} for c in competitions]
    return render(request, "replay/competitions.html", {"lines": lines})


def competition_page(request: HttpRequest, competition_id: str) -> HttpResponse:
    """Show a competition: its standings (live), results, schedule and what changed."""
    competition = competition_or_404(competition_id)
    standings = standings_get(competition.pk)
    summaries = {s.match_id: s for s in MatchSummary.objects.filter(competition=competition)}
    # From the matches, not only their summaries: one scheduled a moment ago has none yet.
    lines = [
        _line(match, summaries.get(match.pk))
        for match in Match.objects.filter(competition=competition)
        .select_related("player_a", "player_b")
        .order_by("date", "stage", "pk")
    ]
    context = {
        "competition": competition,
        "ruleset": Ruleset.from_overrides(competition.ruleset).as_dict(),
        "standings": standings,
        "rows": [_row(row) for row in standings["rows"]],
        "results": [line for line in lines if line["status"] in PLAYED],
        "schedule": [line for line in lines if line["status"] not in PLAYED],
        "history": history(competition.pk),
        "entrants": [
            {
                "name": entry.player.name,
                "key": player_key(entry.player.federation_id, entry.player.pk),
            }
            for entry in Entry.objects.filter(competition=competition).select_related("player")
        ],
        "staff": request.user.is_authenticated and request.user.is_staff,
        "federation_id_length": FEDERATION_ID_LENGTH,
    }
    return render(request, "replay/competition.html", context)


def competition_history(request: HttpRequest, competition_id: str) -> HttpResponse:
    """Show what changed the standings; the competition's page takes its list at each version."""
    competition = competition_or_404(competition_id)
    context = {"competition": competition, "history": history(competition.pk)}
    return render(request, "replay/competition_history.html", context)


def history(competition_id: str) -> list[dict[str, Any]]:
    """Return the newest versions that changed a counted result, each in a sentence."""
    changes = StandingsChange.objects.filter(competition_id=competition_id).order_by("-version")
    shown = []
    for change in changes.iterator():
        if counts(change):
            cause = change.changes.get("cause") or {}
            shown.append(
                {
                    "version": change.version,
                    "text": sentence(change),
                    "match": cause.get("match"),
                    # The replay opens at the corrected shot, or at the event itself.
                    "seq": cause.get("shot") or cause.get("seq"),
                    "amended": cause.get("type") in ("shot_amended", "shot_retracted"),
                    "computed_at": change.computed_at,
                }
            )
            if len(shown) == HISTORY:
                break
    return shown


def _row(row: dict[str, Any]) -> dict[str, Any]:
    return {**row, "key": player_key(row.get("player_id"), row["player_key"])}


def _line(match: Match, summary: MatchSummary | None) -> dict[str, Any]:
    a, b = match.player_a, match.player_b
    line = {
        "match": match.pk,
        "date": match.date,
        "stage": match.stage,
        "status": "scheduled",
        "players": [
            {
                "side": "A",
                "name": match.players["A"]["name"],
                "key": player_key(a.federation_id, a.pk),
            },
            {
                "side": "B",
                "name": match.players["B"]["name"],
                "key": player_key(b.federation_id, b.pk),
            },
        ],
        "games": (0, 0),
        "points": (0, 0),
        "winner": "",
        "amendments": 0,
    }
    if summary is not None:
        line.update(
            status=summary.status,
            games=(summary.games_won_a, summary.games_won_b),
            points=(summary.points_a, summary.points_b),
            winner=summary.winner,
            amendments=summary.amendments,
        )
    return line
