"""The page that shows staff a player's PIN: staff alone, by POST, never cached, each
showing kept with who saw it and when."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from matches.models import PinShown, Player
from matches.services.pins import player_pin
from tests.support.league import league

PAGE = "/players/UA-101/pin/"  # Olena Kovalenko's


@pytest.fixture
def olena(db) -> Player:
    league()
    return Player.objects.get(federation_id="UA-101")


def logged_in(client, staff: bool, username: str = "director") -> None:
    client.force_login(get_user_model().objects.create_user(username, is_staff=staff))


def test_staff_are_shown_the_pin_on_a_page_no_cache_keeps(olena, client):
    logged_in(client, staff=True)

    answer = client.post(PAGE)

    assert answer.status_code == 200
    assert player_pin(olena.as_record()) in answer.content.decode()
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
    assert player_pin(olena.as_record()) not in answer.content.decode()
    assert not PinShown.objects.exists()


def test_a_visitor_is_sent_to_log_in_and_a_get_shows_nothing(olena, client):
    answer = client.post(PAGE)

    assert answer.status_code == 302 and answer["Location"].startswith("/login/")
    assert client.get(PAGE).status_code == 405
    assert not PinShown.objects.exists()


def test_the_player_page_offers_the_pin_to_staff_only(olena, client):
    assert "Show the PIN" not in client.get("/players/UA-101/").content.decode()
    logged_in(client, staff=True)
    assert "Show the PIN" in client.get("/players/UA-101/").content.decode()


def test_the_command_keeps_its_showing_too(olena, capsys):
    call_command("player_pin", "UA-101")

    assert player_pin(olena.as_record()) in capsys.readouterr().out
    assert PinShown.objects.get(player=olena).shown_to.endswith("command line)")
