"""Pages for viewers and archive visitors."""

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from matches.errors import NotFound
from matches.models import Match
from matches.notation import SLUG
from matches.selectors import match_get
from replay.archive import current_competitions, live_matches, recent_results
from replay.board import board

OVERLAY_STYLES = ("dark", "light")

COMMAND_LINE_TOOLS = [
    {
        "name": "judge",
        "usage": "python manage.py judge FILE",
        "summary": gettext_lazy("Read shot facts as JSON Lines and print one ruling per line."),
    },
    {
        "name": "replay",
        "usage": "python manage.py replay FILE [--upto SEQ] [--live]",
        "summary": gettext_lazy("Fold a match record into its state, as amended or as seen live."),
    },
]


def home(request: HttpRequest) -> HttpResponse:
    """Show what is live now, the latest results and the competitions under way."""
    context = {
        "live": live_matches(),
        "results": recent_results(),
        "competitions": current_competitions(),
        "tools": COMMAND_LINE_TOOLS,
    }
    return render(request, "replay/home.html", context)


def _match(match_id: str) -> Match:
    if not SLUG.match(match_id):
        raise Http404(_("No such match"))  # no slug names no match: never asked of the database
    try:
        return match_get(match_id)
    except NotFound:
        raise Http404(_("No such match")) from None


def match_board(request: HttpRequest, match_id: str) -> HttpResponse:
    """Show a match live: the score, the moment, the table and the shots of the game."""
    return render(request, "replay/board.html", board(_match(match_id)))


def match_overlay(request: HttpRequest, match_id: str) -> HttpResponse:
    """Show a match's score line alone, for a stream's browser source (?style=light|dark)."""
    style = request.GET.get("style", "dark")
    context = {**board(_match(match_id)), "style": style if style in OVERLAY_STYLES else "dark"}
    return render(request, "replay/overlay.html", context)
