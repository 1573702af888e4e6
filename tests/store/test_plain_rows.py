"""The hot reads by key (`matches.plain_rows`) give what the ORM gives, field by field."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import models

from matches import plain_rows
from matches.models import Competition, Match
from replay.models import MatchSummary
from replay.projections import projector
from tests.support.builders import seven_events_and_another

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
