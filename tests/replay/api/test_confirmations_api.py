"""POST /api/matches/ID/confirmations: the referee's and the players' sign-off, PINs throttled."""

from __future__ import annotations

from django.test import override_settings

from matches.models import Event, Match
from matches.services.pins import player_pin
from tests.support.league import league, win
from tests.support.logins import api


def body(match_id: str, role: str, **extra):
    match = Match.objects.get(pk=match_id)
    seq = Event.objects.filter(match=match).count()
    state = api().get(f"/api/matches/{match_id}/state").json()
    return {"expected_seq": seq, "role": role, "confirms": state["confirmed"]["head"], **extra}


def test_staff_record_the_referee_s_and_the_players_confirmations(staff):
    first, *_ = league()
    win(first, "A")
    client = api(staff.key)
    url = f"/api/matches/{first}/confirmations"
    players = Match.objects.get(pk=first).players

    for role in ("referee", "A", "B"):
        pin = {"pin": player_pin(players[role])} if role != "referee" else {}
        answer = client.post(url, body(first, role, **pin), format="json")
        assert answer.status_code == 201, answer.json()

    confirmed = api().get(f"/api/matches/{first}/state").json()["confirmed"]
    assert confirmed["by"] == ["referee", "A", "B"] and confirmed["complete"]


def test_a_wrong_pin_is_a_403_and_too_many_are_a_429(staff):
    first, *_ = league()
    win(first, "A")
    client = api(staff.key)
    url = f"/api/matches/{first}/confirmations"
    right = player_pin(Match.objects.get(pk=first).players["A"])
    wrong = "000000" if right != "000000" else "111111"

    with override_settings(PIN_FAILURES_PER_PLAYER=2):
        answers = [client.post(url, body(first, "A", pin=wrong), format="json") for _ in range(3)]
        late = client.post(url, body(first, "A", pin=right), format="json")

    assert [a.status_code for a in answers] == [403, 403, 429]
    assert answers[0].json()["field"] == "pin"
    assert late.status_code == 429 and "Retry-After" in late.headers


def test_a_stranger_may_not_confirm_and_a_pin_is_no_referee_s(staff, stranger):
    first, *_ = league()
    win(first, "A")
    url = f"/api/matches/{first}/confirmations"

    by_stranger = api(stranger.key).post(url, body(first, "referee"), format="json")
    referee_pin = api(staff.key).post(url, body(first, "referee", pin="123456"), format="json")

    assert by_stranger.status_code == 403
    assert referee_pin.status_code == 422 and referee_pin.json()["field"] == "pin"
