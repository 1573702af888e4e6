"""Browsers that succeeded before: a signed cookie naming whom they logged in as, or whose
PIN was typed on them, so that a stranger's failures never refuse them (carambole.throttle).

A browser that logged in to an account, or on which a player confirmed a result with
their PIN, keeps a signed cookie saying so (a year). For that account or player it is
held to the limit on its own: neither a stranger's failures for them nor those of its
address (a hall's network, shared by everyone in it) refuse it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core import signing
from django.http import HttpRequest

AGE = 365 * 24 * 3600


@dataclass(frozen=True)
class Known:
    """One kind of success a browser remembers: its cookie, its signature's salt, how many."""

    cookie: str
    salt: str
    most: int

    def names(self, request: HttpRequest) -> list[str]:
        """Return the names this browser succeeded for before (its signed cookie), newest first."""
        value = request.COOKIES.get(self.cookie)
        if not value:
            return []
        try:
            names = signing.loads(value, salt=self.salt, max_age=AGE)
        except signing.BadSignature:
            return []
        if not isinstance(names, list):
            return []
        return [name for name in names if isinstance(name, str)]

    def subject(self, request: HttpRequest, name: str) -> str | None:
        """Return what this browser's attempts for `name` count against on their own, or None
        for a browser that never succeeded for it."""
        if name not in self.names(request):
            return None
        return f"{name}\n{request.COOKIES[self.cookie]}"

    def remember(self, request: HttpRequest, response: Any, name: str) -> None:
        """Set the cookie on `response`: this browser succeeded for `name`, the newest."""
        names = [name, *(known for known in self.names(request) if known != name)]
        response.set_cookie(
            self.cookie,
            signing.dumps(names[: self.most], salt=self.salt),
            max_age=AGE,
            secure=settings.SESSION_COOKIE_SECURE,
            httponly=True,
            samesite="Lax",
        )


# The accounts a browser logged in to (a tablet shared by a hall's referees).
LOGINS = Known("carambole_logins", "carambole.logins.known", 8)
# The players who confirmed a result on a browser (a table's tablet, a season's players),
# each by a digest of their key: a cookie holds no player's name.
PINS = Known("carambole_pins", "carambole.pins.known", 32)
