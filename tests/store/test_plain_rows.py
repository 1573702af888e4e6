"""The hot reads by key (`matches.plain_rows`) give what the ORM gives, field by field."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import models

from matches import plain_rows, store
from matches.chain import header_hash
from matches.models import Competition, Match
from matches.selectors import match_get
from replay.models import MatchSummary
from replay.projections import projector
from tests.support.cast import new_match, play, seven_events_and_another

pytestmark = pytest.mark.django_db


def fields_of(item: models.Model) -> dict[str, Any]:
    return {field.attname: getattr(item, field.attname) for field in item._meta.concrete_fields}


@pytest.mark.parametrize("model", [Competition, Match, MatchSummary])
def test_rows_read_plainly_equal_the_orms_field_by_field(model: type[models.Model]) -> None:
    seven_events_and_another()
    projector.catch_up()
    keys = list(model.objects.values_list("pk", flat=True))
    assert keys

    plain = plain_rows.by_keys(model, keys)

    orm = model.objects.in_bulk(keys)
    assert {key: fields_of(item) for key, item in plain.items()} == {
        key: fields_of(item) for key, item in orm.items()
    }
    # JSON comes back decoded, times aware and dates as dates, as the ORM gives them.
    assert {type(value) for item in plain.values() for value in fields_of(item).values()} == {
        type(value) for item in orm.values() for value in fields_of(item).values()
    }


def test_a_key_that_is_not_stored_is_left_out() -> None:
    seven_events_and_another()

    assert list(plain_rows.by_keys(Match, ["cup-a-1", "no-such-match"])) == ["cup-a-1"]
    assert plain_rows.by_keys(Match, []) == {}


def test_a_match_is_got_with_its_competition_in_hand(django_assert_num_queries) -> None:
    seven_events_and_another()

    with django_assert_num_queries(1):
        match = match_get("cup-a-1")
        assert match.competition.name == "Cup"
    orm = Match.objects.select_related("competition").get(pk="cup-a-1")
    assert fields_of(match) == fields_of(orm)
    assert fields_of(match.competition) == fields_of(orm.competition)


def test_an_append_opens_a_match_its_competition_and_its_head_in_one_statement(
    django_assert_num_queries,
) -> None:
    match = seven_events_and_another()
    last = match.events.order_by("-seq").first()

    with django_assert_num_queries(1):
        opened, seq, previous = store.opened("cup-a-1")
        assert opened.competition.name == "Cup"

    assert (seq, previous) == (last.seq, last.hash) == store.head(match)
    assert fields_of(opened) == fields_of(Match.objects.get(pk="cup-a-1"))
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
