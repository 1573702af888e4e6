"""The competitions' pages: the list, and one competition's standings, schedule and history."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from matches.domain.notation import LONGEST
from matches.domain.rules import DEFAULT_RULESET, Ruleset
from matches.models import FEDERATION_ID_LENGTH, Competition
from matches.services.competition_log import stages_of
from replay.presentation.consequence_words import log_sentence, match_words, third_place
from replay.presentation.stage_words import (
    Terms,
    dressed,
    match_place,
    out_words,
    setup_words,
    slot_words,
    stage_name,
    terms_of,
    terms_of_shapes,
)
from replay.presentation.standings_words import counts, sentence
from replay.queries.championships import (
    disputes_open,
    draw_history,
    stage_shapes,
    stages_and_ranking,
    standings_fault,
)
from replay.queries.competitions import (
    competition_entrants,
    competition_matches,
    competitions_listed,
)
from replay.queries.hall import hall_get, table_names
from replay.queries.player_keys import player_key
from replay.queries.standings_reader import standings_changes, standings_get
from replay.web.lookups import at_of, competition_or_404
from replay.web.rates import costly_read_as_of

HISTORY = 15
DRAW_HISTORY = 8  # the draw's latest events on the competition's page


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


@costly_read_as_of
def competition_page(request: HttpRequest, competition_id: str) -> HttpResponse:
    """Show a competition: its standings (live), results, schedule and what changed."""
    competition = competition_or_404(competition_id)
    standings = standings_get(competition.pk)
    matches = competition_matches(competition)
    stages = _stages(competition, request)
    # What the projector could not write, said above the last good state the page shows.
    stopped = [stages.get("stages_error"), standings_fault(competition.pk)]
    context = {
        **stages,
        "read_errors": [error for error in stopped if error is not None],
        "competition": competition,
        "ruleset": Ruleset.from_overrides(competition.ruleset).as_dict(),
        "standings": standings,
        "rows": [_row(row) for row in standings["rows"]],
        "results": _worded(matches.results, stages.get("terms")),
        "schedule": _worded(matches.schedule, stages.get("terms")),
        "history": history(competition.pk),
        "draw_history": _draw_history(competition, DRAW_HISTORY, stages.get("terms")),
        "entrants": competition_entrants(competition),
        "tables": table_names(competition),
        "staff": request.user.is_authenticated and request.user.is_staff,
        "unsigned": sum(
            1 for line in matches.results if line["status"] == "finished" and not line["signed"]
        ),
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
    # Each stage's set-up as stored, shown back under its name.
    names = {stage_id: stage_name(found) for stage_id, found in terms.items()}
    setups = {
        stage.id: setup_words(stage, competition.ruleset, names) for stage in stages_of(competition)
    }
    return {
        "terms": terms,
        "stages": [
            {**dressed(stage, terms[stage["id"]]), "setup": setups.get(stage["id"], "")}
            for stage in stages["stages"]
        ],
        "stages_version": stages["version"],
        "stages_error": stages["error"],
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


def competition_hall(request: HttpRequest, competition_id: str) -> HttpResponse:
    """Show a competition's hall: every table with its match, live; staff call matches."""
    competition = competition_or_404(competition_id)
    context = {
        "competition": competition,
        "hall": hall_get(competition),
        "staff": request.user.is_authenticated and request.user.is_staff,
    }
    return render(request, "replay/competition_hall.html", context)


def competition_history(request: HttpRequest, competition_id: str) -> HttpResponse:
    """Show what changed the standings, and every event of the draw (entries, draws, moves of
    players, decisions); the competition's page takes its list at each version."""
    competition = competition_or_404(competition_id)
    context = {
        "competition": competition,
        "history": history(competition.pk),
        "draw_history": _draw_history(competition),
    }
    return render(request, "replay/competition_history.html", context)


def competition_disputes(request: HttpRequest, competition_id: str) -> HttpResponse:
    """List a competition's open disputes with the decision's form (staff; others log in)."""
    if not (request.user.is_authenticated and request.user.is_staff):
        return redirect_to_login(request.get_full_path())
    competition = competition_or_404(competition_id)
    if competition.stages is None:
        raise Http404(_("The competition has no stages"))
    found = disputes_open(competition.pk)
    disputes = [
        {
            **dispute,
            "match_words": match_words(
                dispute["players"] or [],
                dispute["round"],
                dispute["rounds"],
                third_place(dispute["match"]),
                group=dispute.get("group", ""),
            ),
            "slot_words": slot_words(dispute["slot"], dispute["rounds"]),
        }
        for dispute in found["disputes"]
    ]
    context = {
        "competition": competition,
        "version": found["version"],
        "disputes": disputes,
        "read_errors": [found["error"]] if found["error"] is not None else [],
        "draw_history": [
            line for line in _draw_history(competition) if line["kind"] in DRAW_CHANGES
        ],
    }
    return render(request, "replay/competition_disputes.html", context)


DRAW_CHANGES = ("players_moved", "dispute_decided")


def _draw_history(
    competition: Competition, limit: int | None = None, terms: dict[str, Terms] | None = None
) -> list[dict[str, Any]]:
    """Return the competition's log, newest first, each event in a sentence (`terms`: its
    stages' words, when the page has them already)."""
    if competition.stages is None:
        return []
    if terms is None:
        terms = terms_of_shapes(stage_shapes(competition))
    return [
        {
            "version": line["version"],
            "at": line["at"],
            "by": line["by"],
            "kind": line["event"]["type"],
            "text": log_sentence(line["event"], terms),
        }
        for line in draw_history(competition.pk)[:limit]
    ]


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
