"""A console's heartbeat: `{"type": "heartbeat"}` every 15 s on its match's socket.

The sockets carry no login: a heartbeat is read with the session of the browser that
sent it (its cookie, read only for a heartbeat), and counts only from a login that
may record the match. It is kept at most once per KEPT_SECONDS per socket (half the
console's beat: a beat that comes a moment early is still kept, so a void reaches the
console within one beat, not two). A
heartbeat of a match a decision has voided is answered `{"type": "void", "replacement":
id or null}`: the console refuses taps from then on, before any Confirm.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from importlib import import_module
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user
from django.http import HttpRequest
from django.http.cookie import parse_cookie

from matches.models import Match
from matches.selectors import replacement_of
from replay.projections.activity import activity_note
from replay.queries.access import may_record

HEARTBEAT_SECONDS = 15.0  # the console's beat
KEPT_SECONDS = HEARTBEAT_SECONDS / 2


def is_heartbeat(text: str | None) -> bool:
    """Return whether a client's message is a heartbeat (cheaply: most are not)."""
    if not text or "heartbeat" not in text or len(text) > 100:
        return False
    try:
        message = json.loads(text)
    except ValueError:
        return False
    return isinstance(message, dict) and message.get("type") == "heartbeat"


def cookie_of(headers: Iterable[tuple[bytes, bytes]]) -> str:
    for name, value in headers:
        if name.lower() == b"cookie":
            return value.decode("latin-1")
    return ""


def login_of(cookie: str) -> Any:
    """Return the login of a browser's session cookie (anonymous without one)."""
    request = HttpRequest()
    engine = import_module(settings.SESSION_ENGINE)
    key = parse_cookie(cookie).get(settings.SESSION_COOKIE_NAME)
    request.session = engine.SessionStore(key)
    return get_user(request)


def console_heard(cookie: str, match_id: str) -> str | None:
    """Keep that a console of the match is there, if its login may record it; return the
    match's competition (whose hall shows it), or None when it does not count."""
    match = Match.objects.filter(pk=match_id).only("pk", "competition_id").first()
    if match is None:
        return None
    if not may_record(login_of(cookie), match):
        return None
    activity_note(match.pk)
    return match.competition_id


def void_notice(match_id: str) -> str | None:
    """Return what a void match's console is told (its replacement, once made), or None."""
    match = Match.objects.filter(pk=match_id).only("pk", "status").first()
    if match is None or match.status != Match.Status.VOID:
        return None
    replacement = replacement_of(match)
    made = None
    if replacement is not None:
        players = {side: replacement.players[side]["name"] for side in ("A", "B")}
        made = {"id": replacement.pk, "players": players}
    return json.dumps({"type": "void", "match": match.pk, "replacement": made})
