"""A player's page key: one per player whatever their federation id, and back; and every
page that shows a player answers and links to their page, for any id the store accepts
or an archive kept from before the rule holds."""

from __future__ import annotations

import csv
import html
import io
import json
import re
import zipfile
from urllib.parse import urlencode

import pytest
from django.db import connection, transaction
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from matches import services
from matches.domain.errors import Refused
from matches.domain.notation import NOT_IN_AN_ID, expect_federation_id
from matches.models import Match, Player
from replay.projections import projector
from replay.queries.player_keys import NUMBERED, federation_id_of, player_for_key, player_key
from tests.support.hostile import AWKWARD_IDS, IDS_FROM_BEFORE
from tests.support.league import RULESET, win

# Any text a column can hold: no lone surrogate, and no NUL on PostgreSQL.
STORABLE = st.text(
    st.characters(
        codec="utf-8", exclude_characters="" if connection.vendor == "sqlite" else "\x00"
    ),
    min_size=1,
    max_size=100,
)
PAGES_PROPERTY = settings(
    # Each example plays a match and asks for some thirty pages: a fiftieth of the
    # profile's examples (tests/conftest.py), 10 in CI, with the two below each time.
    max_examples=max(3, settings.default.max_examples // 50),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def accepted(text: str) -> bool:
    try:
        expect_federation_id(text, "federation_id")
    except Refused:
        return False
    return True


ACCEPTED = st.sampled_from(AWKWARD_IDS) | STORABLE.filter(accepted)
OLD = st.sampled_from(IDS_FROM_BEFORE) | STORABLE


# -- The key, written and read back -----------------------------------------------------


def plain(key: str) -> bool:
    """Say whether a key is what a path segment, a form and a search box keep as it is."""
    return not re.search(f"[/{NOT_IN_AN_ID}]", key) and key == key.strip()


@pytest.mark.parametrize("federation_id", AWKWARD_IDS + IDS_FROM_BEFORE + ["\x00", "UA-\x007"])
def test_a_federation_ids_key_reads_back_as_that_id_and_is_one_plain_path_segment(
    federation_id,
):
    key = player_key(federation_id, 5)

    assert federation_id_of(key) == federation_id
    assert plain(key) and key not in (".", "..") and NUMBERED.match(key) is None


@given(
    federation_id=STORABLE | st.sampled_from(AWKWARD_IDS + IDS_FROM_BEFORE),
    pk=st.integers(1, 10**18),
)
def test_no_two_players_keys_meet_whatever_their_ids(federation_id, pk):
    key = player_key(federation_id, pk)

    assert federation_id_of(key) == federation_id
    assert key != player_key(None, pk) and plain(key)
    assert federation_id_of(player_key(None, pk)) is None


def test_a_federation_ids_page_keeps_its_address_and_a_player_without_one_gets_a_tilde():
    assert reverse("replay:player", args=[player_key("UA-101", 3)]) == "/players/UA-101/"
    assert reverse("replay:player", args=[player_key(None, 3)]) == "/players/~3/"
    assert reverse("replay:player", args=[player_key("UA/7", 3)]) == "/players/UA~u002f7/"


@pytest.mark.parametrize(
    "key", ["~", "~x", "~0", "~05", "~u0041", "UA~u002F7", "UA/7", "~ud800", "~u002e", "a\tb"]
)
def test_a_key_not_as_the_pages_write_it_names_no_one(db, key):
    Player.objects.create(name="Ann", federation_id="A")
    Player.objects.create(name="Slash", federation_id="UA/7")

    assert player_for_key(key) is None


def test_a_federation_id_like_the_key_of_a_player_without_one_hides_no_page(db, client):
    club = Player.objects.create(name="Club Player")
    lookalikes = [
        Player.objects.create(name=f"Lookalike {n}", federation_id=federation_id)
        for n, federation_id in enumerate([f"id-{club.pk}", f"~{club.pk}", "~", f"~u007e{club.pk}"])
    ]

    for player in [club, *lookalikes]:
        key = player_key(player.federation_id, player.pk)
        assert player_for_key(key) == player
        page = client.get(reverse("replay:player", args=[key]))
        assert page.status_code == 200 and page.context["player"] == player
    assert player_for_key(f"id-{club.pk}") == lookalikes[0]  # a federation id comes first


def test_an_old_id_n_link_still_leads_to_the_player_without_an_id(db, client):
    club = Player.objects.create(name="Club Player")
    Player.objects.create(name="Numbered", federation_id="UA-101")
    numbered = Player.objects.get(federation_id="UA-101")

    assert client.get(f"/players/id-{club.pk}/").context["player"] == club
    assert client.get(f"/players/id-{numbered.pk}/").status_code == 404  # keyed UA-101
    assert client.get(f"/players/~{numbered.pk}/").status_code == 404


# -- Every page that shows a player -----------------------------------------------------


def played(accepted_id: str, stored_id: str | None) -> tuple[Player, Player, str]:
    """Play Ann (entered with `accepted_id`) against Bo (`stored_id` written straight in)."""
    services.competition_create(id="ids", name="Ids", ruleset=RULESET)
    services.player_enter(
        competition_id="ids", player={"name": "Ann", "federation_id": accepted_id}, by="staff"
    )
    services.player_enter(competition_id="ids", player={"name": "Bo"}, by="staff")
    [match] = services.round_robin_create(competition_id="ids", by="staff")
    if stored_id:
        # As an archive from before the rule has it: the player's row and the match's header.
        Player.objects.filter(name="Bo").update(federation_id=stored_id)
        header = {side: dict(entry) for side, entry in match.players.items()}
        for entry in header.values():
            if entry["name"] == "Bo":
                entry["federation_id"] = stored_id
        Match.objects.filter(pk=match.pk).update(players=header)
    win(match.pk, "A")
    projector.catch_up()
    return Player.objects.get(name="Ann"), Player.objects.get(name="Bo"), match.pk


def page_of(player: Player) -> str:
    return reverse("replay:player", args=[player_key(player.federation_id, player.pk)])


def player_links(page: str) -> set[str]:
    """The links of a page to a player's own page (not to the players directory)."""
    return {html.unescape(href) for href in re.findall(r'href="(/players/[^"]+)"', page)}


def assert_shows_both(
    client: Client, path: str, ann: Player, bo: Player, linked: tuple[Player, ...] = ()
) -> None:
    """Ask for a page: it answers 200, links the players (both unless told), each to their page."""
    response = client.get(path)
    assert response.status_code == 200, path
    links = player_links(response.content.decode())
    assert {page_of(player) for player in linked or (ann, bo)} <= links, (path, links)
    for link in links:
        followed = client.get(link)
        assert followed.status_code == 200, (path, link)
        assert followed.context["player"] in (ann, bo), (path, link)


@PAGES_PROPERTY
@given(accepted_id=ACCEPTED, stored_id=st.none() | OLD)
@example(accepted_id="UA/7", stored_id="UA\t7")
@example(accepted_id="id-2", stored_id=None)
def test_every_page_that_shows_a_player_answers_and_links_to_their_page(db, accepted_id, stored_id):
    if stored_id == accepted_id:
        stored_id = None
    client = Client()
    with transaction.atomic():
        ann, bo, match = played(accepted_id, stored_id)
        assert ann.federation_id == accepted_id and bo.federation_id == stored_id

        for path in ["/archive/", "/competitions/ids/", f"/matches/{match}/replay/"]:
            assert_shows_both(client, path, ann, bo)
        for player, other in ((ann, bo), (bo, ann)):
            assert_shows_both(client, page_of(player), ann, bo, linked=(other,))
            key = player_key(player.federation_id, player.pk)
            other_key = player_key(other.federation_id, other.pk)
            versus = client.get(page_of(player), {"versus": other_key})
            assert versus.context["versus"] == other and len(versus.context["lines"]) == 1
            assert_shows_both(
                client, f"{page_of(player)}?{urlencode({'versus': other_key})}", ann, bo
            )
            searched = client.get("/archive/", {"player": key})
            assert [line["match"] for line in searched.context["lines"]] == [match]

        assert_exports_name(client, match, ann, bo)
        transaction.set_rollback(True)


def assert_exports_name(client: Client, match: str, ann: Player, bo: Player) -> None:
    """The CSVs, the records and the API answer, each with both players as stored."""
    for path, count in [("/archive/export.csv", 1), ("/competitions/ids/standings.csv", 2)]:
        download = client.get(path)
        assert download.status_code == 200, path
        assert len(list(csv.DictReader(io.StringIO(download.content.decode("utf-8-sig"))))) == count
    record = client.get(f"/matches/{match}/record.json").json()
    assert {entry.get("federation_id") for entry in record["match"]["players"].values()} == {
        ann.federation_id,
        bo.federation_id,
    }
    bundle = zipfile.ZipFile(io.BytesIO(client.get("/competitions/ids/records.zip").content))
    document = json.loads(bundle.read("competition.json"))
    assert [entry["name"] for entry in document["players"]] == ["Ann", "Bo"]
    answer = client.get("/api/competitions/ids/standings").json()
    assert {row["player_id"] for row in answer["rows"]} == {ann.federation_id, bo.federation_id}
    assert client.get(f"/api/matches/{match}").status_code == 200


def test_the_archive_finds_a_player_by_their_federation_id_as_typed_or_by_their_key(db, client):
    ann, bo, match = played("UA/7", None)

    for typed in ["UA/7", " UA/7 ", "UA~u002f7", f"~{bo.pk}"]:
        searched = client.get("/archive/", {"player": typed})
        assert [line["match"] for line in searched.context["lines"]] == [match], typed
    assert client.get("/archive/", {"player": "UA/8"}).context["lines"] == []
