"""Creating competitions and matches: ids made when none is given, a match opened whole."""

import re

import pytest

from matches import services
from matches.domain.errors import Refused
from matches.models import Assignment, Match
from matches.selectors import assigned_referee
from matches.services.ids import match_id_free
from tests.support.builders import PLAYERS, new_match


def test_a_competition_created_without_an_id_gets_its_names_slug_and_a_random_tail(db):
    first = services.competition_create(name="Зимовий Cup 2026!")
    second = services.competition_create(name="Зимовий Cup 2026!")

    assert re.fullmatch(r"cup-2026-[0-9a-f]{6}", first.id)
    assert first.id != second.id
    assert first.name == "Зимовий Cup 2026!"


def test_a_competition_with_neither_id_nor_name_is_called_competition(db):
    created = services.competition_create(name=None)

    assert re.fullmatch(r"competition-[0-9a-f]{6}", created.id)
    assert created.name == created.id


def test_an_empty_competition_id_is_refused_not_replaced(db):
    with pytest.raises(Refused) as refused:
        services.competition_create(id="", name="Cup")

    assert refused.value.field == "id"


def test_a_match_opened_with_a_login_may_be_recorded_by_that_login(db):
    new_match()
    services.login_ensure("petrenko")

    match = services.match_open(
        competition="cup", players=PLAYERS, referee="petrenko", by="federation"
    )

    assert match.id.startswith("cup-") and match.id != "cup-a-1"
    assert assigned_referee(match).get_username() == "petrenko"
    assert Assignment.objects.get(match=match).assigned_by == "federation"


def test_a_match_opened_with_an_unknown_login_is_refused_naming_referee_and_not_stored(db):
    new_match()

    with pytest.raises(Refused) as refused:
        services.match_open(
            id="cup-b-1", competition="cup", players=PLAYERS, referee="nobody", by="federation"
        )

    assert (refused.value.field, refused.value.message) == ("referee", "no login 'nobody'")
    assert not Match.objects.filter(pk="cup-b-1").exists()


def test_a_wanted_match_id_that_is_taken_gets_the_next_free_number(db):
    new_match("cup-r1-1-2")
    new_match("cup-r1-1-2-2")

    assert match_id_free("cup-r1-1-2") == "cup-r1-1-2-3"
    assert match_id_free("cup-r1-2-1") == "cup-r1-2-1"
    assert match_id_free("x" * 120) == "x" * 90
