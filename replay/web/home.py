"""The home page: what is live now, the latest results, the competitions under way."""

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template.loader import render_to_string

from matches.models import Match
from replay.queries.archive import current_competitions, live_matches, recent_results
from replay.web.lookups import stage_places

# The home page looks for live matches this often (seconds), or as often as the live
# sockets look at the store when that is sooner.
LIVE_NOW_SECONDS = 5


def live_every() -> int:
    """Return how many seconds the home page waits between two looks at the live matches."""
    return max(1, min(LIVE_NOW_SECONDS, settings.LIVE_HEAD_SECONDS))


def home(request: HttpRequest) -> HttpResponse:
    """Show what is live now, the latest results and the competitions under way."""
    live, results = live_matches(), list(recent_results())
    _placed([line.match for line in live])
    places = stage_places(
        (r.match_id, r.competition_id, r.match.stage_id, r.match.group, r.match.slot)
        for r in results
    )
    for result in results:  # the summary's free-text stage, worded as the page speaks
        result.stage = places.get(result.match_id, result.stage)
    context = {
        "live": live,
        "results": results,
        "competitions": current_competitions(),
        "live_every": live_every(),
    }
    return render(request, "replay/home.html", context)


def live_now(request: HttpRequest) -> JsonResponse:
    """Answer the matches under way, each with its card as the home page draws it."""
    live = live_matches()
    _placed([line.match for line in live])
    matches = [
        {
            "id": line.match.pk,
            "seq": line.seq,
            "html": render_to_string("replay/_live_card.html", {"line": line}, request),
        }
        for line in live
    ]
    return JsonResponse({"matches": matches})


def _placed(matches: list[Match]) -> None:
    """Word each stage match's free-text stage as the page speaks (not saved: shown only)."""
    places = stage_places((m.pk, m.competition_id, m.stage_id, m.group, m.slot) for m in matches)
    for match in matches:
        match.stage = places.get(match.pk, match.stage)
