"""The live board of a match, and its score line alone for a stream (the overlay)."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from matches.domain.errors import Refused
from matches.models import Match
from replay.queries.access import may_record
from replay.queries.player_keys import player_key
from replay.web.board_context import board
from replay.web.lookups import match_or_404, match_unreadable, stage_label

OVERLAY_STYLES = ("dark", "light")


def match_board(request: HttpRequest, match_id: str) -> HttpResponse:
    """Show a match live: the score, the moment, the table and the shots of the game."""
    match = match_or_404(match_id)
    try:
        shown = board(match)
        pages = _player_pages(match)
        context = {
            **shown,
            "players": [{**player, "page": pages[player["key"]]} for player in shown["players"]],
            "pages": pages,
            "stage": stage_label(match),
            # The console's link, for the one who may record this match (its referee, staff).
            "may_record": may_record(request.user, match),
        }
    except Refused as error:  # a corrupt or missing stored event
        return match_unreadable(request, match, error)
    return render(request, "replay/board.html", context)


def _player_pages(match: Match) -> dict[str, str]:
    """Return the key of each side's player page, "A" and "B", from the match's header."""
    rows = {"A": match.player_a_id, "B": match.player_b_id}
    return {
        side: player_key(match.players[side].get("federation_id"), row)
        for side, row in rows.items()
    }


def match_overlay(request: HttpRequest, match_id: str) -> HttpResponse:
    """Show a match's score line alone, for a stream's browser source (?style=light|dark)."""
    style = request.GET.get("style", "dark")
    match = match_or_404(match_id)
    try:
        context = {**board(match), "style": style if style in OVERLAY_STYLES else "dark"}
    except Refused as error:  # a corrupt or missing stored event
        return match_unreadable(request, match, error)
    return render(request, "replay/overlay.html", context)
