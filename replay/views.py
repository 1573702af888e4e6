"""Pages for viewers and archive visitors."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext_lazy

from replay.archive import current_competitions, live_matches, recent_results
from replay.board import board
from replay.pages.replay import match_or_404

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


def match_board(request: HttpRequest, match_id: str) -> HttpResponse:
    """Show a match live: the score, the moment, the table and the shots of the game."""
    return render(request, "replay/board.html", board(match_or_404(match_id)))


def match_overlay(request: HttpRequest, match_id: str) -> HttpResponse:
    """Show a match's score line alone, for a stream's browser source (?style=light|dark)."""
    style = request.GET.get("style", "dark")
    context = {
        **board(match_or_404(match_id)),
        "style": style if style in OVERLAY_STYLES else "dark",
    }
    return render(request, "replay/overlay.html", context)
