"""The competitions' pages: the list, and one competition's standings, schedule and history."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from matches.models import FEDERATION_ID_LENGTH, Competition
from matches.notation import LONGEST
from matches.rules import DEFAULT_RULESET, Ruleset
from replay.presentation.stage_words import Terms, dressed, match_place, out_words, terms_of
from replay.presentation.standings_words import counts, sentence
from replay.queries.championships import stages_and_ranking
from replay.queries.competitions import (
    competition_entrants,
    competition_matches,
    competitions_listed,
)
from replay.queries.player_keys import player_key
from replay.queries.standings_reader import standings_changes, standings_get
from replay.web.lookups import at_of, competition_or_404

HISTORY = 15


def competition_list(request: HttpRequest) -> HttpResponse:
    """List the competitions, the newest first, with how far each has got (staff: a form to
    create one)."""
    context = {
        "lines": competitions_listed(),
        "staff": request.user.is_authenticated and request.user.is_staff,
        "longest_name": LONGEST["name"],
        "default_target": DEFAULT_RULESET.target,
        "default_best_of": DEFAULT_RULESET.best_of,
    }
    return render(request, "replay/competitions.html", context)


def competition_page(request: HttpRequest, competition_id: str) -> HttpResponse:
    """Show a competition: its standings (live), results, schedule and what changed."""
    competition = competition_or_404(competition_id)
    standings = standings_get(competition.pk)
    matches = competition_matches(competition)
    stages = _stages(competition, request)
    context = {
        **stages,
        "competition": competition,
        "ruleset": Ruleset.from_overrides(competition.ruleset).as_dict(),
        "standings": standings,
        "rows": [_row(row) for row in standings["rows"]],
        "results": _worded(matches.results, stages.get("terms")),
        "schedule": _worded(matches.schedule, stages.get("terms")),
        "history": history(competition.pk),
        "entrants": competition_entrants(competition),
        "staff": request.user.is_authenticated and request.user.is_staff,
        "federation_id_length": FEDERATION_ID_LENGTH,
    }
    return render(request, "replay/competition.html", context)


def _stages(competition: Competition, request: HttpRequest) -> dict[str, Any]:
    """Return the stages and final ranking a competition in stages shows, as of `?at=V`."""
    if competition.stages is None:
        return {"stages": None}
    at = at_of(request)
    read = stages_and_ranking(competition.pk, at)
    assert read is not None  # a competition with stages
    stages, ranking = read
    terms = terms_of(stages["stages"])
    return {
        "terms": terms,
        "stages": [dressed(stage, terms[stage["id"]]) for stage in stages["stages"]],
        "stages_version": stages["version"],
        "at": at,
        "ranking": ranking,
        "ranking_rows": [
            {**row, "out": out_words(row["out_in"], terms)} for row in ranking["rows"]
        ],
        "drawn": any(stage["drawn"] for stage in stages["stages"]),
    }


def _worded(lines: list[dict[str, Any]], terms: dict[str, Terms] | None) -> list[dict[str, Any]]:
    """Return the lines with each stage match's place in its stage in the page's language."""
    if not terms:
        return lines
    return [
        {**line, "stage": match_place(terms.get(line["stage_id"]), line["group"], line["slot"])}
        if line["stage_id"]
        else line
        for line in lines
    ]


def competition_history(request: HttpRequest, competition_id: str) -> HttpResponse:
    """Show what changed the standings; the competition's page takes its list at each version."""
    competition = competition_or_404(competition_id)
    context = {"competition": competition, "history": history(competition.pk)}
    return render(request, "replay/competition_history.html", context)


def history(competition_id: str) -> list[dict[str, Any]]:
    """Return the newest versions that changed a counted result, each in a sentence."""
    shown = []
    for change in standings_changes(competition_id):
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
