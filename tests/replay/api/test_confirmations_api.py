"""POST /api/matches/ID/confirmations: the referee's and the players' sign-off, PINs throttled."""

from __future__ import annotations

from django.db import connection
from django.test import override_settings

from matches import services
from matches.models import Event, Match
from matches.services.pins import player_pin
from tests.support.counting import at_once
from tests.support.league import league, win
from tests.support.logins import api, login


def body(match_id: str, role: str, **extra):
    match = Match.objects.get(pk=match_id)
    seq = Event.objects.filter(match=match).count()
    state = api().get(f"/api/matches/{match_id}/state").json()
    return {"expected_seq": seq, "role": role, "confirms": state["confirmed"]["head"], **extra}


def wrong_for(match_id: str, role: str) -> str:
    right = player_pin(Match.objects.get(pk=match_id).players[role])
    return "000000" if right != "000000" else "111111"


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


def test_a_pin_of_spaces_is_a_wrong_pin_as_sent_not_a_blank_field(staff):
    first, *_ = league()
    win(first, "A")
    client = api(staff.key)
    url = f"/api/matches/{first}/confirmations"

    answers = [
        client.post(url, body(first, "A", pin=pin), format="json") for pin in ("\u00a0", " 1 ")
    ]

    assert [(a.status_code, a.json()["field"]) for a in answers] == [(403, "pin"), (403, "pin")]


def test_a_stranger_may_not_confirm_and_a_pin_is_no_referee_s(staff, stranger):
    first, *_ = league()
    win(first, "A")
    url = f"/api/matches/{first}/confirmations"

    by_stranger = api(stranger.key).post(url, body(first, "referee"), format="json")
    referee_pin = api(staff.key).post(url, body(first, "referee", pin="123456"), format="json")

    assert by_stranger.status_code == 403
    assert referee_pin.status_code == 422 and referee_pin.json()["field"] == "pin"


def test_wrong_pins_sent_at_once_are_counted_exactly(event_db, counting_store):
    """Thirty wrong PINs for one player sent together: the limit's five are checked (403),
    the other twenty-five refused unchecked (429), in memory as in Redis."""
    first, *_ = league()
    win(first, "A")
    key = login("federation", staff=True).key
    url = f"/api/matches/{first}/confirmations"
    sent = body(first, "A", pin=wrong_for(first, "A"))

    def one_wrong_pin() -> int:
        try:
            return api(key).post(url, sent, format="json").status_code
        finally:
            connection.close()

    with override_settings(PIN_FAILURES_PER_PLAYER=5, PIN_FAILURES_PER_ADDRESS=100):
        statuses = at_once(30, one_wrong_pin)

    assert (statuses.count(403), statuses.count(429)) == (5, 25)


def test_while_redis_is_stopped_a_pin_is_refused_with_503_and_a_referee_still_confirms(
    staff, counting_redis_stops
):
    first, *_ = league()
    win(first, "A")
    client = api(staff.key)
    url = f"/api/matches/{first}/confirmations"
    right = player_pin(Match.objects.get(pk=first).players["A"])
    counting_redis_stops()

    refused = client.post(url, body(first, "A", pin=right), format="json")
    by_referee = client.post(url, body(first, "referee"), format="json")

    assert refused.status_code == 503 and int(refused["Retry-After"]) > 0
    assert by_referee.status_code == 201
    confirmed = api().get(f"/api/matches/{first}/state").json()["confirmed"]
    assert confirmed["by"] == ["referee"]


def a_player_in_two_finished_matches() -> tuple[dict, list[tuple[str, str]]]:
    """Return a player of the league and (match, role) of two matches they won."""
    first, *others = league()
    player = Match.objects.get(pk=first).players["A"]
    second = next(m for m in others if player in Match.objects.get(pk=m).players.values())
    role = next(r for r, p in Match.objects.get(pk=second).players.items() if p == player)
    win(first, "A")
    win(second, role)
    return player, [(first, "A"), (second, role)]


def confirm(client, match_id: str, role: str, pin: str):
    url = f"/api/matches/{match_id}/confirmations"
    return client.post(url, body(match_id, role, pin=pin), format="json")


def test_a_stranger_s_wrong_pins_never_refuse_the_right_pin_on_the_player_s_own_tablet(staff):
    """The tablet on which a player confirmed before keeps a cookie saying so, and is held
    to the player's limit on its own: five wrong PINs from elsewhere lock out strangers."""
    player, [(first, role_first), (second, role)] = a_player_in_two_finished_matches()
    tablet, stranger = api(staff.key), api(staff.key)
    right = player_pin(player)
    own = confirm(tablet, first, role_first, right)
    assert own.status_code == 201 and own.cookies["carambole_pins"]["httponly"]

    with override_settings(PIN_FAILURES_PER_PLAYER=5):
        guesses = [confirm(stranger, second, role, wrong_for(second, role)) for _ in range(6)]
        by_stranger = confirm(stranger, second, role, right)
        stranger.cookies["carambole_pins"] = tablet.cookies["carambole_pins"].value[:-2] + "xx"
        forged = confirm(stranger, second, role, right)
        on_own_tablet = confirm(tablet, second, role, right)

    assert [g.status_code for g in guesses] == [403] * 5 + [429]
    assert (by_stranger.status_code, forged.status_code) == (429, 429)
    assert on_own_tablet.status_code == 201


def test_a_stranger_s_wrong_pins_never_refuse_the_right_pin_on_the_match_s_own_console(
    staff, referee
):
    """The console of the match being confirmed (its assigned referee's login) is the
    player's own tablet from its first confirmation on, with no cookie from before."""
    player, [_, (second, role)] = a_player_in_two_finished_matches()
    services.referee_assign(match_id=second, username=referee.username, by="federation")
    console, stranger = api(referee.key), api(staff.key)

    with override_settings(PIN_FAILURES_PER_PLAYER=5):
        guesses = [confirm(stranger, second, role, wrong_for(second, role)) for _ in range(6)]
        by_stranger = confirm(stranger, second, role, player_pin(player))
        on_the_console = confirm(console, second, role, player_pin(player))

    assert [g.status_code for g in guesses] == [403] * 5 + [429]
    assert by_stranger.status_code == 429
    assert on_the_console.status_code == 201


def test_wrong_pins_on_the_player_s_own_tablet_are_counted_there_all_the_same(staff):
    player, [(first, role_first), (second, role)] = a_player_in_two_finished_matches()
    tablet = api(staff.key)
    assert confirm(tablet, first, role_first, player_pin(player)).status_code == 201

    with override_settings(PIN_FAILURES_PER_PLAYER=2):
        answers = [confirm(tablet, second, role, wrong_for(second, role)) for _ in range(3)]
        elsewhere = confirm(api(staff.key), second, role, player_pin(player))

    assert [a.status_code for a in answers] == [403, 403, 429]
    assert elsewhere.status_code == 201  # the tablet's failures were its own
