"""A result signed off at the table: the referee, then each player with their PIN."""

from __future__ import annotations

import io
import re

import pytest
from django.core.management import CommandError, call_command

from matches import services, store
from matches.domain.errors import Refused
from matches.domain.fold import state_after
from matches.models import Event, Match, PinShown, Player
from matches.services.pins import WrongPin, pin_issue, pin_matches, player_pin
from tests.support.builders import BY, QUIET, open_game, play
from tests.support.league import flip, league, win


def confirm(match_id: str, role: str, pin: str | None = None, confirms: int | None = None):
    seq = Event.objects.filter(match_id=match_id).count()
    return services.result_confirm(
        match_id=match_id,
        expected_seq=seq,
        by=BY,
        role=role,
        confirms=confirms if confirms is not None else head(match_id),
        pin=pin,
    )


def head(match_id: str) -> int:
    match = Match.objects.get(pk=match_id)
    return state_after(match.header(), store.load_facts(match)).result_head()


def pin_of(match_id: str, role: str) -> str:
    return player_pin(Match.objects.get(pk=match_id).players[role])


@pytest.fixture
def finished(db) -> str:
    """The id of the league's first match, which B won."""
    first, *_ = league()
    win(first, "B")
    return first


def test_the_referee_and_both_players_sign_a_finished_result_off(finished):
    confirm(finished, "referee")
    confirm(finished, "A", pin_of(finished, "A"))
    confirm(finished, "B", pin_of(finished, "B"))

    match = Match.objects.get(pk=finished)
    state = state_after(match.header(), store.load_facts(match))
    assert state.confirmed_by() == ["referee", "A", "B"]
    assert all("pin" not in event.data for event in Event.objects.filter(match=match))


def test_a_match_not_finished_has_no_result_to_confirm(db):
    first, *_ = league()
    seq = open_game(first)
    play(first, seq, QUIET)

    with pytest.raises(Refused) as refused:
        confirm(first, "referee", confirms=4)

    assert (refused.value.field, refused.value.message) == (
        "type",
        "a result is confirmed once the match is finished",
    )


def test_a_wrong_pin_is_refused_and_nothing_is_stored(finished):
    before = Event.objects.filter(match_id=finished).count()

    with pytest.raises(WrongPin) as refused:
        confirm(finished, "A", "000000" if pin_of(finished, "A") != "000000" else "111111")

    assert refused.value.status == 403 and refused.value.field == "pin"
    assert Event.objects.filter(match_id=finished).count() == before


def test_a_player_cannot_confirm_as_a_plain_event_without_the_pin(finished):
    seq = Event.objects.filter(match_id=finished).count()

    with pytest.raises(Refused) as refused:
        services.event_record(
            match_id=finished,
            expected_seq=seq,
            by=BY,
            event={"type": "result_confirmed", "role": "A", "confirms": head(finished)},
        )

    assert refused.value.field == "role"


def test_each_role_confirms_a_result_once(finished):
    confirm(finished, "referee")

    with pytest.raises(Refused) as refused:
        confirm(finished, "referee")

    assert refused.value.message == "referee has confirmed this result already"


def test_an_amendment_after_the_confirmations_asks_for_them_again(finished):
    confirm(finished, "referee")
    confirm(finished, "A", pin_of(finished, "A"))
    old_head = head(finished)
    seq = Event.objects.filter(match_id=finished).count()

    flip(finished, seq)

    match = Match.objects.get(pk=finished)
    state = state_after(match.header(), store.load_facts(match))
    assert state.confirmed_by() == []
    with pytest.raises(Refused) as stale:
        confirm(finished, "referee", confirms=old_head)
    assert stale.value.field == "confirms"
    confirm(finished, "referee")
    match = Match.objects.get(pk=finished)
    assert state_after(match.header(), store.load_facts(match)).confirmed_by() == ["referee"]


def test_a_pin_is_six_digits_the_same_each_time_and_the_player_s_own(finished):
    a, b = pin_of(finished, "A"), pin_of(finished, "B")

    assert len(a) == 6 and a.isdigit()
    assert a == pin_of(finished, "A") and a != b


def test_a_confirmation_moves_no_score(finished):
    match = Match.objects.get(pk=finished)
    before = state_after(match.header(), store.load_facts(match))

    confirm(finished, "referee")

    after = state_after(match.header(), store.load_facts(match))
    assert (after.winner, after.games_won()) == (before.winner, before.games_won())


def test_the_player_pin_command_prints_a_new_pin_the_console_checks(finished):
    out = io.StringIO()
    players = Match.objects.get(pk=finished).players
    before = pin_of(finished, "A")

    call_command("player_pin", players["A"]["federation_id"], stdout=out)

    issued = re.search(r"new PIN (\d{6})", out.getvalue()).group(1)
    if issued != before:  # one in a million draws the PIN it replaces
        with pytest.raises(WrongPin):
            confirm(finished, "A", before)
    confirm(finished, "A", issued)
    with pytest.raises(CommandError):
        call_command("player_pin", "XX-000")


def test_a_pin_issued_again_refuses_the_one_before_and_is_kept_only_as_a_digest(finished):
    player = Player.objects.get(
        federation_id=Match.objects.get(pk=finished).players["A"]["federation_id"]
    )
    first = pin_issue(player=player, by="director")
    second = pin_issue(player=player, by="secretary")
    while second == first:  # one in a million: draw again
        second = pin_issue(player=player, by="secretary")

    with pytest.raises(WrongPin):
        confirm(finished, "A", first)
    confirm(finished, "A", second)
    kept = list(PinShown.objects.filter(player=player).values_list("shown_to", "digest"))
    assert [who for who, _ in kept] == ["director", "secretary"]
    assert all(len(digest) == 64 and second not in digest for _, digest in kept)


def test_a_player_known_by_name_alone_is_issued_a_pin_of_their_own(db):
    anna = Player.objects.create(name="Anna Shevchenko")
    namesake = Player.objects.create(name="Anna Shevchenko", federation_id="UA-900")
    record = {"name": "Anna Shevchenko"}
    old = player_pin(record)

    pin = pin_issue(player=anna, by="director")

    assert pin_matches(record, pin)
    assert pin == old or not pin_matches(record, old)
    assert not pin_matches(namesake.as_record(), pin) or pin == player_pin(namesake.as_record())


def test_a_pin_of_any_text_is_a_wrong_pin_never_a_crash(finished):
    for pin in ("ключ", "\x00", "12345\udc80", "9" * 32):
        with pytest.raises(WrongPin):
            confirm(finished, "A", pin)
