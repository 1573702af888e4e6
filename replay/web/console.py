"""The console's pages: who may record a match sees its console; others get a clear page."""

from __future__ import annotations

from pathlib import Path

from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from matches.domain.errors import NotFound, Refused
from matches.domain.notation import SLUG
from matches.models import Match
from matches.records import record_header
from matches.selectors import match_get, replacement_of
from replay.projections.states import match_state
from replay.queries.access import is_staff, may_record
from replay.web.lookups import match_unreadable

SERVICE_WORKER = Path(__file__).resolve().parent.parent / "static" / "replay" / "console-sw.js"
# The scripts and styles the console loads: the service worker keeps them for an offline reopen.
CONSOLE_SCRIPTS = (
    "replay/pages/console.js",
    "replay/console.js",
    "replay/api.js",
    "replay/constants.js",
    "replay/console-moments.js",
    "replay/console-forms.js",
    "replay/console-offline.js",
    "replay/console-panels.js",
    "replay/console-place.js",
    "replay/console-queue-view.js",
    "replay/console-shot.js",
    "replay/console-shot-view.js",
    "replay/console-sign-off.js",
    "replay/console-words.js",
    "replay/queue.js",
    "replay/scoreboard.js",
    "replay/table.js",
    "replay/words.js",
    "replay/live.js",
    "replay/scoreline.js",
    "replay/socket.js",
    "replay/console.css",
    "replay/site.css",
)


@never_cache
@require_GET
def console(request: HttpRequest, id: str) -> HttpResponse:
    """Show the console of a match to its referee or staff; ask anyone else to log in."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    try:
        # An id that is no slug names no match, and never reaches the database.
        match = match_get(id if SLUG.match(id) else None)
    except NotFound:
        return render(request, "replay/console_missing.html", {"id": id}, status=404)
    if not may_record(request.user, match):
        return render(request, "replay/console_forbidden.html", {"match": match}, status=403)
    if match.status == Match.Status.VOID:  # its events are refused: say so before any tap
        replaced = {"match": match, "replacement": replacement_of(match)}
        return render(request, "replay/console_void.html", replaced, status=410)
    header = record_header(match)
    try:
        state = match_state(match)
    except Refused as error:  # a corrupt or missing stored event: nothing can be recorded
        return match_unreadable(request, match, error)
    context = {
        "match": match,
        "header": header,
        "setup": {
            "match": header,
            "state": state,
            "username": request.user.get_username(),
            "staff": is_staff(request.user),
            "api": reverse("api:match", args=[match.id]),
            "live": f"/ws/matches/{match.id}/",
            "login": reverse("login"),
        },
    }
    return render(request, "replay/console.html", context)


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """Serve the console's service worker from /referee/, so its scope covers the consoles."""
    scripts = "\n".join(f"  {static(name)!r}," for name in CONSOLE_SCRIPTS)
    body = SERVICE_WORKER.read_text(encoding="utf-8").replace("/*SCRIPTS*/", scripts)
    response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = reverse("console:service-worker").rsplit("/", 1)[0] + "/"
    # A new console release reaches the browsers at their next visit.
    response["Cache-Control"] = "no-cache"
    return response
