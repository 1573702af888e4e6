"""Pages for viewers and archive visitors."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from replay.archive import recent_matches

COMMAND_LINE_TOOLS = [
    {
        "name": "judge",
        "usage": "python manage.py judge FILE",
        "summary": "Read shot facts as JSON Lines and print one ruling per line.",
    },
    {
        "name": "replay",
        "usage": "python manage.py replay FILE [--upto SEQ] [--live]",
        "summary": "Fold a match record into its state, as amended or as seen live.",
    },
]


def home(request: HttpRequest) -> HttpResponse:
    """Show what carambole is and how to use it."""
    context = {"tools": COMMAND_LINE_TOOLS, "matches": recent_matches()}
    return render(request, "replay/home.html", context)
