"""Bad input to the services is an Refused (422) naming the field, never a crash; nothing is stored.

On PostgreSQL an over-long text would otherwise be a DataError, on SQLite it would be
stored; the limits are the models' own (matches/models.py).
"""

import pytest
from django.contrib.auth import get_user_model

from matches import services
from matches.domain.errors import Refused
from matches.models import (
    FEDERATION_ID_LENGTH,
    IDEMPOTENCY_KEY_LENGTH,
    NAME_LENGTH,
    STAGE_LENGTH,
    TABLE_LENGTH,
    USERNAME_LENGTH,
    Competition,
    Event,
    Match,
    Player,
)
from tests.support.builders import BY, PLAYERS, QUIET


def counts():
    return (
        Competition.objects.count(),
        Match.objects.count(),
        Player.objects.count(),
        get_user_model().objects.count(),
        Event.objects.count(),
    )


def refused(call, field):
    """Call, expecting an Refused naming `field`, and check nothing was stored."""
    before = counts()
    with pytest.raises(Refused) as refusal:
        call()
    assert refusal.value.status == 422
    assert refusal.value.field == field
    assert counts() == before
    return refusal.value


def players_with(player, key, value):
    changed = {p: dict(entry) for p, entry in PLAYERS.items()}
    changed[player][key] = value
    return changed


MATCH_REFUSALS = [
    pytest.param({"ruleset": [1]}, "ruleset", id="ruleset a list"),
    pytest.param({"ruleset": "x"}, "ruleset", id="ruleset a string"),
    pytest.param({"date": "2026-02-31"}, "date", id="no such day"),
    pytest.param({"date": "tomorrow"}, "date", id="date not a date"),
    pytest.param({"date": "20260201"}, "date", id="date without dashes"),
    pytest.param({"date": 20260201}, "date", id="date a number"),
    pytest.param({"stage": "s" * (STAGE_LENGTH + 1)}, "stage", id="stage too long"),
    pytest.param({"stage": 5}, "stage", id="stage a number"),
    pytest.param({"stage": "final\x00"}, "stage", id="stage with NUL"),
    pytest.param({"stage": "\ud800"}, "stage", id="stage lone surrogate"),
    pytest.param({"table": "t" * (TABLE_LENGTH + 1)}, "table", id="table too long"),
    pytest.param(
        {"referee_username": "r" * (USERNAME_LENGTH + 1)}, "referee_username", id="referee too long"
    ),
    pytest.param({"referee_username": ["r"]}, "referee_username", id="referee a list"),
    pytest.param(
        {"referee_name": "n" * (NAME_LENGTH + 1)}, "referee_name", id="referee name too long"
    ),
    pytest.param(
        {"players": players_with("A", "name", "n" * (NAME_LENGTH + 1))},
        "players.A.name",
        id="player name too long",
    ),
    pytest.param(
        {"players": players_with("B", "federation_id", "f" * (FEDERATION_ID_LENGTH + 1))},
        "players.B.federation_id",
        id="federation id too long",
    ),
    pytest.param({"competition": ["cup"]}, "competition", id="competition a list"),
]


@pytest.mark.parametrize(("changed", "field"), MATCH_REFUSALS)
def test_match_create_refuses_bad_input_naming_the_field_and_stores_nothing(cup, changed, field):
    fields = {
        "id": "m-1",
        "competition": "cup",
        "players": PLAYERS,
        "referee_username": BY,
        **changed,
    }

    refused(lambda: services.match_create(**fields), field)


def test_match_create_stores_texts_as_long_as_the_columns_hold_and_a_date(cup):
    players = players_with("A", "name", "n" * NAME_LENGTH)
    players["B"]["federation_id"] = "f" * FEDERATION_ID_LENGTH

    services.match_create(
        id="m-1",
        competition="cup",
        players=players,
        stage="s" * STAGE_LENGTH,
        table="t" * TABLE_LENGTH,
        date="2028-02-29",
        referee_username="r" * USERNAME_LENGTH,
        referee_name="n" * NAME_LENGTH,
    )

    match = Match.objects.get(pk="m-1")
    assert (len(match.stage), len(match.table), len(match.referee_name)) == (100, 50, 200)
    assert match.date.isoformat() == "2028-02-29"
    assert match.referee_username == "r" * USERNAME_LENGTH
    assert match.player_a.name == "n" * NAME_LENGTH


@pytest.mark.parametrize(
    ("changed", "field"),
    [
        pytest.param({"name": "n" * (NAME_LENGTH + 1)}, "name", id="name too long"),
        pytest.param({"name": 5}, "name", id="name a number"),
        pytest.param({"ruleset": [1]}, "ruleset", id="ruleset a list"),
        pytest.param({"ruleset": "x"}, "ruleset", id="ruleset a string"),
        pytest.param({"ruleset": {"target": "x"}}, "ruleset.target", id="ruleset value"),
        pytest.param({"id": "c" * 101}, "id", id="id too long"),
    ],
)
def test_competition_create_refuses_bad_input_naming_the_field_and_stores_nothing(
    db, changed, field
):
    refused(lambda: services.competition_create(**{"id": "cup", "name": "Cup", **changed}), field)


# -- Recording events ---------------------------------------------------------------


def shot(match, **fields):
    return services.shot_record(match_id=match.id, expected_seq=3, facts=QUIET, **fields)


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        pytest.param({"by": "b" * (USERNAME_LENGTH + 1)}, "by", id="by too long"),
        pytest.param({"by": ""}, "by", id="by empty"),
        pytest.param({"by": None}, "by", id="by missing"),
        pytest.param(
            {"by": BY, "idempotency_key": "k" * (IDEMPOTENCY_KEY_LENGTH + 1)},
            "Idempotency-Key",
            id="key too long",
        ),
        pytest.param({"by": BY, "idempotency_key": 7}, "Idempotency-Key", id="key a number"),
        pytest.param(
            {"by": BY, "idempotency_key": "\ud800"}, "Idempotency-Key", id="key lone surrogate"
        ),
    ],
)
def test_an_event_with_a_bad_by_or_idempotency_key_is_refused_naming_it(
    opened_match, fields, field
):
    refused(lambda: shot(opened_match, **fields), field)


def test_the_longest_by_and_idempotency_key_are_stored(opened_match):
    key = "k" * IDEMPOTENCY_KEY_LENGTH

    shot(opened_match, by="b" * USERNAME_LENGTH, idempotency_key=key)

    stored = Event.objects.get(match=opened_match, seq=4)
    assert (stored.recorded_by, stored.idempotency_key) == ("b" * USERNAME_LENGTH, key)
    assert shot(opened_match, by=BY, idempotency_key=key).replayed


def test_an_empty_idempotency_key_is_no_key(opened_match):
    services.shot_record(
        match_id=opened_match.id, expected_seq=3, facts=QUIET, by=BY, idempotency_key=""
    )
    services.shot_record(
        match_id=opened_match.id, expected_seq=4, facts=QUIET, by=BY, idempotency_key=""
    )

    assert list(
        Event.objects.filter(match=opened_match, seq__gt=3).values_list("idempotency_key")
    ) == [
        (None,),
        (None,),
    ]


def test_an_event_with_a_lone_surrogate_is_refused(opened_match):
    refused(
        lambda: services.shot_retract(
            match_id=opened_match.id, expected_seq=3, by=BY, shot=1, reason="\ud800"
        ),
        "event",
    )
