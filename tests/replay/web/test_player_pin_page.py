"""The page that issues a player a new PIN: staff alone, by POST, never cached, the PIN
shown once and the previous one refused, each showing kept with who saw it and when."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from matches.models import PinShown, Player
from matches.services.pins import pin_matches, player_pin
from tests.support.league import league

PAGE = "/players/UA-101/pin/"  # Olena Kovalenko's


@pytest.fixture
def olena(db) -> Player:
    league()
    return Player.objects.get(federation_id="UA-101")


def shown_pin(page: str) -> str:
    return re.search(r"data-pin[^>]*>(\d{6})<", page).group(1)


def logged_in(client, staff: bool, username: str = "director") -> None:
    client.force_login(get_user_model().objects.create_user(username, is_staff=staff))


def test_staff_are_shown_a_new_pin_on_a_page_no_cache_keeps_and_the_old_one_is_refused(
    olena, client
):
    logged_in(client, staff=True)
    old = player_pin(olena.as_record())

    answer = client.post(PAGE)

    assert answer.status_code == 200
    pin = shown_pin(answer.content.decode())
    assert pin_matches(olena.as_record(), pin)
    assert not pin_matches(olena.as_record(), old) or pin == old
    cache = answer["Cache-Control"]
    assert "no-store" in cache and "no-cache" in cache and "private" in cache


def test_each_showing_is_kept_with_who_saw_it_and_when(olena, client):
    logged_in(client, staff=True)

    client.post(PAGE)
    answer = client.post(PAGE)

    shown = list(PinShown.objects.filter(player=olena))
    assert [row.shown_to for row in shown] == ["director", "director"]
    assert shown[0].shown_at <= shown[1].shown_at
    assert answer.content.decode().count("data-showing") == 2


def test_a_login_that_is_not_staff_is_refused_and_nothing_is_kept(olena, client):
    logged_in(client, staff=False)

    answer = client.post(PAGE)

    assert answer.status_code == 403
    assert "data-pin" not in answer.content.decode()
    assert not PinShown.objects.exists()


def test_a_visitor_is_sent_to_log_in_and_a_get_shows_nothing(olena, client):
    answer = client.post(PAGE)

    assert answer.status_code == 302 and answer["Location"].startswith("/login/")
    assert client.get(PAGE).status_code == 405
    assert not PinShown.objects.exists()


def test_the_player_page_offers_the_pin_to_staff_only(olena, client):
    assert "Issue a new PIN" not in client.get("/players/UA-101/").content.decode()
    logged_in(client, staff=True)
    assert "Issue a new PIN" in client.get("/players/UA-101/").content.decode()


def test_the_command_issues_a_new_pin_and_keeps_its_showing_too(olena, capsys, client):
    logged_in(client, staff=True)
    from_page = shown_pin(client.post(PAGE).content.decode())

    call_command("player_pin", "UA-101")

    pin = re.search(r"new PIN (\d{6})", capsys.readouterr().out).group(1)
    assert pin_matches(olena.as_record(), pin)
    assert not pin_matches(olena.as_record(), from_page) or pin == from_page
    assert PinShown.objects.filter(player=olena).last().shown_to.endswith("command line)")
