"""Competitions and matches: created with their players, balls, ruleset and referee."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Model

from matches.domain.errors import Refused, excerpt, join_field
from matches.domain.header import Header, parse_header
from matches.domain.notation import SLUG, is_date
from matches.domain.rules import Ruleset
from matches.domain.stages import parse_stages
from matches.models import (
    NAME_LENGTH,
    SLOT_LENGTH,
    STAGE_ID_LENGTH,
    STAGE_LENGTH,
    TABLE_LENGTH,
    USERNAME_LENGTH,
    Assignment,
    Competition,
    Match,
    Player,
)
from matches.selectors import check_id, competition_get, match_get
from matches.services.ids import competition_id_new, match_id_new


def competition_create(
    *,
    id: str | None = None,
    name: str | None = "",
    ruleset: Mapping[str, Any] | None = None,
    stages: Any = None,
) -> Competition:
    """Create a competition with its ruleset overrides; without an id, one made from its name.

    With `stages` (see the README), checked here and kept as written, it is played in
    stages; without, it is one round robin of its entrants, as before stages.
    """
    if id is None:
        id = competition_id_new(name)
    _check_slug(id, "id")
    if name is not None:
        check_text(name, "name", NAME_LENGTH)
    Ruleset.from_overrides(ruleset)
    if stages is not None:
        parse_stages(stages, ruleset)
    with created_once(Competition, id, "competition"):
        return Competition.objects.create(
            id=id, name=name or id, ruleset=dict(ruleset or {}), stages=stages
        )


def match_create(
    *,
    competition: str,
    players: Mapping[str, Any],
    balls: Mapping[str, str] | None = None,
    ruleset: Mapping[str, Any] | None = None,
    referee_username: str = "",
    id: str | None = None,
    stage: str = "",
    table: str = "",
    date: date | str | None = None,
    referee_name: str = "",
    stage_id: str = "",
    group: str = "",
    slot: str = "",
) -> Match:
    """Create a match; its ruleset is the competition's with these overrides on top.

    `stage_id`, `group` and `slot` place it in a competition's stages (the draw's
    matches and the knockout's settled ones); empty, it is a match of its own.
    """
    check_id(competition, "competition", "competition")
    if ruleset is not None and not isinstance(ruleset, Mapping):
        raise Refused.because("not_object", "ruleset")
    found = competition_get(competition, "competition")
    overrides = {**found.ruleset, **(ruleset or {})}
    header_fields = {
        "players": players,
        "balls": balls or {"A": "white", "B": "yellow"},
        "ruleset": overrides,
    }
    _, header = parse_header(header_fields, prefix="")
    match_id = id or match_id_new(competition)
    _check_slug(match_id, "id")
    with created_once(Match, match_id, "match"):
        return match_store(
            id=match_id,
            competition=found,
            header=header,
            stage=stage,
            table=table,
            date=date,
            referee_username=referee_username,
            referee_name=referee_name,
            place=Place(stage_id, group, slot),
        )


@contextmanager
def created_once(model: type[Model], pk: str, what: str) -> Iterator[None]:
    """Create a row keyed `pk` (in a savepoint), or refuse it naming `id`: it exists already.

    Concurrent requests for one id each pass the check before either writes: the one whose
    insert the database refuses (IntegrityError, the row committed meanwhile) gets the same
    422 naming `id` as a request sent after it. Any other IntegrityError is left alone.
    """
    if model._default_manager.filter(pk=pk).exists():
        raise Refused.because(
            "match_exists" if what == "match" else "competition_exists", "id", id=repr(pk)
        )
    try:
        with transaction.atomic():
            yield
    except IntegrityError:
        if not model._default_manager.filter(pk=pk).exists():
            raise
        raise Refused.because(
            "match_exists" if what == "match" else "competition_exists", "id", id=repr(pk)
        ) from None


def match_store(
    *,
    id: str,
    competition: Competition,
    header: Header,
    stage: str = "",
    table: str = "",
    date: date | str | None = None,
    referee_username: str = "",
    referee_name: str = "",
    status: str = Match.Status.LAG,
    field: str = "",
    place: Place | None = None,
) -> Match:
    """Store a match header: its players (found or created), balls, full ruleset, referee.

    The officiating referee is text, as the record names them: never a login.

    The players come checked with the header (`parse_header`); the rest is refused
    (Refused, naming the field) when the columns cannot hold it, before writing anything.
    `field` is where the header stands in what was sent (`match` in a record).
    """
    check_text(stage, "stage", STAGE_LENGTH)
    check_text(table, "table", TABLE_LENGTH)
    day = day_of(date)
    check_text(referee_username, "referee_username", USERNAME_LENGTH)
    check_text(referee_name, "referee_name", NAME_LENGTH)
    place = place or Place()
    check_text(place.stage_id, "stage_id", STAGE_ID_LENGTH)
    check_text(place.group, "group", 1)
    check_text(place.slot, "slot", SLOT_LENGTH)
    return Match.objects.create(
        id=id,
        competition=competition,
        stage=stage,
        table=table,
        date=day,
        player_a=player_of(header.players["A"], join_field(field, "players.A")),
        player_b=player_of(header.players["B"], join_field(field, "players.B")),
        players={p: dict(v) for p, v in header.players.items()},
        ball_a=header.balls["A"],
        ball_b=header.balls["B"],
        ruleset=header.ruleset.as_dict(),
        referee_username=referee_username,
        referee_name=referee_name,
        status=status,
        stage_id=place.stage_id,
        group=place.group,
        slot=place.slot,
    )


@dataclass(frozen=True)
class Place:
    """A match's place in a competition's stages: its stage, group and slot (or none)."""

    stage_id: str = ""
    group: str = ""
    slot: str = ""


def _check_slug(value: Any, field: str) -> None:
    if not isinstance(value, str) or not SLUG.match(value):
        raise Refused.because("not_slug", field)


def check_text(value: Any, field: str, longest: int, *, required: bool = False) -> str:
    """Return text a column of `longest` characters can hold, or refuse it naming the field."""
    if not isinstance(value, str):
        raise Refused.because("not_string", field)
    if required and not value.strip():
        raise Refused.because("not_text", field)
    if len(value) > longest:
        raise Refused.because("too_long", field, longest=longest)
    if "\x00" in value:  # PostgreSQL's text cannot hold it
        raise Refused("must not contain a NUL character", field)
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate
        raise Refused("is not valid Unicode text", field) from None
    return value


def day_of(value: Any, field: str = "date") -> date | None:
    """Return a day from a date or "YYYY-MM-DD" (None when not given), or refuse it."""
    if value is None or value == "":
        return None
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    if is_date(value):
        return date.fromisoformat(value)
    raise Refused.because("not_date", field)


def player_of(entry: Mapping[str, Any], field: str) -> Player:
    """Return the player a record names: by federation id when given, else by name.

    A federation id already stored under another name is refused: two people, or a
    typing error, never a silent merge.
    """
    federation_id = entry.get("federation_id")
    if federation_id:
        player, created = Player.objects.get_or_create(
            federation_id=federation_id, defaults={"name": entry["name"]}
        )
        if not created and player.name != entry["name"]:
            raise Refused(
                f"federation id {excerpt(federation_id)} is {excerpt(player.name)}, "
                f"not {excerpt(entry['name'])}",
                f"{field}.name",
            )
        return player
    player, _ = Player.objects.get_or_create(federation_id=None, name=entry["name"])
    return player


def referee_assign(*, match_id: str, username: str | None, by: str) -> Assignment:
    """Let one login record a match (None: nobody), kept with who assigned it and when.

    A staff action. The officiating referee the record names does not change.
    """
    check_text(by, "by", USERNAME_LENGTH, required=True)
    match = match_get(check_id(match_id, "id", "match"))
    user = None
    if username is not None:
        check_text(username, "username", USERNAME_LENGTH, required=True)
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise Refused.because("no_login", "username", username=excerpt(username))
    return Assignment.objects.create(match=match, user=user, assigned_by=by)


def match_open(*, referee: str | None = None, by: str, **fields: Any) -> Match:
    """Create a match (as `match_create`) and assign the login that may record it, or store nothing.

    What the API's "create a match" does: `referee` is the login's username.
    """
    with transaction.atomic():
        match = match_create(**fields)
        if referee is not None:
            try:
                referee_assign(match_id=match.id, username=referee, by=by)
            except Refused as error:
                # The caller names the login `referee`; `referee_assign` calls it `username`.
                field = "referee" if error.field == "username" else error.field
                raise Refused(error.message, field, code=error.code, params=error.params) from None
    return match
