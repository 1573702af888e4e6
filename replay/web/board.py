"""The live board of a match, and its score line alone for a stream (the overlay)."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from matches.errors import Refused
from replay.queries.access import may_record
from replay.web.board_context import board
from replay.web.lookups import match_or_404, match_unreadable, stage_label

OVERLAY_STYLES = ("dark", "light")


def match_board(request: HttpRequest, match_id: str) -> HttpResponse:
    """Show a match live: the score, the moment, the table and the shots of the game."""
    match = match_or_404(match_id)
    try:
        context = {
            **board(match),
            "stage": stage_label(match),
            # The console's link, for the one who may record this match (its referee, staff).
            "may_record": may_record(request.user, match),
        }
    except Refused as error:  # a corrupt or missing stored event
        return match_unreadable(request, match, error)
    return render(request, "replay/board.html", context)


def match_overlay(request: HttpRequest, match_id: str) -> HttpResponse:
    """Show a match's score line alone, for a stream's browser source (?style=light|dark)."""
    style = request.GET.get("style", "dark")
    match = match_or_404(match_id)
    try:
        context = {**board(match), "style": style if style in OVERLAY_STYLES else "dark"}
    except Refused as error:  # a corrupt or missing stored event
        return match_unreadable(request, match, error)
    return render(request, "replay/overlay.html", context)
