"""Who may do what, every role against every endpoint: the allowed succeed, the others get
401 (no credentials) or 403 (a login not allowed, a session without its CSRF token), and
nothing is stored for them."""

from dataclasses import dataclass

import pytest
from django.conf import settings

from matches import services
from matches.models import Assignment, Competition, Event, Match
from replay.api.tokens import token_issue
from replay.models import ApiToken
from tests.support.builders import PLAYERS, QUIET, open_game
from tests.support.logins import REFEREE, api

EVERYONE = "everyone"
RECORDERS = "the assigned referee and staff"
STAFF = "staff"


@dataclass(frozen=True)
class Endpoint:
    method: str
    path: str
    body: object
    who: str
    success: int = 200


ENDPOINTS = {
    "competition create": Endpoint("post", "/api/competitions/", {"id": "cup-2027"}, STAFF, 201),
    "match create": Endpoint(
        "post",
        "/api/matches/",
        {"id": "cup-2026-b-1", "competition": "cup-2026", "players": PLAYERS, "referee": REFEREE},
        STAFF,
        201,
    ),
    "match": Endpoint("get", "/api/matches/cup-2026-a-3", None, EVERYONE),
    "state": Endpoint("get", "/api/matches/cup-2026-a-3/state?upto=2&view=live", None, EVERYONE),
    "events": Endpoint("get", "/api/matches/cup-2026-a-3/events?after=1", None, EVERYONE),
    "event record": Endpoint(
        "post",
        "/api/matches/cup-2026-a-3/events",
        {"expected_seq": 3, "event": {"type": "shot", **QUIET}},
        RECORDERS,
        201,
    ),
    "judge": Endpoint("post", "/api/matches/cup-2026-a-3/judge", QUIET, EVERYONE),
    "export": Endpoint("get", "/api/matches/cup-2026-a-3/export", None, EVERYONE),
    "referee assign": Endpoint(
        "put", "/api/matches/cup-2026-a-3/referee", {"username": "spectator"}, STAFF
    ),
    "tokens": Endpoint("get", "/api/tokens/", None, STAFF),
    "token revoke": Endpoint("delete", "/api/tokens/{scoreboard}", None, STAFF),
    "schema": Endpoint("get", "/api/schema/", None, EVERYONE),
    "docs": Endpoint("get", "/api/docs/", None, EVERYONE),
}

# Each role: how its client is made, and what it is.
ROLES = {
    "anonymous": (None, None),
    "an unassigned user's token": ("spectator", "token"),
    "the assigned referee's token": (REFEREE, "token"),
    "a staff token": ("federation", "token"),
    "the assigned referee's session with CSRF": (REFEREE, "csrf"),
    "the assigned referee's session without CSRF": (REFEREE, "session"),
    "a staff session with CSRF": ("federation", "csrf"),
    "a staff session without CSRF": ("federation", "session"),
}


def expected_status(username, kind, call):
    """Return what a role gets from an endpoint, as the README's table of who may do what says."""
    if kind == "session" and call.method != "get":
        return 403  # a session without its CSRF token changes nothing, whoever it is
    if call.who == EVERYONE:
        return call.success
    if username is None:
        return 401
    if call.who == RECORDERS and username in (REFEREE, "federation"):
        return call.success
    return call.success if username == "federation" else 403


def client_for(username, kind, keys):
    if kind is None:
        return api()
    if kind == "token":
        return api(keys[username])
    client = api(enforce_csrf_checks=True)
    # As a browser does: a page of the site hands out the CSRF cookie, then the user logs in.
    client.get("/admin/login/")
    client.force_login(services.login_ensure(username))
    if kind == "csrf":
        client.credentials(HTTP_X_CSRFTOKEN=client.cookies[settings.CSRF_COOKIE_NAME].value)
    return client


def stored():
    return (
        Competition.objects.count(),
        Match.objects.count(),
        Event.objects.count(),
        Assignment.objects.count(),
        ApiToken.objects.filter(revoked_at__isnull=False).count(),
    )


@pytest.fixture
def keys(match, staff, referee, stranger):
    """A match in game 1 (A due at seq 4) assigned to the referee; each login's token."""
    open_game(match.id)
    return {"federation": staff.key, REFEREE: referee.key, "spectator": stranger.key}


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("endpoint", ENDPOINTS)
def test_each_role_may_do_what_api_md_allows_and_nothing_else(keys, role, endpoint):
    username, kind = ROLES[role]
    call = ENDPOINTS[endpoint]
    scoreboard = token_issue("scoreboard").token.prefix
    client = client_for(username, kind, keys)
    before = stored()

    path = call.path.format(scoreboard=scoreboard)
    answer = getattr(client, call.method)(path, call.body, format="json")

    expected = expected_status(username, kind, call)
    assert answer.status_code == expected, answer.content
    if expected != call.success:
        assert set(answer.json()) == {"error", "field"}
        assert stored() == before
