"""A served carambole and the federation ids that once made its pages answer 500 or 404.

Slow (a server of its own): players entered through the API, one whose id was written
straight into the tables as an archive from before the rule may hold it.
"""

from __future__ import annotations

import html
import json
import re
import urllib.error
import urllib.request
from typing import Any

import pytest
from django.db.models import Q

from matches.models import Match, Player
from replay.api.tokens import token_issue
from replay.projections import projector
from tests.support.league import RULESET, win
from tests.support.servers import server

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("event_db")]
OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # loopback only


def ask(url: str, body: Any = None, key: str = "") -> tuple[int, str]:
    """Send a GET (or a POST of `body` as JSON); return the status and the text answered."""
    request = urllib.request.Request(
        url,
        data=None if body is None else json.dumps(body).encode(),
        headers={
            "Content-Type": "application/json",
            **({"Authorization": f"Token {key}"} if key else {}),
        },
    )
    try:
        with OPENER.open(request, timeout=30) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def player_links(page: str) -> set[str]:
    return {html.unescape(href) for href in re.findall(r'href="(/players/[^"]*)"', page)}


def test_pages_that_gave_500_or_404_for_a_federation_id_answer_and_link_each_player():
    key = token_issue("federation", staff=True).key
    with server(None) as port:
        site = f"http://127.0.0.1:{port}"
        assert ask(f"{site}/api/competitions/", {"id": "cup", "ruleset": RULESET}, key)[0] == 201
        entered = {}
        for name, federation_id in [("Slash", "UA/7"), ("Club", None), ("Tabby", "PLACEHOLDER")]:
            player = {"name": name, **({"federation_id": federation_id} if federation_id else {})}
            status, text = ask(f"{site}/api/competitions/cup/players", player, key)
            assert status == 201, text
            entered[name] = json.loads(text)["player_key"]
        # A federation id written as the key a player without one had: `id-N`.
        lookalike = {"name": "Lookalike", "federation_id": f"id-{entered['Club']}"}
        assert ask(f"{site}/api/competitions/cup/players", lookalike, key)[0] == 201
        refused = ask(
            f"{site}/api/competitions/cup/players", {"name": "T", "federation_id": "UA\t7"}, key
        )
        assert refused[0] == 422 and json.loads(refused[1])["field"] == "federation_id"
        status, text = ask(f"{site}/api/competitions/cup/round-robin", {}, key)
        assert status == 201, text
        # Tabby's id as an archive kept from before the rule holds it: a tab in it.
        Player.objects.filter(name="Tabby").update(federation_id="UA\t7")
        for match in Match.objects.filter(Q(player_a__name="Tabby") | Q(player_b__name="Tabby")):
            header = {side: dict(entry) for side, entry in match.players.items()}
            for entry in header.values():
                if entry["name"] == "Tabby":
                    entry["federation_id"] = "UA\t7"
            Match.objects.filter(pk=match.pk).update(players=header)
        between = Match.objects.get(
            player_a__name__in=["Slash", "Tabby"], player_b__name__in=["Slash", "Tabby"]
        )
        win(between.pk, "A")
        projector.catch_up(scheduled=True)

        pages = ["/archive/", "/competitions/cup/"] + [
            f"/matches/{match.pk}/replay/" for match in Match.objects.all()
        ]
        links: set[str] = set()
        for path in pages:
            status, text = ask(f"{site}{path}")
            assert status == 200, (path, status)
            links |= player_links(text)
        names = set()
        for link in sorted(links):
            status, text = ask(f"{site}{link}")
            assert status == 200, (link, status)
            names.add(html.unescape(re.search(r"<h1>([^<]*)", text)[1]).strip())
            for opponent in player_links(text):
                assert ask(f"{site}{opponent}")[0] == 200, (link, opponent)
        assert names == {"Slash", "Club", "Tabby", "Lookalike"}
        assert len(links) == 4  # one page each
