"""The notation: shot facts, match events and match records, parsed and checked.

Pure Python: no Django. Every error names the field to blame (paths index lists
from 0, as in `contacts[3].pins[1]`); an error in a record also names the event's
`seq`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from datetime import UTC, date, datetime
from typing import Any

from matches.domain.errors import EXCERPT, Refused, excerpt, join_field
from matches.domain.rules import (
    BALLS,
    CALLED_FOULS,
    PINS,
    PLAYERS,
    SURFACE_X,
    SURFACE_Y,
    Contact,
    LagDecision,
    LagResult,
    Shot,
    decide_lag,
    overlaps,
)

RECORD_FORMAT = "carambole.match/1"
SHOT_FACTS = ("struck", "contacts", "called", "rest")
CONTACT_TARGETS = BALLS + ("pins", "cushion", "off")
# Keys any event may carry besides its own: the server's stamps, set when it is recorded
# (an import without them gets them anew), and `CONFIRMED`, the client's: when the referee
# confirmed it at the table, part of the event as written (hashed, exported, compared).
ENVELOPE = ("seq", "at", "by", "hash")
CONFIRMED = "confirmed_at"
# Each ends at \Z: `$` would let a newline follow (an id one longer than its column).
SLUG = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}\Z")
# `at`: ISO 8601 in UTC with Z, to the second or finer.
UTC_TIME = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z\Z")
# `confirmed_at`: as the server writes `at`, to the millisecond.
UTC_MILLISECONDS = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z\Z")
DATE = re.compile(r"^\d{4}-\d{2}-\d{2}\Z")
# `hash`: a SHA-256, in lowercase hex.
HASH = re.compile(r"^[0-9a-f]{64}\Z")
# The longest texts a header and an event may carry; the models' columns are as long
# (matches/models.py takes these numbers). README, "Limits", lists every limit.
LONGEST = {
    "name": 200,
    "federation_id": 100,
    "stage": 100,
    "stage_id": 20,  # a stage of a competition's stages (matches.domain.stages.STAGE_ID)
    "slot": 10,  # a match's place in its stage: "Z99", "8-128", "3rd"
    "table": 50,
    "username": 150,
    "reason": 1000,
}
# A federation id, when a player has one: 1 to LONGEST["federation_id"] characters, any
# but a control character (C0, DEL, C1) or a line or paragraph separator, and no space of
# any kind at either end; "/", "%", "?", "#", inner spaces, any script are allowed. No id,
# null and "" are the same (records written before the rule say so with ""). README,
# "The archive, replays and the open record format", says it in words; the record's JSON
# Schema takes this pattern. Written with escapes JavaScript's regexps read the same way.
NOT_IN_AN_ID = r"\x00-\x1f\x7f-\x9f\u2028\u2029"
SPACES = r" \xa0\u1680\u2000-\u200a\u202f\u205f\u3000\ufeff"
FEDERATION_ID = re.compile(
    rf"^(?:[^{NOT_IN_AN_ID}{SPACES}](?:[^{NOT_IN_AN_ID}]*[^{NOT_IN_AN_ID}{SPACES}])?)?\Z"
)
FEDERATION_ID_RULE = (
    f"1 to {LONGEST['federation_id']} characters: no control character "
    "(tab, newline, ...), no space at either end"
)
MAX_EVENTS = 5000  # in one match: a real one has a few hundred
LONGEST_INTERMISSION = 120  # minutes (the rulebook's pause: `rules.INTERMISSION_MINUTES`)
MAX_DEPTH = 32  # JSON nesting: a record needs 7 levels
LARGEST_NUMBER = 10**15  # any number anywhere, beyond the ranges of the fields themselves


def expect_object(value: Any, field: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise Refused.because("not_object", field or None)
    return value


def expect_list(value: Any, field: str) -> list[Any]:
    if not isinstance(value, list):
        raise Refused.because("not_list", field)
    return value


def expect_choice(value: Any, choices: tuple[str, ...], what: str, field: str) -> str:
    if not isinstance(value, str) or value not in choices:
        raise Refused.because(
            "unknown_choice", field, what=what, value=excerpt(value), choices=", ".join(choices)
        )
    return value


def expect_number(value: Any, field: str, low: float, high: float) -> float:
    """Return a number from `low` to `high`, or refuse it naming the field."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise Refused.because("not_number", field)
    # Compared before any float conversion: an integer too large for a float is refused too.
    if not low <= value <= high:  # NaN is never in range
        raise Refused.because("number_out_of_range", field, low=f"{low:g}", high=f"{high:g}")
    return value


def expect_whole(value: Any, field: str, low: int, high: int) -> int:
    """Return a whole number from `low` to `high`, or refuse it naming the field."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise Refused.because("whole_out_of_range", field, low=low, high=high)
    return value


def expect_text(
    value: Any, field: str, required: bool = True, longest: int | None = None
) -> str | None:
    """Return text a column can hold (at most `longest` characters), or refuse it."""
    if value is None and not required:
        return None
    if not isinstance(value, str) or (required and not value.strip()):
        raise Refused.because("not_text", field)
    if longest is not None and len(value) > longest:
        raise Refused.because("too_long", field, longest=longest)
    if "\x00" in value:  # PostgreSQL's text cannot hold it
        raise Refused("must not contain a NUL character", field)
    return value


def expect_federation_id(value: Any, field: str) -> str | None:
    """Return a federation id (None or "" for none) as FEDERATION_ID allows, or refuse it."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise Refused("must be a string", field)
    if value == "":
        return value
    expect_text(value, field, required=False, longest=LONGEST["federation_id"])
    if re.search(f"[{NOT_IN_AN_ID}]", value):
        raise Refused("must not contain a control character (a tab, a newline, ...)", field)
    if not FEDERATION_ID.match(value):
        raise Refused("must not begin or end with a space", field)
    return value


def load_json(text: str | bytes) -> Any:
    """Return the JSON value of a text, or refuse it saying why, never a traceback."""
    try:
        value = json.loads(text)  # NaN and Infinity parse, and check_json names their field
    except json.JSONDecodeError as error:
        raise Refused(
            f"not JSON: {error.msg} at line {error.lineno} column {error.colno}"
        ) from None
    except RecursionError:
        raise Refused(f"not JSON: nested more than {MAX_DEPTH} levels") from None
    except ValueError as error:  # an integer past Python's digit limit
        raise Refused(f"not JSON: {str(error)[:80]}") from None
    # What it holds is checked where it is read (`check_json`): a record's events by
    # their `seq`, a judge line whole.
    return value


def canonical_json(value: Any) -> bytes:
    """Return the canonical JSON of a value: keys sorted, no spaces, UTF-8."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def check_json(value: Any, field: str | None) -> None:
    """Refuse a value the store cannot keep or the hash chain cannot hash, naming where.

    JSON types only, nested at most MAX_DEPTH levels; finite numbers no larger than
    LARGEST_NUMBER; text that UTF-8 can carry (no lone surrogate) and a database can
    store (no NUL character).
    """
    pending: list[tuple[Any, str | None, int]] = [(value, field, 0)]
    while pending:
        item, where, depth = pending.pop()
        kind = type(item)
        if kind is str:
            _check_string(item, where)
        elif kind is dict or kind is list:
            if depth >= MAX_DEPTH:
                raise Refused(f"is nested more than {MAX_DEPTH} levels", where)
            if kind is list:
                pending.extend((v, f"{where or ''}[{i}]", depth + 1) for i, v in enumerate(item))
                continue
            for key, v in item.items():
                if type(key) is not str:
                    raise Refused("has a key that is not text", where)
                _check_string(key, where)  # the key itself is no name for the field to blame
                # Cut as an error message quotes it: a field may name a megabyte's key.
                pending.append((v, join_field(where, key[:EXCERPT]), depth + 1))
        elif kind is int or kind is float:
            if not -LARGEST_NUMBER <= item <= LARGEST_NUMBER:  # NaN and Infinity too
                raise Refused(
                    f"must be a number from {-LARGEST_NUMBER:g} to {LARGEST_NUMBER:g}", where
                )
        elif item is not None and kind is not bool:
            raise Refused("is not JSON", where)


def _check_string(text: str, where: str | None) -> None:
    if "\x00" in text:
        raise Refused("must not contain a NUL character", where)
    if not text.isascii():
        try:
            text.encode()
        except UnicodeEncodeError:  # a lone surrogate
            raise Refused("is not valid Unicode text", where) from None


def refuse_unknown_keys(obj: Mapping[str, Any], known: tuple[str, ...], prefix: str) -> None:
    for key in obj:
        if key not in known:
            raise Refused.because(
                "unknown_field", join_field(prefix, str(key)[:40]), name=excerpt(key)
            )


# -- Shot facts --------------------------------------------------------------


def parse_shot(obj: Any, own: str, prefix: str = "", extra_keys: tuple[str, ...] = ()) -> Shot:
    """Return the shot facts of `obj`, played by the owner of ball `own`, or raise."""
    obj = expect_object(obj, prefix)
    refuse_unknown_keys(obj, SHOT_FACTS + extra_keys, prefix)
    struck = own
    if obj.get("struck") is not None:
        struck = expect_choice(obj["struck"], BALLS, "ball", join_field(prefix, "struck"))
    contacts = _parse_contacts(obj.get("contacts", []), struck, join_field(prefix, "contacts"))
    called = _parse_called(obj.get("called", []), join_field(prefix, "called"))
    off = {c.ball for c in contacts if c.hit == "off"}
    rest = _parse_rest(obj.get("rest"), off, join_field(prefix, "rest"))
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


def decode_lag(event: Mapping[str, Any], earlier_late_starts: Mapping[str, int]) -> LagDecision:
    """Return the decision of a lag event whose shape was checked, as section 3 makes it.

    A result not given (a winner given alone) is a result with no distance and no fault.
    """
    a, b = (
        LagResult(result.get("distance"), result.get("fault"))
        for result in (event.get(player) or {} for player in PLAYERS)
    )
    return decide_lag(a, b, event.get("collision", False), earlier_late_starts, event.get("winner"))


def _parse_contacts(value: Any, struck: str, field: str) -> tuple[Contact, ...]:
    moving = {struck}  # only the struck ball moves at first; a ball moves once hit
    left_table: set[str] = set()
    fallen: set[str] = set()
    contacts = []
    for index, raw in enumerate(expect_list(value, field)):
        # The fold parses every shot again: what is well formed takes a fast path, and
        # the field paths of the errors are built only when there is one.
        where = f"{field}[{index}]"
        if type(raw) is not dict:
            raw = expect_object(raw, where)
        if type(raw) is not dict or not _CONTACT_KEYS.issuperset(raw):
            refuse_unknown_keys(raw, ("ball", "hit", "pins", "same_time"), where)
        ball = raw.get("ball")
        if type(ball) is not str or ball not in BALLS:
            ball = expect_choice(ball, BALLS, "ball", f"{where}.ball")
        hit = raw.get("hit")
        if type(hit) is not str or hit not in CONTACT_TARGETS:
            hit = expect_choice(hit, CONTACT_TARGETS, "contact", f"{where}.hit")
        same_time = raw.get("same_time", False)
        if not isinstance(same_time, bool):
            raise Refused.because("not_boolean", f"{where}.same_time")
        if ball == hit:
            raise Refused.because("ball_touches_itself", f"{where}.hit")
        if left_table:
            for name, who in (("ball", ball), ("hit", hit)):
                if who in left_table:
                    raise Refused.because("acts_after_leaving", f"{where}.{name}", ball=who)
        if hit in BALLS:
            if ball not in moving and hit not in moving:
                raise Refused.because("balls_still", f"{where}.ball", ball=ball, hit=hit)
            moving.update((ball, hit))
        elif ball not in moving:
            raise Refused.because("ball_still", f"{where}.ball", ball=ball)
        pins = _parse_pins(raw, hit, fallen, where)
        if hit == "off":
            left_table.add(ball)
        contacts.append(Contact(ball=ball, hit=hit, pins=pins, same_time=same_time))
    return tuple(contacts)


def _parse_pins(raw: Mapping[str, Any], hit: str, fallen: set[str], where: str) -> tuple[str, ...]:
    if hit != "pins":
        if "pins" in raw:
            raise Refused('pins are given only with "hit": "pins"', f"{where}.pins")
        return ()
    names = expect_list(raw.get("pins"), f"{where}.pins")
    if not names:
        raise Refused("a pins contact knocks at least one pin", f"{where}.pins")
    pins = []
    for index, name in enumerate(names):
        pin = expect_choice(name, PINS, "pin", f"{where}.pins[{index}]")
        if pin in fallen:
            raise Refused.because("pin_falls_twice", f"{where}.pins[{index}]")
        fallen.add(pin)
        pins.append(pin)
    return tuple(pins)


def _parse_called(value: Any, field: str) -> tuple[str, ...]:
    called: list[str] = []
    for index, code in enumerate(expect_list(value, field)):
        code = expect_choice(code, CALLED_FOULS, "foul code", f"{field}[{index}]")
        if code in called:
            raise Refused.because("foul_called_twice", f"{field}[{index}]")
        called.append(code)
    return tuple(called)


def _parse_rest(value: Any, off: set[str], field: str) -> dict[str, tuple[float, float]] | None:
    if value is None:
        return None
    rest: dict[str, tuple[float, float]] = {}
    for ball, raw in expect_object(value, field).items():
        where = f"{field}.{str(ball)[:EXCERPT]}"
        expect_choice(ball, BALLS, "ball", where)
        if ball in off:
            raise Refused.because("off_table_has_no_rest", where, ball=ball)
        position = parse_position(raw, where)
        for other, placed in rest.items():
            if overlaps(position, placed):
                raise Refused.because("rest_overlaps", where, ball=other)
        rest[ball] = position
    return rest


def parse_position(value: Any, field: str) -> tuple[float, float]:
    """Return a ball's centre (x, y) in millimetres, refusing one off the playing surface."""
    if not isinstance(value, list) or len(value) != 2:
        raise Refused("must be [x, y] in millimetres", field)
    x, y = value
    if type(x) is not float and type(x) is not int:
        x = expect_number(x, f"{field}[0]", SURFACE_X[0], SURFACE_X[1])
    if type(y) is not float and type(y) is not int:
        y = expect_number(y, f"{field}[1]", SURFACE_Y[0], SURFACE_Y[1])
    if not SURFACE_X[0] <= x <= SURFACE_X[1]:
        raise Refused.because("off_surface", f"{field}[0]")
    if not SURFACE_Y[0] <= y <= SURFACE_Y[1]:
        raise Refused.because("off_surface", f"{field}[1]")
    return (float(x), float(y))


def is_date(value: Any) -> bool:
    """Return whether a value is a real day written YYYY-MM-DD."""
    if not isinstance(value, str) or not DATE.match(value):
        return False
    try:
        date.fromisoformat(value)
    except ValueError:
        return False
    return True


def check_envelope(raw: Mapping[str, Any], seq: int) -> None:
    """Refuse an envelope (seq, at, by, hash) that does not fit event `seq`."""
    if "seq" in raw and (isinstance(raw["seq"], bool) or raw["seq"] != seq):
        raise Refused(f"expected seq {seq}", "seq")
    if "at" in raw and not (isinstance(raw["at"], str) and UTC_TIME.match(raw["at"])):
        raise Refused("must be an ISO 8601 time in UTC ending in Z", "at")
    if "by" in raw:
        expect_text(raw["by"], "by", longest=LONGEST["username"])
    if "hash" in raw and (not isinstance(raw["hash"], str) or not HASH.match(raw["hash"])):
        raise Refused("must be 64 lowercase hex digits", "hash")
    if CONFIRMED in raw:
        confirmed = raw[CONFIRMED]
        if not (isinstance(confirmed, str) and UTC_MILLISECONDS.match(confirmed)):
            raise Refused(
                "must be an ISO 8601 time in UTC to the millisecond, as 2026-11-29T14:03:07.250Z",
                CONFIRMED,
            )
        if utc_time(confirmed) is None:
            raise Refused(f"is not a real time: {excerpt(confirmed)}", CONFIRMED)


def utc_time(text: str) -> datetime | None:
    """Return the moment a time written as `at` is (ISO 8601, UTC, Z), or None if none is."""
    if not UTC_TIME.match(text):
        return None
    try:
        # Finer than microseconds is cut: fromisoformat keeps six digits at most.
        whole, _, fraction = text[:-1].partition(".")
        moment = datetime.fromisoformat(f"{whole}.{fraction[:6] or 0}")
    except ValueError:
        return None
    return moment.replace(tzinfo=UTC)


def check_confirmed(event: Mapping[str, Any], at: str) -> None:
    """Refuse an event confirmed after it was recorded: its `confirmed_at` later than `at`.

    No lower bound: an event may wait any time between the table and the server (a tablet
    offline overnight, a scoresheet entered later), and the time it was confirmed is
    the client's to say. Both are checked for shape before (`check_envelope`, `at`).
    """
    confirmed = event.get(CONFIRMED)
    if confirmed is None:
        return
    confirmed_moment, at_moment = utc_time(confirmed), utc_time(at)
    if confirmed_moment is not None and at_moment is not None and confirmed_moment > at_moment:
        raise Refused(f"must not be later than the event's at, {at}", CONFIRMED)
