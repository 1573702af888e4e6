"""The players: their directory, and a player's page (their matches and results, averages,
form over time, head-to-head)."""

from __future__ import annotations

from datetime import date
from typing import Any
from urllib.parse import urlencode

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from matches.models import Player
from matches.services.pins import pin_issue
from replay.presentation import charts
from replay.presentation.compare import STATUS_NAMES
from replay.queries.pins import pin_showings
from replay.queries.player_keys import player_for_key, player_key
from replay.queries.player_matches import (
    finished_totals,
    head_to_head,
    player_lines,
    player_totals,
)
from replay.queries.players_directory import PlayerSearch, directory
from replay.queries.ratings import rating_history, rating_today
from replay.web.lookups import player_or_404

# The matches listed on the page, newest first; the totals and the chart count them all.
LISTED = 100


def _form_label(line: dict[str, Any]) -> str:
    """Return what a point of the form chart says of its match: the day and the opponent."""
    name = line["opponent"]["name"]
    return f"{date_format(line['date'], 'SHORT_DATE_FORMAT')} {name}" if line["date"] else name


def players_page(request: HttpRequest) -> HttpResponse:
    """List the players by name, searched by a name, part of one, or a federation id."""
    form = PlayerSearch(request.GET or None)
    text, page = form.wanted()
    rows, more = directory(text, page)
    context = {
        "form": form,
        "rows": rows,
        "text": text,
        "page": page,
        "previous_page": page - 1 if page > 1 else None,
        "next_page": page + 1 if more else None,
        "query": urlencode({"q": text}) if text else "",
    }
    return render(request, "replay/players.html", context)


def player_page(request: HttpRequest, key: str) -> HttpResponse:
    """Show a player: matches, results, averages, form over time; ?versus= another player."""
    player = player_or_404(key)
    versus_key = request.GET.get("versus", "").strip()
    versus = player_for_key(versus_key) if versus_key else None
    theirs: list[dict[str, Any]] = []
    if versus is not None:
        mine, theirs = head_to_head(player, versus)
    else:
        mine = player_lines(player)
    lines = [
        {**line, "status_name": STATUS_NAMES.get(line["status"], line["status"])} for line in mine
    ]
    # The form is of matches that count: a void one (replaced by a decision) counts nowhere.
    played = [line for line in reversed(lines) if line["status"] not in ("scheduled", "void")]
    form = [{"average": line["average"], "label": _form_label(line)} for line in played]
    opponents: dict[str, dict[str, Any]] = {}
    for line in lines:
        entry = opponents.setdefault(line["opponent"]["key"], {**line["opponent"], "matches": 0})
        entry["matches"] += 1
    history = rating_history(player)
    rated = [
        {**entry, "label": date_format(entry["day"], "SHORT_DATE_FORMAT")} for entry in history
    ]
    own_key = player_key(player.federation_id, player.pk)  # not `key`: an old `id-N` too
    today = timezone.localdate()
    context = {
        "player": player,
        "key": own_key,
        "versus": versus,
        "versus_key": versus_key,
        "versus_missing": bool(versus_key) and versus is None,
        "lines": lines[:LISTED],
        "more": max(len(lines) - LISTED, 0),
        "totals": player_totals(lines),
        "chart": charts.form_chart(form) if form else None,
        "rating": rating_today(history, today),
        "rating_chart": charts.rating_chart(rated) if rated else None,
        "archive_url": f"{reverse('replay:archive')}?{urlencode({'player': own_key})}",
        "opponents": sorted(opponents.values(), key=lambda entry: entry["name"].casefold()),
        "staff": request.user.is_authenticated and request.user.is_staff,
        "sides": _sides(player, lines, history, versus, theirs, today) if versus else None,
    }
    return render(request, "replay/player.html", context)


def _sides(
    player: Player,
    lines: list[dict[str, Any]],
    history: list[dict[str, Any]],
    versus: Player,
    theirs: list[dict[str, Any]],
    today: date,
) -> list[dict[str, Any]]:
    """Return the two players of a head-to-head side by side: each one's totals over the
    finished matches between them, and rating today."""
    return [
        {
            "name": who.name,
            "key": player_key(who.federation_id, who.pk),
            "totals": finished_totals(own),
            "rating": rating_today(ratings, today),
        }
        for who, own, ratings in (
            (player, lines, history),
            (versus, theirs, rating_history(versus)),
        )
    ]


# The showings of a PIN listed under it, the newest first.
SHOWINGS = 10


@never_cache  # a PIN on no cache's disk, in no browser's back button
@require_POST
def player_pin_page(request: HttpRequest, key: str) -> HttpResponse:
    """Issue a player a new PIN and show it to staff this once, keeping who saw it and when;
    list the last showings."""
    player = player_or_404(key)
    if not request.user.is_authenticated:
        return redirect_to_login(reverse("replay:player", args=[key]))
    if not request.user.is_staff:
        raise PermissionDenied(_("Only staff see a player's PIN."))
    pin = pin_issue(player=player, by=request.user.get_username())
    context = {
        "player": player,
        "key": player_key(player.federation_id, player.pk),
        "pin": pin,
        "showings": pin_showings(player, SHOWINGS),
    }
    return render(request, "replay/player_pin.html", context)
