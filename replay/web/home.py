"""The home page: what is live now, the latest results, the competitions under way."""

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template.loader import render_to_string

from replay.queries.archive import current_competitions, live_matches, recent_results

# The home page looks for live matches this often (seconds), or as often as the live
# sockets look at the store when that is sooner.
LIVE_NOW_SECONDS = 5


def live_every() -> int:
    """Return how many seconds the home page waits between two looks at the live matches."""
    return max(1, min(LIVE_NOW_SECONDS, settings.LIVE_HEAD_SECONDS))


def home(request: HttpRequest) -> HttpResponse:
    """Show what is live now, the latest results and the competitions under way."""
    context = {
        "live": live_matches(),
        "results": recent_results(),
        "competitions": current_competitions(),
        "live_every": live_every(),
    }
    return render(request, "replay/home.html", context)


def live_now(request: HttpRequest) -> JsonResponse:
    """Answer the matches under way, each with its card as the home page draws it."""
    matches = [
        {
            "id": line.match.pk,
            "seq": line.seq,
            "html": render_to_string("replay/_live_card.html", {"line": line}, request),
        }
        for line in live_matches()
    ]
    return JsonResponse({"matches": matches})
