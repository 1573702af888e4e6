"""The notation: shot facts, match events and match records, parsed and checked.

Pure Python: no Django. Every error names the field to blame (paths index lists
from 0, as in `contacts[3].pins[1]`); an error in a record also names the event's
`seq`.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from matches.rules import (
    BALL_DIAMETER,
    BALL_RADIUS,
    BALLS,
    CALLED_FOULS,
    LAG_FAULTS,
    PINS,
    TABLE_LENGTH,
    TABLE_WIDTH,
    Contact,
    Ruleset,
    RulesetError,
    Shot,
)

RECORD_FORMAT = "carambole.match/1"
PLAYERS = ("A", "B")
SHOT_FACTS = ("struck", "contacts", "called", "rest")
CONTACT_TARGETS = BALLS + ("pins", "cushion", "off")
PLACEMENT_REASONS = ("break", "in_hand", "respot")
# Keys any event may carry besides its own.
ENVELOPE = ("seq", "at", "by", "hash")
SLUG = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$")
# `at`: ISO 8601 in UTC with Z, to the second or finer.
UTC_TIME = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$")
DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
# The longest texts a header and an event's envelope may carry; the models' columns
# are as long (matches/models.py takes these numbers).
LONGEST = {"name": 200, "federation_id": 100, "stage": 100, "table": 50, "username": 150}


class NotationError(ValueError):
    """Input that breaks the notation; `field` names the culprit, `seq` the event."""

    def __init__(self, message: str, field: str | None = None, seq: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        self.seq = seq

    def __str__(self) -> str:
        where = []
        if self.seq is not None:
            where.append(f"seq {self.seq}")
        if self.field:
            where.append(self.field)
        return f"{', '.join(where)}: {self.message}" if where else self.message

    def as_dict(self) -> dict[str, Any]:
        error: dict[str, Any] = {"error": self.message, "field": self.field}
        if self.seq is not None:
            error["seq"] = self.seq
        return error


def _join(prefix: str, name: str) -> str:
    if not prefix:
        return name
    return f"{prefix}{name}" if name.startswith("[") else f"{prefix}.{name}"


def _expect_object(value: Any, field: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise NotationError("must be an object", field or None)
    return value


def _expect_list(value: Any, field: str) -> list[Any]:
    if not isinstance(value, list):
        raise NotationError("must be a list", field)
    return value


def _expect_choice(value: Any, choices: tuple[str, ...], what: str, field: str) -> str:
    if not isinstance(value, str) or value not in choices:
        raise NotationError(
            f"unknown {what} {value!r}; expected one of {', '.join(choices)}", field
        )
    return value


def _expect_number(value: Any, field: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise NotationError("must be a number", field)
    return value


def _expect_text(
    value: Any, field: str, required: bool = True, longest: int | None = None
) -> str | None:
    if value is None and not required:
        return None
    if not isinstance(value, str) or (required and not value.strip()):
        raise NotationError("must be a non-empty string", field)
    if longest is not None and len(value) > longest:
        raise NotationError(f"must be at most {longest} characters", field)
    return value


def check_unicode(value: Any, field: str | None) -> None:
    """Refuse text that UTF-8 cannot carry (lone surrogates): the hash chain encodes it."""
    try:
        canonical_json(value)
    except UnicodeEncodeError:
        raise NotationError("is not valid Unicode text", field) from None
    except RecursionError:
        raise NotationError("is nested too deeply", field) from None
    except (TypeError, ValueError):
        raise NotationError("is not JSON", field) from None


def _refuse_unknown_keys(obj: Mapping[str, Any], known: tuple[str, ...], prefix: str) -> None:
    for key in obj:
        if key not in known:
            raise NotationError(f"unknown field {key!r}", _join(prefix, key))


# -- Shot facts --------------------------------------------------------------


def parse_shot(obj: Any, own: str, prefix: str = "", extra_keys: tuple[str, ...] = ()) -> Shot:
    """Return the shot facts of `obj`, played by the owner of ball `own`, or raise."""
    obj = _expect_object(obj, prefix)
    _refuse_unknown_keys(obj, SHOT_FACTS + extra_keys, prefix)
    struck = own
    if obj.get("struck") is not None:
        struck = _expect_choice(obj["struck"], BALLS, "ball", _join(prefix, "struck"))
    contacts = _parse_contacts(obj.get("contacts", []), struck, _join(prefix, "contacts"))
    called = _parse_called(obj.get("called", []), _join(prefix, "called"))
    off = {c.ball for c in contacts if c.hit == "off"}
    rest = _parse_rest(obj.get("rest"), off, _join(prefix, "rest"))
    return Shot(struck=struck, contacts=contacts, called=called, rest=rest)


_CONTACT_KEYS = frozenset(("ball", "hit", "pins", "same_time"))


# Most contacts are a ball meeting a ball or a cushion: one shared Contact for each.
_PLAIN_CONTACTS = {b: {h: Contact(b, h) for h in CONTACT_TARGETS if h != b} for b in BALLS}


def decode_shot(facts: Mapping[str, Any], own: str) -> Shot:
    """Return the shot facts of an event the store accepted, without checking them again.

    Only for facts that `parse_shot` has accepted before (the fold of stored events).
    """
    contacts = tuple(
        [
            _PLAIN_CONTACTS[c["ball"]][c["hit"]]
            if len(c) == 2
            else Contact._make(
                (c["ball"], c["hit"], tuple(c.get("pins", ())), c.get("same_time", False))
            )
            for c in facts.get("contacts") or ()
        ]
    )
    called = facts.get("called")
    return Shot(
        facts.get("struck") or own, contacts, tuple(called) if called else (), facts.get("rest")
    )


def _parse_contacts(value: Any, struck: str, field: str) -> tuple[Contact, ...]:
    moving = {struck}  # only the struck ball moves at first; a ball moves once hit
    left_table: set[str] = set()
    fallen: set[str] = set()
    contacts = []
    for index, raw in enumerate(_expect_list(value, field)):
        # The fold parses every shot again: what is well formed takes a fast path, and
        # the field paths of the errors are built only when there is one.
        where = f"{field}[{index}]"
        if type(raw) is not dict:
            raw = _expect_object(raw, where)
        if type(raw) is not dict or not _CONTACT_KEYS.issuperset(raw):
            _refuse_unknown_keys(raw, ("ball", "hit", "pins", "same_time"), where)
        ball = raw.get("ball")
        if type(ball) is not str or ball not in BALLS:
            ball = _expect_choice(ball, BALLS, "ball", f"{where}.ball")
        hit = raw.get("hit")
        if type(hit) is not str or hit not in CONTACT_TARGETS:
            hit = _expect_choice(hit, CONTACT_TARGETS, "contact", f"{where}.hit")
        same_time = raw.get("same_time", False)
        if not isinstance(same_time, bool):
            raise NotationError("must be true or false", f"{where}.same_time")
        if ball == hit:
            raise NotationError("a ball cannot touch itself", f"{where}.hit")
        if left_table:
            for name, who in (("ball", ball), ("hit", hit)):
                if who in left_table:
                    raise NotationError(
                        f"the {who} ball acts after it left the table", f"{where}.{name}"
                    )
        if hit in BALLS:
            if ball not in moving and hit not in moving:
                raise NotationError(
                    f"neither the {ball} nor the {hit} ball is moving yet", f"{where}.ball"
                )
            moving.update((ball, hit))
        elif ball not in moving:
            raise NotationError(f"the {ball} ball is not moving yet", f"{where}.ball")
        pins = _parse_pins(raw, hit, fallen, where)
        if hit == "off":
            left_table.add(ball)
        contacts.append(Contact(ball=ball, hit=hit, pins=pins, same_time=same_time))
    return tuple(contacts)


def _parse_pins(raw: Mapping[str, Any], hit: str, fallen: set[str], where: str) -> tuple[str, ...]:
    if hit != "pins":
        if "pins" in raw:
            raise NotationError('pins are given only with "hit": "pins"', f"{where}.pins")
        return ()
    names = _expect_list(raw.get("pins"), f"{where}.pins")
    if not names:
        raise NotationError("a pins contact knocks at least one pin", f"{where}.pins")
    pins = []
    for index, name in enumerate(names):
        pin = _expect_choice(name, PINS, "pin", f"{where}.pins[{index}]")
        if pin in fallen:
            raise NotationError("pin falls twice", f"{where}.pins[{index}]")
        fallen.add(pin)
        pins.append(pin)
    return tuple(pins)


def _parse_called(value: Any, field: str) -> tuple[str, ...]:
    called: list[str] = []
    for index, code in enumerate(_expect_list(value, field)):
        code = _expect_choice(code, CALLED_FOULS, "foul code", f"{field}[{index}]")
        if code in called:
            raise NotationError("foul called twice", f"{field}[{index}]")
        called.append(code)
    return tuple(called)


def _parse_rest(value: Any, off: set[str], field: str) -> dict[str, tuple[float, float]] | None:
    if value is None:
        return None
    rest: dict[str, tuple[float, float]] = {}
    for ball, raw in _expect_object(value, field).items():
        where = f"{field}.{ball}"
        _expect_choice(ball, BALLS, "ball", where)
        if ball in off:
            raise NotationError(f"the {ball} ball left the table and has no rest", where)
        position = parse_position(raw, where)
        for other, placed in rest.items():
            if overlaps(position, placed):
                raise NotationError(f"overlaps the {other} ball", where)
        rest[ball] = position
    return rest


def parse_position(value: Any, field: str) -> tuple[float, float]:
    """Return a ball's centre (x, y) in millimetres, refusing one off the playing surface."""
    if not isinstance(value, list) or len(value) != 2:
        raise NotationError("must be [x, y] in millimetres", field)
    x, y = value
    if type(x) is not float and type(x) is not int or not math.isfinite(x):
        x = _expect_number(x, f"{field}[0]")
    if type(y) is not float and type(y) is not int or not math.isfinite(y):
        y = _expect_number(y, f"{field}[1]")
    # A ball lies on the surface when no part of it is over a cushion.
    if not BALL_RADIUS <= x <= TABLE_WIDTH - BALL_RADIUS:
        raise NotationError("lies off the playing surface", f"{field}[0]")
    if not BALL_RADIUS <= y <= TABLE_LENGTH - BALL_RADIUS:
        raise NotationError("lies off the playing surface", f"{field}[1]")
    return (float(x), float(y))


def overlaps(a: Sequence[float], b: Sequence[float]) -> bool:
    """Return whether two balls at these centres would overlap."""
    return math.dist(a, b) < BALL_DIAMETER - 1e-9


# -- Match records -------------------------------------------------------------


@dataclass(frozen=True)
class Header:
    """What a match's events are judged against: players, their balls, the ruleset."""

    players: Mapping[str, Mapping[str, Any]]
    balls: Mapping[str, str]
    ruleset: Ruleset

    def ball_of(self, player: str) -> str:
        return self.balls[player]

    def owner_of(self, ball: str) -> str | None:
        for player, owned in self.balls.items():
            if owned == ball:
                return player
        return None

    def sealed(self) -> dict[str, Any]:
        """Return the part of the header the hash chain seals."""
        return {
            "balls": dict(self.balls),
            "players": {p: dict(v) for p, v in self.players.items()},
            "ruleset": self.ruleset.as_dict(),
        }


@dataclass(frozen=True)
class Record:
    """A parsed match record: its header fields, its Header and its checked events."""

    match: dict[str, Any]
    header: Header
    events: list[dict[str, Any]]


def parse_header(obj: Any, prefix: str = "match") -> tuple[dict[str, Any], Header]:
    """Return the match header of a record (normalised) and its Header, or raise."""
    obj = _expect_object(obj, prefix)
    match = dict(obj)
    if "id" in obj:
        if not isinstance(obj["id"], str) or not SLUG.match(obj["id"]):
            raise NotationError("must be a slug (letters, digits, - _ .)", f"{prefix}.id")
    if obj.get("competition") is not None:
        if not isinstance(obj["competition"], str) or not SLUG.match(obj["competition"]):
            raise NotationError("must be a slug (letters, digits, - _ .)", f"{prefix}.competition")
    _check_header_texts(obj, prefix)
    players_obj = _expect_object(obj.get("players"), f"{prefix}.players")
    players: dict[str, dict[str, Any]] = {}
    for player in PLAYERS:
        where = f"{prefix}.players.{player}"
        entry = dict(_expect_object(players_obj.get(player), where))
        _expect_text(entry.get("name"), f"{where}.name", longest=LONGEST["name"])
        _expect_text(
            entry.get("federation_id"),
            f"{where}.federation_id",
            required=False,
            longest=LONGEST["federation_id"],
        )
        # Kept as written (other keys too): the hash chain seals the players as the record has them.
        players[player] = entry
    balls_obj = _expect_object(obj.get("balls", {"A": "white", "B": "yellow"}), f"{prefix}.balls")
    balls = {
        player: _expect_choice(
            balls_obj.get(player), ("white", "yellow"), "ball", f"{prefix}.balls.{player}"
        )
        for player in PLAYERS
    }
    if balls["A"] == balls["B"]:
        raise NotationError("the players need different balls", f"{prefix}.balls.B")
    try:
        ruleset = Ruleset.from_overrides(obj.get("ruleset"), f"{prefix}.ruleset")
    except RulesetError as error:
        raise NotationError(error.message, error.field) from None
    match.update(players=players, balls=balls, ruleset=ruleset.as_dict())
    return match, Header(players=players, balls=balls, ruleset=ruleset)


def _check_header_texts(obj: Mapping[str, Any], prefix: str) -> None:
    check_unicode(obj, prefix or None)
    for key in ("stage", "table"):
        value = obj.get(key)
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, int | str):
            raise NotationError("must be a string", f"{prefix}.{key}")
        if len(str(value)) > LONGEST[key]:
            raise NotationError(f"must be at most {LONGEST[key]} characters", f"{prefix}.{key}")
    day = obj.get("date")
    if day is not None and not is_date(day):
        raise NotationError("must be a date, YYYY-MM-DD", f"{prefix}.date")
    referee = obj.get("referee")
    if referee is not None:
        referee = _expect_object(referee, f"{prefix}.referee")
        _expect_text(
            referee.get("name"), f"{prefix}.referee.name", required=False, longest=LONGEST["name"]
        )
        _expect_text(
            referee.get("username"),
            f"{prefix}.referee.username",
            required=False,
            longest=LONGEST["username"],
        )


def is_date(value: Any) -> bool:
    """Return whether a value is a real day written YYYY-MM-DD."""
    if not isinstance(value, str) or not DATE.match(value):
        return False
    try:
        date.fromisoformat(value)
    except ValueError:
        return False
    return True


def parse_record(obj: Any) -> Record:
    """Return a checked match record: the header and every event's shape (not its legality)."""
    obj = _expect_object(obj, "")
    if obj.get("format") != RECORD_FORMAT:
        raise NotationError(f"must be {RECORD_FORMAT!r}", "format")
    match, header = parse_header(obj.get("match"))
    events = [
        parse_event(raw, header, seq)
        for seq, raw in enumerate(_expect_list(obj.get("events", []), "events"), start=1)
    ]
    return Record(match=match, header=header, events=events)


def parse_event(raw: Any, header: Header, seq: int) -> dict[str, Any]:
    """Return one event checked for shape, or raise naming its `seq` and field."""
    try:
        return _parse_event(raw, header, seq)
    except NotationError as error:
        error.seq = seq
        raise


def _parse_event(written: Any, header: Header, seq: int) -> dict[str, Any]:
    raw: dict[str, Any] = dict(_expect_object(written, ""))
    kind = _expect_choice(raw.get("type"), tuple(EVENT_FIELDS), "event type", "type")
    if kind == "ball_placed" and "pos" not in raw and isinstance(raw.get("at"), list):
        # Older records wrote the position of a placement under "at".
        raw["pos"] = raw.pop("at")
    _refuse_unknown_keys(raw, ("type",) + EVENT_FIELDS[kind] + ENVELOPE, "")
    _check_envelope(raw, seq)
    EVENT_CHECKS[kind](raw, header)
    check_unicode(raw, None)
    # The event as written: the hash chain covers it exactly, and the fold reads it so.
    return raw


def _check_envelope(raw: Mapping[str, Any], seq: int) -> None:
    if "seq" in raw and (isinstance(raw["seq"], bool) or raw["seq"] != seq):
        raise NotationError(f"expected seq {seq}", "seq")
    if "at" in raw and not (isinstance(raw["at"], str) and UTC_TIME.match(raw["at"])):
        raise NotationError("must be an ISO 8601 time in UTC ending in Z", "at")
    if "by" in raw:
        _expect_text(raw["by"], "by", longest=LONGEST["username"])
    if "hash" in raw and (
        not isinstance(raw["hash"], str) or not re.fullmatch(r"[0-9a-f]{64}", raw["hash"])
    ):
        raise NotationError("must be 64 lowercase hex digits", "hash")


def _player(raw: Mapping[str, Any], key: str = "player", required: bool = True) -> str | None:
    if raw.get(key) is None and not required:
        return None
    return _expect_choice(raw.get(key), PLAYERS, "player", key)


def _positive_int(raw: Mapping[str, Any], key: str) -> int:
    value = raw.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise NotationError("must be a whole number from 1", key)
    return value


def _reason(raw: Mapping[str, Any], required: bool = True) -> None:
    _expect_text(raw.get("reason"), "reason", required=required)


# Each checks one kind of event as written; an event is stored exactly as written.


def _lag(raw: Mapping[str, Any], header: Header) -> None:
    for player in PLAYERS:
        result = _expect_object(raw.get(player), player)
        _refuse_unknown_keys(result, ("distance", "fault"), player)
        if _expect_number(result.get("distance"), f"{player}.distance") < 0:
            raise NotationError("must not be negative", f"{player}.distance")
        if result.get("fault") is not None:
            _expect_choice(result["fault"], LAG_FAULTS, "lag fault", f"{player}.fault")
    if "collision" in raw and not isinstance(raw["collision"], bool):
        raise NotationError("must be true or false", "collision")


def _game_started(raw: Mapping[str, Any], header: Header) -> None:
    _positive_int(raw, "game")
    _player(raw, "breaker")


def _ball_placed(raw: Mapping[str, Any], header: Header) -> None:
    _expect_choice(raw.get("ball"), BALLS, "ball", "ball")
    parse_position(raw.get("pos"), "pos")
    _expect_choice(raw.get("reason"), PLACEMENT_REASONS, "placement reason", "reason")


def _shot(raw: Mapping[str, Any], header: Header) -> None:
    player = _player(raw, required=False)
    if player is not None:
        # Without a player, who is due (and so the cue ball) is known only to the fold.
        parse_shot({k: raw[k] for k in SHOT_FACTS if k in raw}, header.ball_of(player))


def _shot_amended(raw: Mapping[str, Any], header: Header) -> None:
    _positive_int(raw, "shot")
    # The facts are checked by the fold, which knows whose ball the shot was played with.
    _expect_object(raw.get("facts"), "facts")
    _reason(raw)


def _shot_retracted(raw: Mapping[str, Any], header: Header) -> None:
    _positive_int(raw, "shot")
    _reason(raw)


def _balls_respotted(raw: Mapping[str, Any], header: Header) -> None:
    _reason(raw, required=False)


def _foul(raw: Mapping[str, Any], header: Header) -> None:
    _player(raw)
    _expect_choice(raw.get("code"), CALLED_FOULS, "foul code", "code")
    _reason(raw, required=False)


def _intermission(raw: Mapping[str, Any], header: Header) -> None:
    if _expect_number(raw.get("minutes", 5), "minutes") <= 0:
        raise NotationError("must be positive", "minutes")


def _forfeited(raw: Mapping[str, Any], header: Header) -> None:
    _player(raw)
    _reason(raw, required=False)


EVENT_FIELDS: dict[str, tuple[str, ...]] = {
    "lag": ("A", "B", "collision"),
    "game_started": ("game", "breaker"),
    "ball_placed": ("ball", "pos", "reason"),
    "shot": ("player",) + SHOT_FACTS,
    "shot_amended": ("shot", "facts", "reason"),
    "shot_retracted": ("shot", "reason"),
    "balls_respotted": ("reason",),
    "foul": ("player", "code", "reason"),
    "intermission": ("minutes",),
    "game_forfeited": ("player", "reason"),
    "match_forfeited": ("player", "reason"),
}

EVENT_CHECKS = {
    "lag": _lag,
    "game_started": _game_started,
    "ball_placed": _ball_placed,
    "shot": _shot,
    "shot_amended": _shot_amended,
    "shot_retracted": _shot_retracted,
    "balls_respotted": _balls_respotted,
    "foul": _foul,
    "intermission": _intermission,
    "game_forfeited": _forfeited,
    "match_forfeited": _forfeited,
}


# -- The hash chain ------------------------------------------------------------


def canonical_json(value: Any) -> bytes:
    """Return the canonical JSON of a value: keys sorted, no spaces, UTF-8."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def header_hash(header: Header) -> str:
    """Return the "previous hash" of event 1: the seal of balls, players and ruleset."""
    return hashlib.sha256(canonical_json(header.sealed())).hexdigest()


def event_hash(previous: str, event: Mapping[str, Any]) -> str:
    """Return an event's hash, chained to the previous one."""
    body = {k: v for k, v in event.items() if k != "hash"}
    return hashlib.sha256(previous.encode() + canonical_json(body)).hexdigest()
