"""A match read for a page (its competition in hand) or opened for an append (its head in
hand), in one statement, as the ORM reads them field by field."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import models

from matches import store
from matches.domain.chain import header_hash
from matches.models import Match
from matches.selectors import match_get
from tests.support.builders import new_match, play, seven_events_and_another

pytestmark = pytest.mark.django_db


def fields_of(item: models.Model) -> dict[str, Any]:
    return {field.attname: getattr(item, field.attname) for field in item._meta.concrete_fields}


def test_a_match_is_got_with_its_competition_in_hand(django_assert_num_queries) -> None:
    seven_events_and_another()

    with django_assert_num_queries(1):
        match = match_get("cup-a-1")
        assert match.competition.name == "Cup"
    orm = Match.objects.select_related("competition").get(pk="cup-a-1")
    assert fields_of(match) == fields_of(orm)
    assert fields_of(match.competition) == fields_of(orm.competition)


def test_an_append_opens_a_match_and_its_head_in_one_statement(
    django_assert_num_queries,
) -> None:
    match = seven_events_and_another()
    last = match.events.order_by("-seq").first()

    with django_assert_num_queries(1):
        opened, seq, previous = store.opened("cup-a-1")

    assert (seq, previous) == (last.seq, last.hash) == store.head(match)
    assert fields_of(opened) == fields_of(Match.objects.get(pk="cup-a-1"))
    assert opened.competition.name == "Cup"  # read when asked for
    assert store.opened("no-such-match") is None


def test_a_matchs_head_and_last_event_are_read_as_the_orm_reads_them() -> None:
    match = seven_events_and_another()
    other = Match.objects.get(pk="cup-a-2")
    play(other.pk, play(other.pk, 4))

    last = match.events.order_by("-seq").first()
    assert store.head(match) == (last.seq, last.hash)
    recorded = store.last_recorded(["cup-a-1", "cup-a-2"])
    assert recorded == {
        match_id: Match.objects.get(pk=match_id).events.order_by("-recorded_at").first().recorded_at
        for match_id in ("cup-a-1", "cup-a-2")
    }


def test_a_match_with_no_event_heads_at_its_headers_hash() -> None:
    fresh = new_match("cup-a-9")

    assert store.head(fresh) == (0, header_hash(fresh.header()))
    assert store.opened("cup-a-9")[1:] == (0, header_hash(fresh.header()))
    assert store.last_recorded(["cup-a-9"]) == {}
