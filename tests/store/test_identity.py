"""Who is who: players, the referee a record names, and the logins allowed to record.

A player never plays themself; a federation id keeps the name it was stored with; the
officiating referee is text, part of the match as it happened, while the logins that may
record a match are Assignments (`referee_assign`, `manage.py assign_referee`), never made
or linked by an import; `by` passes the same checks on import as on recording, so every
export imports again.
"""

from __future__ import annotations

import getpass
import io
import json
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command, execute_from_command_line
from django.core.management.base import CommandError
from django.db import transaction
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matches import services, store
from matches.domain.errors import NotFound, Refused
from matches.immutability import triggers_lifted
from matches.models import Assignment, Competition, Event, Match, Player
from matches.records import record_export, record_import
from matches.selectors import assigned_referee
from tests.support.builders import BY, PLAYERS, QUIET, new_match, open_game
from tests.support.hostile import JSON_VALUES, TEXTS, example_record

DATABASE_PROPERTY = settings(
    # Each example is a database round trip: a tenth of the profile's examples (tests/conftest.py).
    max_examples=max(1, settings.default.max_examples // 10),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
User = get_user_model()


def counts() -> tuple[int, ...]:
    return tuple(
        model.objects.count() for model in (Competition, Match, Player, User, Assignment, Event)
    )


def refused(call, field: str) -> Refused:
    """Call, expecting Refused naming `field`, and check nothing was stored."""
    before = counts()
    with pytest.raises(Refused) as refusal:
        call()
    assert refusal.value.field == field, str(refusal.value)
    assert counts() == before
    return refusal.value


def empty_the_database() -> None:
    """Remove everything, as on a fresh database (test-only: the triggers are lifted)."""
    with triggers_lifted():
        Assignment.objects.all().delete()
        Event.objects.all().delete()
        Match.objects.all().delete()
        Player.objects.all().delete()
        Competition.objects.all().delete()
        User.objects.all().delete()


# -- A player cannot play themself ------------------------------------------------------

OLENA = {"name": "Olena Kovalenko", "federation_id": "UA-101"}
THEMSELF = [
    pytest.param(
        OLENA, {"name": "O. Kovalenko", "federation_id": "UA-101"}, "federation_id", id="same id"
    ),
    pytest.param(OLENA, dict(OLENA), "federation_id", id="same id and name"),
    pytest.param({"name": "Ann"}, {"name": "Ann"}, "name", id="same name, no ids"),
    pytest.param(
        {"name": "Ann", "federation_id": ""}, {"name": "Ann"}, "name", id="same name, empty id"
    ),
    pytest.param(
        {"name": "Ann", "federation_id": None},
        {"name": "Ann", "federation_id": ""},
        "name",
        id="same name, null and empty ids",
    ),
]


@pytest.mark.parametrize(("a", "b", "key"), THEMSELF)
def test_a_match_between_a_player_and_themself_is_refused_and_nothing_is_stored(cup, a, b, key):
    error = refused(
        lambda: services.match_create(competition="cup", players={"A": a, "B": b}),
        f"players.B.{key}",
    )

    assert "cannot play themself" in error.message


@pytest.mark.parametrize(("a", "b", "key"), THEMSELF)
def test_a_record_of_a_player_against_themself_is_refused_on_import(db, a, b, key):
    record = example_record()
    record["match"]["players"] = {"A": a, "B": b}

    refused(lambda: record_import(record), f"match.players.B.{key}")


@pytest.mark.parametrize(
    "b",
    [
        pytest.param({"name": "Olena Kovalenko", "federation_id": "UA-909"}, id="another id"),
        pytest.param({"name": "Olena Kovalenko"}, id="no id beside an id"),
    ],
)
def test_two_players_of_one_name_are_two_people_when_an_id_tells_them_apart(cup, b):
    match = services.match_create(competition="cup", players={"A": OLENA, "B": b})

    assert match.player_a != match.player_b
    assert Player.objects.filter(name="Olena Kovalenko").count() == 2


# -- A federation id keeps its name -----------------------------------------------------------


@pytest.mark.parametrize("side", ["A", "B"])
@pytest.mark.parametrize("name", ["Olena Kowalenko", "Olena Kovalenko ", "olena kovalenko"])
def test_a_federation_id_with_another_name_than_the_stored_one_is_refused_naming_the_field(
    cup, side, name
):
    new_match()
    other = {"name": "Lucía Pérez", "federation_id": "ES-303"}
    players = {side: {"name": name, "federation_id": "UA-101"}, "AB".replace(side, ""): other}

    error = refused(
        lambda: services.match_create(id="cup-a-2", competition="cup", players=players),
        f"players.{side}.name",
    )

    assert "UA-101" in error.message and "Olena Kovalenko" in error.message
    assert Player.objects.get(federation_id="UA-101").name == "Olena Kovalenko"


def test_a_record_naming_a_stored_federation_id_with_another_name_is_refused_on_import(db):
    new_match()
    record = example_record()
    record["match"]["players"]["A"] = {"name": "Olga K.", "federation_id": "UA-101"}

    before = counts()

    with pytest.raises(Refused) as refusal:
        record_import(record)

    assert refusal.value.field.endswith("players.A.name")
    assert "UA-101" in refusal.value.message
    assert counts() == before


def test_a_federation_id_with_its_stored_name_is_the_same_player(cup):
    first = new_match()

    second = services.match_create(id="cup-a-2", competition="cup", players=PLAYERS)

    assert (second.player_a, second.player_b) == (first.player_a, first.player_b)
    assert Player.objects.count() == 2


def test_a_player_without_a_federation_id_is_the_same_player_by_name(cup):
    players = {"A": {"name": "Ann"}, "B": {"name": "Bea"}}
    first = services.match_create(id="m-1", competition="cup", players=players)

    second = services.match_create(id="m-2", competition="cup", players=players)

    assert (second.player_a, second.player_b) == (first.player_a, first.player_b)


# -- The officiating referee is text; logins are assigned -------------------------------------


def record_refereed_by(username: str, name: str = "Ada Min") -> dict[str, Any]:
    record = example_record()
    record["match"]["referee"] = {"name": name, "username": username}
    return record


def test_a_match_has_no_link_to_a_login_but_through_its_assignments():
    links = [
        field.name
        for field in Match._meta.get_fields()
        if field.many_to_one and field.related_model is User
    ]

    assert links == []


def test_importing_a_record_that_names_admin_as_referee_never_creates_or_links_a_login(db):
    admin = User.objects.create_superuser("admin", "admin@example.org", "secret")
    admin_before = User.objects.filter(pk=admin.pk).values().get()

    record_import(record_refereed_by("admin"))

    match = Match.objects.get(pk="example-1")
    assert (match.referee_username, match.referee_name) == ("admin", "Ada Min")
    assert assigned_referee(match) is None
    assert not Assignment.objects.exists()
    assert list(User.objects.values()) == [admin_before]
    assert record_export("example-1")["match"]["referee"] == {
        "name": "Ada Min",
        "username": "admin",
    }


@pytest.mark.parametrize("username", ["ghost", "admin", "petrenko"])
def test_importing_a_record_that_names_a_referee_creates_no_login(db, username):
    record_import(record_refereed_by(username))

    assert not User.objects.exists()
    assert Match.objects.get(pk="example-1").referee_username == username


def test_creating_a_match_with_a_referee_creates_no_login(cup):
    services.match_create(
        id="m-1",
        competition="cup",
        players=PLAYERS,
        referee_username="admin",
        referee_name="Ada Min",
    )

    assert not User.objects.exists()
    assert not Assignment.objects.exists()


@pytest.fixture
def logins(db):
    return {name: User.objects.create_user(name) for name in ("bob", "carol")}


def test_assigning_keeps_who_assigned_and_when_and_the_latest_assignment_stands(logins):
    match = new_match()
    exported = record_export(match.id)
    steps = [("bob", "staff-1"), ("carol", "staff-2"), (None, "staff-3"), ("bob", "staff-1")]

    for username, by in steps:
        before = timezone.now()
        assignment = services.referee_assign(match_id=match.id, username=username, by=by)
        assert before <= assignment.assigned_at <= timezone.now()
        assert assigned_referee(match) == (logins[username] if username else None)

    kept = Assignment.objects.filter(match=match).order_by("assigned_at", "id")
    assert [(a.user and a.user.get_username(), a.assigned_by) for a in kept] == steps
    assert record_export(match.id) == exported  # logins are not part of the match
    match.refresh_from_db()
    assert match.referee_username == BY


@pytest.mark.parametrize(
    ("username", "field"),
    [
        pytest.param("ghost", "username", id="unknown"),
        pytest.param("Bob", "username", id="another case"),
        pytest.param("", "username", id="empty"),
        pytest.param("  ", "username", id="blank"),
        pytest.param("b" * 151, "username", id="too long"),
        pytest.param("bob\x00", "username", id="NUL"),
        pytest.param("\ud800", "username", id="lone surrogate"),
        pytest.param(7, "username", id="a number"),
    ],
)
def test_assigning_a_username_that_names_no_login_is_refused_naming_it(logins, username, field):
    match = new_match()

    error = refused(
        lambda: services.referee_assign(match_id=match.id, username=username, by="staff"), field
    )

    assert type(error) is Refused


@pytest.mark.parametrize("by", ["", "  ", "s" * 151, "st\x00aff", None])
def test_assigning_without_saying_who_assigns_is_refused(logins, by):
    match = new_match()

    refused(lambda: services.referee_assign(match_id=match.id, username="bob", by=by), "by")


def test_assigning_a_referee_to_no_match_is_not_found(logins):
    with pytest.raises(NotFound):
        services.referee_assign(match_id="nope", username="bob", by="staff")

    assert not Assignment.objects.exists()


def assign_referee(*args: str) -> str:
    out = io.StringIO()
    call_command("assign_referee", *args, stdout=out)
    return out.getvalue()


def test_the_assign_referee_command_assigns_and_takes_away_keeping_who(logins):
    match = new_match()

    assert assign_referee(match.id, "bob", "--by", "chief") == (
        f"{match.id}: bob may record (assigned by chief)\n"
    )
    assert assign_referee(match.id, "--none", "--by", "chief") == (
        f"{match.id}: nobody may record (assigned by chief)\n"
    )
    assign_referee(match.id, "carol")

    kept = list(Assignment.objects.filter(match=match).values_list("user__username", "assigned_by"))
    assert kept == [
        ("bob", "chief"),
        (None, "chief"),
        ("carol", f"{getpass.getuser()} (command line)"),
    ]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        pytest.param(["cup-a-1", "ghost"], "username: no login 'ghost'", id="unknown username"),
        pytest.param(["cup-a-1"], "give a USERNAME, or --none", id="neither"),
        pytest.param(["cup-a-1", "bob", "--none"], "give a USERNAME, or --none", id="both"),
        pytest.param(["nope", "bob"], "id: no match 'nope'", id="unknown match"),
        pytest.param(["cup-a-\udcff", "bob"], "id: no match", id="undecodable match id"),
        pytest.param(["cup-a-1", "bob", "--by", " "], "by: ", id="blank assigner"),
    ],
)
def test_the_assign_referee_command_exits_non_zero_with_a_message(logins, capsys, args, message):
    new_match()

    with pytest.raises(SystemExit) as exit_:
        execute_from_command_line(["manage.py", "assign_referee", *args])

    # (The command closes the database connection as it ends, as `manage.py` does.)
    assert exit_.value.code not in (0, None)
    assert message in capsys.readouterr().err


def test_the_assign_referee_command_refuses_an_unknown_username_as_a_command_error(logins):
    match = new_match()

    with pytest.raises(CommandError, match="username"):
        assign_referee(match.id, "ghost")


# -- by: the same checks on import as on recording; every export imports again ---------------

BYS = ["petrenko", "b" * 150, "Zoë Ołówek-Ñúñez", "  spaced  ", "line\u2028separator", "張偉"]


def test_export_then_import_into_an_empty_database_reproduces_the_same_record_and_chain(db):
    User.objects.create_superuser("admin", "admin@example.org", "secret")
    services.competition_create(id="cup", name="Cup")
    match = services.match_create(
        id="cup-a-1",
        competition="cup",
        players=PLAYERS,
        stage="final",
        table="3",
        date="2026-11-29",
        referee_username="admin",
        referee_name="Ada Min",
    )
    seq = open_game(match.id)
    for by in BYS:
        seq = services.shot_record(match_id=match.id, expected_seq=seq, by=by, facts=QUIET).seq
    services.referee_assign(match_id=match.id, username="admin", by="chief")
    exported = json.loads(json.dumps(record_export(match.id), ensure_ascii=False))
    hashes = list(Event.objects.filter(match=match).order_by("seq").values_list("hash", flat=True))

    empty_the_database()
    assert record_import(exported).outcome == "created"

    assert record_export("cup-a-1") == exported
    stored = Match.objects.get(pk="cup-a-1")
    assert store.verify_chain(stored) == []
    assert list(stored.events.order_by("seq").values_list("hash", flat=True)) == hashes
    assert [e["by"] for e in exported["events"][3:]] == BYS
    assert not User.objects.exists() and not Assignment.objects.exists()


def field_root(error: Refused) -> str | None:
    """Return the field an error names without its path inside (`by[0][1]` is `by`)."""
    return error.field and error.field.split(".")[0].split("[")[0]


def outcome(call) -> str | None:
    """Return None when the call succeeds, or the root of the field its refusal names."""
    try:
        call()
    except Refused as error:
        return field_root(error) or "?"
    return None


@DATABASE_PROPERTY
@given(
    by=TEXTS
    | JSON_VALUES
    | st.sampled_from(BYS)
    | st.text(min_size=149, max_size=152).map(lambda text: text.replace("\x00", "."))
)
def test_who_recorded_an_event_passes_the_same_checks_on_import_as_on_recording(db, by):
    with transaction.atomic():
        match = new_match()
        seq = open_game(match.id)
        recorded = outcome(
            lambda: services.shot_record(match_id=match.id, expected_seq=seq, by=by, facts=QUIET)
        )
        # The record says who recorded event 2; or the importer stands for every event.
        carried, unsigned = example_record(), example_record()
        carried["match"]["id"], unsigned["match"]["id"] = "carried", "unsigned"
        carried["events"][1]["by"] = by
        imported = outcome(lambda: record_import(carried))
        imported_by = outcome(lambda: record_import(unsigned, by=by))

        assert recorded in (None, "by")
        assert imported == imported_by == recorded
        exported = [record_export(m.pk) for m in Match.objects.order_by("pk")]
        empty_the_database()
        for record in exported:
            assert record_import(json.loads(json.dumps(record))).outcome == "created"
            assert record_export(record["match"]["id"]) == record
        transaction.set_rollback(True)
