"""Who signed a result off, on the replay page; which results are unsigned, for staff."""

from __future__ import annotations

from django.contrib.auth import get_user_model

from matches import services, store
from matches.domain.fold import state_after
from matches.models import Event, Match
from matches.services.pins import player_pin
from replay.projections import projector
from tests.support.league import league, names, win


def confirm(match_id: str, role: str) -> None:
    match = Match.objects.get(pk=match_id)
    pin = player_pin(match.players[role]) if role != "referee" else None
    services.result_confirm(
        match_id=match_id,
        expected_seq=Event.objects.filter(match=match).count(),
        by="petrenko",
        role=role,
        confirms=state_after(match.header(), store.load_facts(match)).result_head(),
        pin=pin,
    )


def test_the_replay_says_who_has_confirmed_and_who_has_not(db, client):
    first, *_ = league()
    win(first, "A")
    confirm(first, "referee")
    a, b = names(first)

    page = client.get(f"/matches/{first}/replay/").content.decode()

    assert f"Confirmed by the referee; not yet by {a}, {b}." in page


def test_staff_see_the_unsigned_results_and_everyone_the_signed_ones(db, client):
    first, second, *_ = league()
    win(first, "A")
    win(second, "B")
    for role in ("referee", "A", "B"):
        confirm(first, role)
    projector.catch_up()

    client.force_login(get_user_model().objects.create_user("federation", is_staff=True))
    page = client.get("/competitions/cup/").content.decode()

    assert "1 finished match is not signed off by its referee and both players." in page
    assert page.count('class="signed"') == 1 and page.count('class="unsigned"') == 1
    assert (
        "Signed off by the referee and both players."
        in client.get(f"/matches/{first}/replay/").content.decode()
    )
