"""The only write path: competitions, matches, and every event of a match.

Views, consumers, commands and tasks call these functions; none of them writes
a model directly. Each event is checked against the match as it stands (the
fold) and appended in one transaction.
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction

from matches import store
from matches.chain import canonical_json
from matches.errors import Conflict, NotFound, Refused
from matches.events import parse_event
from matches.fold import decide, evolve, fold, replay
from matches.header import Header, parse_header
from matches.models import (
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
from matches.notation import ENVELOPE, SLUG, is_date
from matches.render import render
from matches.rules import Ruleset
from matches.signals import events_appended
from matches.state import MatchState

# -- Competitions and matches --------------------------------------------------


def competition_create(
    *, id: str, name: str | None = "", ruleset: Mapping[str, Any] | None = None
) -> Competition:
    """Create a competition with its ruleset overrides."""
    _check_slug(id, "id")
    if name is not None:
        _check_text(name, "name", NAME_LENGTH)
    Ruleset.from_overrides(ruleset)
    if Competition.objects.filter(pk=id).exists():
        raise Refused(f"competition {id!r} exists already", "id")
    return Competition.objects.create(id=id, name=name or id, ruleset=dict(ruleset or {}))


def match_create(
    *,
    competition: str,
    players: Mapping[str, Any],
    balls: Mapping[str, str] | None = None,
    ruleset: Mapping[str, Any] | None = None,
    referee: str | None = None,
    id: str | None = None,
    stage: str = "",
    table: str = "",
    date: date | str | None = None,
    referee_name: str = "",
) -> Match:
    """Create a match; its ruleset is the competition's with these overrides on top."""
    if not isinstance(competition, str):
        raise Refused("must be a competition id", "competition")
    if ruleset is not None and not isinstance(ruleset, Mapping):
        raise Refused("must be an object", "ruleset")
    found = Competition.objects.filter(pk=competition).first()
    if found is None:
        raise NotFound(f"no competition {competition!r}", "competition")
    overrides = {**found.ruleset, **(ruleset or {})}
    header_fields = {
        "players": players,
        "balls": balls or {"A": "white", "B": "yellow"},
        "ruleset": overrides,
    }
    _, header = parse_header(header_fields, prefix="")
    match_id = id or _new_match_id(competition)
    _check_slug(match_id, "id")
    with transaction.atomic():
        if Match.objects.filter(pk=match_id).exists():
            raise Refused(f"match {match_id!r} exists already", "id")
        return match_store(
            id=match_id,
            competition=found,
            header=header,
            stage=stage,
            table=table,
            date=date,
            referee=referee,
            referee_name=referee_name,
        )


def match_store(
    *,
    id: str,
    competition: Competition,
    header: Header,
    stage: str = "",
    table: str = "",
    date: date | str | None = None,
    referee: str | None = None,
    referee_name: str = "",
) -> Match:
    """Store a match header: its players (found or created), balls, full ruleset, referee.

    The players come checked with the header (`parse_header`); the rest is refused
    (Refused, naming the field) when the columns cannot hold it, before writing anything.
    """
    _check_text(stage, "stage", STAGE_LENGTH)
    _check_text(table, "table", TABLE_LENGTH)
    day = _match_date(date)
    if referee is not None:
        _check_text(referee, "referee", USERNAME_LENGTH)
    _check_text(referee_name, "referee_name", NAME_LENGTH)
    return Match.objects.create(
        id=id,
        competition=competition,
        stage=stage,
        table=table,
        date=day,
        player_a=_player(header.players["A"]),
        player_b=_player(header.players["B"]),
        players={p: dict(v) for p, v in header.players.items()},
        ball_a=header.balls["A"],
        ball_b=header.balls["B"],
        ruleset=header.ruleset.as_dict(),
        referee=_user(referee),
        referee_name=referee_name,
    )


def _check_slug(value: Any, field: str) -> None:
    if not isinstance(value, str) or not SLUG.match(value):
        raise Refused("must be a slug (letters, digits, - _ .)", field)


def _check_text(value: Any, field: str, longest: int, *, required: bool = False) -> str:
    """Return text a column of `longest` characters can hold, or refuse it naming the field."""
    if not isinstance(value, str):
        raise Refused("must be a string", field)
    if required and not value.strip():
        raise Refused("must be a non-empty string", field)
    if len(value) > longest:
        raise Refused(f"must be at most {longest} characters", field)
    if "\x00" in value:  # PostgreSQL's text cannot hold it
        raise Refused("must not contain a NUL character", field)
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate
        raise Refused("is not valid Unicode text", field) from None
    return value


def _match_date(value: Any) -> date | None:
    """Return a match's date from a date or "YYYY-MM-DD" (None when not given), or refuse it."""
    if value is None or value == "":
        return None
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    if is_date(value):
        return date.fromisoformat(value)
    raise Refused("must be a date, YYYY-MM-DD", "date")


def _new_match_id(competition: str) -> str:
    return f"{competition}-{uuid.uuid4().hex[:8]}"


def _player(entry: Mapping[str, Any]) -> Player:
    """Return the player a record names: by federation id when given, else by name."""
    federation_id = entry.get("federation_id")
    if federation_id:
        player, _ = Player.objects.get_or_create(
            federation_id=federation_id, defaults={"name": entry["name"]}
        )
        return player
    player, _ = Player.objects.get_or_create(federation_id=None, name=entry["name"])
    return player


def _user(username: str | None) -> Any:
    if not username:
        return None
    user, _ = get_user_model().objects.get_or_create(username=username)
    return user


# -- Recording events -----------------------------------------------------------


@dataclass
class Log:
    """A match's log, open to append to: its last `seq` and the hash the next event chains to."""

    match: Match
    seq: int
    previous: str
    created: bool = False  # the match was stored in this transaction (an import)

    def expect(self, expected_seq: int) -> None:
        """Refuse an append that expected another `seq` to follow (someone recorded first)."""
        if self.seq != expected_seq:
            raise Conflict(self.seq)


@contextmanager
def log_of(match_id: str, create: Callable[[], Match] | None = None) -> Iterator[Log]:
    """Open a match's log to append to: one transaction, holding the log lock (taken once).

    SQLite's IMMEDIATE transactions hold its single write lock from BEGIN; PostgreSQL
    takes a transaction-scoped advisory lock. Either way the global id order of the
    log is the commit order, and the head read here stays the head until the commit.
    A match not stored yet is refused, or made by `create` (an import) in the same
    transaction.
    """
    with transaction.atomic():
        store.lock_log()
        match = Match.objects.select_related("competition").filter(pk=match_id).first()
        created = match is None and create is not None
        if match is None:
            if create is None:
                raise NotFound(f"no match {match_id!r}", "id")
            match = create()
        yield Log(match, *store.head(match), created=created)


def events_append(
    log: Log,
    events: Sequence[Mapping[str, Any]],
    stamps: Sequence[store.Stamp],
    *,
    status: str,
    idempotency_key: str | None = None,
    command_digest: str = "",
) -> list[Event]:
    """Append checked events to an open log: the one way an event reaches the log.

    Chains and stores the events, keeps the match's status, and announces the
    append once the transaction commits (`events_appended`).
    """
    match = log.match
    rows = store.insert(
        match,
        log.seq,
        log.previous,
        events,
        stamps,
        idempotency_key=idempotency_key,
        command_digest=command_digest,
    )
    log.seq, log.previous = rows[-1].seq, rows[-1].hash
    if match.status != status:
        match.status = status
        match.save(update_fields=["status"])
    seqs = [row.seq for row in rows]
    transaction.on_commit(
        lambda: events_appended.send_robust(sender=Match, match_id=match.pk, seqs=seqs)
    )
    return rows


@dataclass(frozen=True)
class Recorded:
    """The answer to a recorded event: its `seq` and the match state after it."""

    seq: int
    state: dict[str, Any]
    replayed: bool = False  # the idempotency key was seen before: nothing was appended


def event_record(
    *,
    match_id: str,
    expected_seq: int,
    event: Mapping[str, Any],
    by: str,
    idempotency_key: str | None = None,
) -> Recorded:
    """Check one event against the match as it stands and append it after `expected_seq`."""
    if isinstance(expected_seq, bool) or not isinstance(expected_seq, int) or expected_seq < 0:
        raise Refused("must be a whole number from 0", "expected_seq")
    _check_text(by, "by", USERNAME_LENGTH, required=True)
    if idempotency_key is not None:
        _check_text(idempotency_key, "Idempotency-Key", IDEMPOTENCY_KEY_LENGTH)
    idempotency_key = idempotency_key or None  # an empty key is no key
    command = {"expected_seq": expected_seq, "event": event}
    digest = hashlib.sha256(_json_of(command, "event")).hexdigest()
    with log_of(match_id) as log:
        match = log.match
        if idempotency_key:
            earlier = Event.objects.filter(match=match, idempotency_key=idempotency_key).first()
            if earlier is not None:
                return _replayed(match, earlier, digest)
        log.expect(expected_seq)
        events = store.load_facts(match)
        running, checked = _checked(match.header(), events, event)
        running = evolve(running, checked)  # the match as it stands now, folded once
        state = render(running, detached=False)
        events_append(
            log,
            [checked],
            [store.Stamp(by=by)],
            status=state["status"],
            idempotency_key=idempotency_key,
            command_digest=digest,
        )
    return Recorded(seq=expected_seq + 1, state=state)


def _json_of(value: Any, field: str) -> bytes:
    """Return the canonical JSON of a command, refusing what JSON cannot carry."""
    try:
        return canonical_json(value)
    except UnicodeEncodeError:  # a lone surrogate
        raise Refused("is not valid Unicode text", field) from None
    except RecursionError:
        raise Refused("is nested too deeply", field) from None
    except (TypeError, ValueError):
        raise Refused("is not JSON", field) from None


def _checked(
    header: Header, events: list[dict[str, Any]], event: Mapping[str, Any]
) -> tuple[MatchState, dict[str, Any]]:
    """Return the fold of the stored events and the new event as it will be stored."""
    seq = len(events) + 1
    if not isinstance(event, Mapping):
        raise Refused("must be an object", "event")
    for key in ENVELOPE:
        if key in event and key != "seq":
            raise Refused("is set by the server", key, seq)
    parsed = parse_event(event, header, seq)
    running = replay(header, events)
    return running, decide(running, parsed)


def _replayed(match: Match, earlier: Event, digest: str) -> Recorded:
    if earlier.command_digest != digest:
        raise Refused(
            "this idempotency key was used for another command", "Idempotency-Key", earlier.seq
        )
    events = store.load_facts(match)
    # The first answer: the state as it was shown right after that event.
    return Recorded(earlier.seq, fold(match.header(), events, upto=earlier.seq, view="live"), True)


def _command(kind: str, **fields: Any) -> dict[str, Any]:
    return {"type": kind, **{k: v for k, v in fields.items() if v is not None}}


def lag_record(
    *,
    match_id: str,
    expected_seq: int,
    by: str,
    a: Mapping[str, Any],
    b: Mapping[str, Any],
    collision: bool | None = None,
    **key: Any,
) -> Recorded:
    """Record one lag: each player's distance and fault."""
    event = _command("lag", A=dict(a), B=dict(b), collision=collision)
    return event_record(match_id=match_id, expected_seq=expected_seq, event=event, by=by, **key)


def game_start(
    *, match_id: str, expected_seq: int, by: str, game: int, breaker: str, **key: Any
) -> Recorded:
    """Start the next game with its breaker."""
    event = _command("game_started", game=game, breaker=breaker)
    return event_record(match_id=match_id, expected_seq=expected_seq, event=event, by=by, **key)


def ball_place(
    *,
    match_id: str,
    expected_seq: int,
    by: str,
    ball: str,
    pos: list[float],
    reason: str,
    **key: Any,
) -> Recorded:
    """Record where the referee placed a ball (break, ball in hand, re-spot)."""
    event = _command("ball_placed", ball=ball, pos=pos, reason=reason)
    return event_record(match_id=match_id, expected_seq=expected_seq, event=event, by=by, **key)


def shot_record(
    *,
    match_id: str,
    expected_seq: int,
    by: str,
    facts: Mapping[str, Any],
    player: str | None = None,
    **key: Any,
) -> Recorded:
    """Record a shot by whoever is due (or by `player`, who must be)."""
    event = _command("shot", player=player, **facts)
    return event_record(match_id=match_id, expected_seq=expected_seq, event=event, by=by, **key)


def ruling_amend(
    *,
    match_id: str,
    expected_seq: int,
    by: str,
    shot: int,
    facts: Mapping[str, Any],
    reason: str,
    **key: Any,
) -> Recorded:
    """Amend a shot with new facts and a reason; the original stays in the record."""
    event = _command("shot_amended", shot=shot, facts=dict(facts), reason=reason)
    return event_record(match_id=match_id, expected_seq=expected_seq, event=event, by=by, **key)


def shot_retract(
    *, match_id: str, expected_seq: int, by: str, shot: int, reason: str, **key: Any
) -> Recorded:
    """Retract the latest shot, entered by mistake."""
    event = _command("shot_retracted", shot=shot, reason=reason)
    return event_record(match_id=match_id, expected_seq=expected_seq, event=event, by=by, **key)


def balls_respot(
    *, match_id: str, expected_seq: int, by: str, reason: str = "contact", **key: Any
) -> Recorded:
    """Record the re-spot of the three balls after a ball in contact."""
    event = _command("balls_respotted", reason=reason)
    return event_record(match_id=match_id, expected_seq=expected_seq, event=event, by=by, **key)


def foul_record(
    *,
    match_id: str,
    expected_seq: int,
    by: str,
    player: str,
    code: str,
    reason: str | None = None,
    **key: Any,
) -> Recorded:
    """Record a foul committed outside a stroke."""
    event = _command("foul", player=player, code=code, reason=reason)
    return event_record(match_id=match_id, expected_seq=expected_seq, event=event, by=by, **key)


def intermission_record(
    *, match_id: str, expected_seq: int, by: str, minutes: float = 5, **key: Any
) -> Recorded:
    """Record the pause before a deciding game."""
    event = _command("intermission", minutes=minutes)
    return event_record(match_id=match_id, expected_seq=expected_seq, event=event, by=by, **key)


def game_forfeit(
    *, match_id: str, expected_seq: int, by: str, player: str, reason: str, **key: Any
) -> Recorded:
    """Record that a player left without permission: he loses the open game."""
    event = _command("game_forfeited", player=player, reason=reason)
    return event_record(match_id=match_id, expected_seq=expected_seq, event=event, by=by, **key)


def match_forfeit(
    *, match_id: str, expected_seq: int, by: str, player: str, reason: str, **key: Any
) -> Recorded:
    """Record that a player refused to continue: he loses the match."""
    event = _command("match_forfeited", player=player, reason=reason)
    return event_record(match_id=match_id, expected_seq=expected_seq, event=event, by=by, **key)
