"""The ratings page: every rated player's Glicko-2 rating at the end of a day."""

from __future__ import annotations

from datetime import date

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

from matches.domain.rating import START_DEVIATION, START_RATING, TAU
from replay.queries.ratings import ratings_on


def ratings_page(request: HttpRequest) -> HttpResponse:
    """Show the ratings as of `?as_of=YYYY-MM-DD` (default today), the best first."""
    asked = request.GET.get("as_of", "").strip()
    today = timezone.localdate()
    try:
        day = date.fromisoformat(asked) if asked else today
    except ValueError:
        day, wrong = today, asked
    else:
        wrong = ""
    context = {
        "day": day,
        "today": today,
        "wrong": wrong,
        # The day each last played as a date, written as every date of the page is.
        "rows": [
            {**row, "last_played": date.fromisoformat(row["last_played"])}
            for row in ratings_on(day)
        ],
        "start": START_RATING,
        "start_deviation": START_DEVIATION,
        "tau": TAU,
    }
    return render(request, "replay/ratings.html", context, status=400 if wrong else 200)
