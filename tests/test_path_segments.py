"""Every segment of every path is checked before it reaches the database: never a 500.

PostgreSQL refuses a NUL in any text it is asked about (SQLite takes it), so on
PostgreSQL a NUL that reached a query would be a 500. Each path below is a URL pattern
with real values in its segments but one, which holds a NUL: a 404 for every method, as
staff (who may reach the most), with the body each change needs to get past its checks.
The API's paths refuse it (its converters), the pages' lookups (`check_id`) say what
they do not find; a socket's consumer closes with 4404. A new path is walked too.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from urllib.parse import quote

import pytest
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.urls import URLPattern, URLResolver, get_resolver
from django.urls.resolvers import RoutePattern

from matches import services
from matches.models import Match, Player
from replay.api.tokens import token_issue
from replay.queries.player_keys import player_key
from replay.routing import websocket_urlpatterns
from tests.support.championships import championship
from tests.support.sockets import watching

NUL = "a\x00b"
CAPTURED = re.compile(r"<(?:(?P<converter>[^>:]+):)?(?P<name>[^>]+)>")
METHODS = ("get", "post", "put", "delete")


def routes(patterns: list, prefix: str = "", space: str = "") -> Iterator[tuple[str, str]]:
    """Yield the route and name of every pattern held (a regex one names no segment)."""
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            inner = f"{space}{pattern.namespace}:" if pattern.namespace else space
            yield from routes(pattern.url_patterns, prefix + str(pattern.pattern), inner)
        elif isinstance(pattern, URLPattern) and isinstance(pattern.pattern, RoutePattern):
            yield prefix + str(pattern.pattern), f"{space}{pattern.name}"


# Django's admin is left out: its models' ids are numbers (a NUL is a redirect to its index).
HTTP_ROUTES = sorted(
    route for route in set(routes(get_resolver().url_patterns)) if not route[0].startswith("admin/")
)
SOCKET_ROUTES = sorted(set(routes(websocket_urlpatterns)))
# What a change needs to reach past its body's checks to the segment under test.
BODIES = {
    "api:table-call": lambda values: {"match": values["match"]},
    "api:match-table": lambda values: {"table": "1"},
    "api:decision": lambda values: {"keep": True, "reason": "played as drawn"},
    "api:withdrawal": lambda values: {"reason": "injured"},
    "api:stage-draw": lambda values: {},
}


@pytest.fixture
def segment_values(db) -> dict[str, str]:
    """A championship drawn into groups, at a hall of one table: a real value per segment."""
    championship()
    services.stage_draw(competition_id="euro", stage_id="groups", by="director")
    services.tables_set(competition_id="euro", names=["1"], by="federation")
    match = Match.objects.filter(competition_id="euro").exclude(slot="").order_by("pk").first()
    player = Player.objects.order_by("pk").first()
    return {
        "competition": "euro",
        "match": match.pk,
        "stage": match.stage_id,
        "slot": match.slot,
        "table": "1",
        "player": "1",
        "key": player_key(player.federation_id, player.pk),
        "name": "carambole-open-data-2026-06-01.zip",
        "prefix": token_issue("federation", staff=True).key[:8],
    }


def value_of(route: str, name: str, values: dict[str, str]) -> str:
    """Return the real value a captured segment is given: an id by what it is an id of."""
    if name in ("id", "match_id", "competition_id"):
        before = route[: route.index(f":{name}>")]
        return values["match" if "matches/" in before else "competition"]
    return values[name]


def with_a_nul(route: str, values: dict[str, str]) -> Iterator[str]:
    """Yield the route's path once per captured segment, that one a NUL, the others real."""
    found = list(CAPTURED.finditer(route))
    for spoiled in found:
        path, last = "/", 0
        for each in found:
            value = NUL if each is spoiled else value_of(route, each["name"], values)
            path += route[last : each.start()] + quote(value, safe="")
            last = each.end()
        yield path + route[last:]


def test_a_nul_in_any_segment_of_any_path_is_a_404(segment_values, admin_client):
    admin_client.raise_request_exception = False  # a 500 is an answer here, counted
    answers: dict[str, dict[str, int]] = {}
    for route, name in HTTP_ROUTES:
        body = BODIES.get(name, lambda values: None)(segment_values)
        for path in with_a_nul(route, segment_values):
            answers[path] = {
                method: getattr(admin_client, method)(
                    path, body, content_type="application/json"
                ).status_code
                for method in METHODS
            }

    assert len(answers) > 30  # each id, name and key of the pages, the API and the console
    # A 404 for the methods a path takes; a method it does not take may be a 405 first.
    assert {path: got for path, got in answers.items() if set(got.values()) - {404, 405}} == {}
    assert [path for path, got in answers.items() if 404 not in got.values()] == []


def test_a_nul_in_any_segment_of_a_socket_path_closes_it_with_4404(segment_values):
    router = URLRouter(websocket_urlpatterns)

    async def closed_with(path: str) -> int | None:
        communicator = WebsocketCommunicator(router, path)
        connected, code = await communicator.connect(timeout=10)
        while connected:  # accepted first, so that the close code reaches the client
            sent = await communicator.receive_output(timeout=10)
            connected, code = sent["type"] != "websocket.close", sent.get("code")
        await communicator.disconnect()  # as a client does: the consumer ends with its socket
        return code

    paths = [path for route, _ in SOCKET_ROUTES for path in with_a_nul(route, segment_values)]
    assert len(paths) == len(SOCKET_ROUTES) > 0
    answers = {path: watching(functools.partial(closed_with, path)) for path in paths}
    assert answers == dict.fromkeys(paths, 4404)
