"""The five-pins rules: the ruleset of a competition, the ruling of one shot, the lag.

Pure Python: no Django, no I/O. Section numbers refer to the rulebook; the
engineering decisions where it is ambiguous are those of the project's rules
reference (README, "The rules").
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, fields
from typing import Any, NamedTuple

# Section 1: the table, in millimetres, x across (0..1420), y along (0..2840).
TABLE_WIDTH = 1420.0
TABLE_LENGTH = 2840.0
BALL_DIAMETER = 61.5
BALL_RADIUS = BALL_DIAMETER / 2
CENTRE_LINE = TABLE_LENGTH / 2

SPOTS: dict[str, tuple[float, float]] = {
    "top": (710.0, 2740.0),
    "red": (710.0, 2130.0),
    "centre": (710.0, 1420.0),
    "lower_centre": (710.0, 710.0),
    "bottom": (710.0, 100.0),
}

CUE_BALLS = ("white", "yellow")
BALLS = ("white", "yellow", "red")
# The order in which a ruling lists the pins that fell.
PINS = ("center", "top", "bottom", "left", "right")
WHITE_PINS = ("top", "bottom", "left", "right")

# Fouls that the contacts of a stroke show, in the order a ruling lists them.
STROKE_FOULS = ("wrong_ball", "miss", "red_first", "pins_first", "cue_pins", "off_table")
# Fouls the referee calls (section 14 е–р), in the order of the rulebook.
CALLED_FOULS = (
    "balls_moving",
    "not_tip",
    "double_hit",
    "cleaning",
    "displaced",
    "contact_push",
    "feet",
    "placement",
    "jump",
    "touched",
    "push_shot",
)
FOULS = STROKE_FOULS + CALLED_FOULS

LAG_FAULTS = ("red_or_pins", "long_cushion", "crossed", "late_start")


class RulesetError(ValueError):
    """A ruleset override that is not a known parameter or has the wrong value."""

    def __init__(self, message: str, field: str) -> None:
        super().__init__(message)
        self.message = message
        self.field = field


@dataclass(frozen=True)
class Ruleset:
    """The Regulations of a competition; every default is the rulebook's."""

    target: int = 60
    best_of: int = 3
    side_pin: int = 2
    center_with_others: int = 4
    center_alone: int = 8
    kiss_carom: int = 4
    ricochet_carom: int = 3
    foul: int = 2
    red_first: int = 4
    cumulative_fouls: bool = True
    pin_pitch: float = 71.5

    def __hash__(self) -> int:
        # Computed once: the fold keeps its memo of rulings per ruleset.
        cached: int | None = self.__dict__.get("_hash")
        if cached is None:
            cached = hash(tuple(self.__dict__[f.name] for f in fields(self)))
            object.__setattr__(self, "_hash", cached)
        return cached

    @classmethod
    def from_overrides(cls, overrides: Mapping[str, Any] | None, field: str = "ruleset") -> Ruleset:
        """Return the default ruleset with the given parameters changed."""
        if overrides is None:
            return DEFAULT_RULESET
        if not isinstance(overrides, Mapping):
            raise RulesetError("must be an object", field)
        known = {f.name: f for f in fields(cls)}
        values: dict[str, Any] = {}
        for name, value in overrides.items():
            where = f"{field}.{name}"
            if name not in known:
                raise RulesetError(f"unknown ruleset parameter {name!r}", where)
            values[name] = _checked_parameter(name, value, where)
        ruleset = cls(**values)
        if ruleset.best_of % 2 == 0:
            raise RulesetError("best_of must be odd", f"{field}.best_of")
        return ruleset

    def as_dict(self) -> dict[str, Any]:
        """Return every parameter, as a match record writes the ruleset in force."""
        return asdict(self)

    def overrides(self) -> dict[str, Any]:
        """Return only the parameters that differ from the defaults."""
        defaults = DEFAULT_RULESET.as_dict()
        return {k: v for k, v in self.as_dict().items() if defaults[k] != v}


def _checked_parameter(name: str, value: Any, where: str) -> Any:
    if name == "cumulative_fouls":
        if not isinstance(value, bool):
            raise RulesetError("must be true or false", where)
        return value
    if name == "pin_pitch":
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not math.isfinite(value)  # JSON parsers accept NaN and Infinity
            or value <= 0
        ):
            raise RulesetError("must be a positive number of millimetres", where)
        return value  # as parsed: the hash chain seals the ruleset's numbers as written
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesetError("must be a whole number", where)
    smallest = 1 if name in ("target", "best_of") else 0
    if value < smallest:
        raise RulesetError(f"must be at least {smallest}", where)
    return value


DEFAULT_RULESET = Ruleset()


def pin_positions(ruleset: Ruleset = DEFAULT_RULESET) -> dict[str, tuple[float, float]]:
    """Return where each pin stands: a cross on the centre lines, one pitch apart (section 1)."""
    x, y = SPOTS["centre"]
    pitch = ruleset.pin_pitch
    return {
        "center": (x, y),
        "top": (x, y + pitch),
        "bottom": (x, y - pitch),
        "left": (x - pitch, y),
        "right": (x + pitch, y),
    }


# -- One shot ---------------------------------------------------------------


class Contact(NamedTuple):
    """One contact of a shot: `ball` met `hit` (a ball, "pins", "cushion" or "off")."""

    ball: str
    hit: str
    pins: tuple[str, ...] = ()
    same_time: bool = False

    def involves(self, ball: str) -> bool:
        return self.ball == ball or self.hit == ball

    def between_balls(self) -> bool:
        return self.hit in BALLS

    def other(self, ball: str) -> str:
        return self.hit if self.ball == ball else self.ball


class Shot(NamedTuple):
    """What happened on the table: the ball struck, the contacts in order, called fouls."""

    struck: str | None = None
    contacts: tuple[Contact, ...] = ()
    called: tuple[str, ...] = ()
    rest: Mapping[str, tuple[float, float]] | None = None

    def balls_that_moved(self, own: str) -> set[str]:
        moved = {contact.ball for contact in self.contacts}
        moved.update(contact.hit for contact in self.contacts if contact.hit in BALLS)
        moved.add(self.struck or own)
        return moved

    def balls_off_table(self) -> set[str]:
        return {c.ball for c in self.contacts if c.hit == "off"}


@dataclass(frozen=True)
class Ruling:
    """The referee's decision on one shot, as `notation.md` spells it."""

    valid: bool
    first_contact: str | None
    carom: str | None
    pins: tuple[str, ...]
    pin_points: int
    carom_points: int
    fouls: tuple[str, ...]
    foul_points: int
    scorer: str | None
    points: int
    ball_in_hand: bool

    def shared_dict(self) -> dict[str, Any]:
        """Return the ruling as a dict made once per ruling: read it, never change it."""
        shared: dict[str, Any] | None = self.__dict__.get("_shared")
        if shared is None:
            shared = self.as_dict()
            object.__setattr__(self, "_shared", shared)
        return shared

    def as_dict(self) -> dict[str, Any]:
        # Spelled out: `asdict` deep-copies field by field, and the fold calls this per shot.
        return {
            "valid": self.valid,
            "first_contact": self.first_contact,
            "carom": self.carom,
            "pins": list(self.pins),
            "pin_points": self.pin_points,
            "carom_points": self.carom_points,
            "fouls": list(self.fouls),
            "foul_points": self.foul_points,
            "scorer": self.scorer,
            "points": self.points,
            "ball_in_hand": self.ball_in_hand,
        }


def opponent_ball(own: str) -> str:
    """Return the other player's ball."""
    return "yellow" if own == "white" else "white"


def judge(
    shot: Shot, own: str, ruleset: Ruleset = DEFAULT_RULESET, no_score: bool = False
) -> Ruling:
    """Return the ruling for one shot played by the owner of ball `own`.

    `no_score` marks the shot played right after a ball-in-contact re-spot
    (section 9): it cannot score for the shooter, its fouls still count.
    """
    cue = own
    opponent = opponent_ball(own)
    fouls: list[str] = []

    # Step 1. Wrong ball: no first contact, no carom, no cue_pins are judged.
    wrong_ball = (shot.struck or own) != own
    first_contact: str | None = None
    carom: str | None = None
    if wrong_ball:
        fouls.append("wrong_ball")
    else:
        # Step 2. First contact of the cue ball.
        first_index, first_contact = _first_contact(shot.contacts, cue, opponent)
        if first_contact == "none":
            fouls.append("miss")
        elif first_contact == "red":
            fouls.append("red_first")
        elif first_contact == "pins":
            fouls.append("pins_first")
        else:
            # Step 3. Carom: the earliest contact with the red decides.
            carom = _carom(shot.contacts, first_index, cue, opponent)
            # Step 5. The cue ball on the pins after a valid first contact.
            if any(c.ball == cue and c.hit == "pins" for c in shot.contacts):
                fouls.append("cue_pins")

    # Step 4. Pins knocked by any ball.
    pins = fallen_pins(shot.contacts)
    pin_points = pin_value(pins, ruleset)
    carom_points = carom_value(carom, ruleset)

    # Step 6. Off the table, counted once however many balls left.
    if any(c.hit == "off" for c in shot.contacts):
        fouls.append("off_table")

    # Step 7. Fouls the referee called.
    fouls.extend(code for code in CALLED_FOULS if code in shot.called)

    return _ruling(first_contact, carom, pins, pin_points, carom_points, fouls, ruleset, no_score)


def _first_contact(contacts: Sequence[Contact], cue: str, opponent: str) -> tuple[int, str]:
    """Return the index and kind of the cue ball's first contact, cushions ignored."""
    for index, contact in enumerate(contacts):
        if contact.ball == cue and contact.hit in ("cushion", "off"):
            continue
        if not contact.involves(cue):
            continue
        # The first contact, with any contacts marked as happening at the same time.
        group = [contact] + _same_time_after(contacts, index)
        touched = {c.other(cue) for c in group if c.involves(cue)}
        for kind, what in (("opponent", opponent), ("red", "red"), ("pins", "pins")):
            if what in touched:
                return index, kind
    return -1, "none"


def _same_time_after(contacts: Sequence[Contact], index: int) -> list[Contact]:
    group = []
    for contact in contacts[index + 1 :]:
        if not contact.same_time:
            break
        group.append(contact)
    return group


def _carom(contacts: Sequence[Contact], first_index: int, cue: str, opponent: str) -> str | None:
    """Return the carom decided by the first ball contact involving the red."""
    for index in range(first_index, len(contacts)):
        contact = contacts[index]
        if not (contact.between_balls() and contact.involves("red")):
            continue
        group = [contact] + _same_time_after(contacts, index)
        red_met = {c.other("red") for c in group if c.between_balls() and c.involves("red")}
        if cue in red_met:
            return "kiss"
        if opponent in red_met:
            return "ricochet"
    return None


def fallen_pins(contacts: Sequence[Contact]) -> tuple[str, ...]:
    """Return every pin that fell, in the order center, top, bottom, left, right."""
    fallen = {pin for contact in contacts for pin in contact.pins}
    return tuple(pin for pin in PINS if pin in fallen)


def pin_value(pins: Sequence[str], ruleset: Ruleset = DEFAULT_RULESET) -> int:
    """Return the points of the pins knocked in one shot (the red pin alone or with others)."""
    white = sum(1 for pin in pins if pin in WHITE_PINS)
    points = white * ruleset.side_pin
    if "center" in pins:
        points += ruleset.center_with_others if white else ruleset.center_alone
    return points


def carom_value(carom: str | None, ruleset: Ruleset = DEFAULT_RULESET) -> int:
    """Return the points of a carom: kiss (cue ball on red) or ricochet."""
    if carom == "kiss":
        return ruleset.kiss_carom
    if carom == "ricochet":
        return ruleset.ricochet_carom
    return 0


def foul_base(code: str, ruleset: Ruleset = DEFAULT_RULESET) -> int:
    """Return the base points of one foul: cue_pins costs only what the shot obtained."""
    if code == "red_first":
        return ruleset.red_first
    if code == "cue_pins":
        return 0
    return ruleset.foul


def _ruling(
    first_contact: str | None,
    carom: str | None,
    pins: tuple[str, ...],
    pin_points: int,
    carom_points: int,
    fouls: list[str],
    ruleset: Ruleset,
    no_score: bool,
) -> Ruling:
    bases = [foul_base(code, ruleset) for code in fouls]
    if ruleset.cumulative_fouls:
        foul_points = sum(bases)
    else:
        foul_points = max(bases, default=0)
    obtained = pin_points + carom_points
    if fouls:
        # Step 8: the opponent receives the fouls and everything the shot obtained.
        scorer: str | None = "opponent"
        points = foul_points + obtained
    else:
        scorer = "shooter"
        points = 0 if no_score else obtained
    if points == 0:
        scorer = None
    return Ruling(
        valid=not fouls,
        first_contact=first_contact,
        carom=carom,
        pins=pins,
        pin_points=pin_points,
        carom_points=carom_points,
        fouls=tuple(fouls),
        foul_points=foul_points,
        scorer=scorer,
        points=points,
        ball_in_hand=bool(fouls) and fouls != ["cue_pins"],
    )


# -- The lag (section 3) -------------------------------------------------------


@dataclass(frozen=True)
class LagResult:
    """One player's lag: distance from the bottom cushion at rest, and at most one fault."""

    distance: float
    fault: str | None = None


@dataclass(frozen=True)
class LagDecision:
    """Who won one lag ("A", "B"), or None when it must be repeated, and why."""

    winner: str | None
    reason: str


def decide_lag(
    a: LagResult,
    b: LagResult,
    collision: bool = False,
    earlier_late_starts: Mapping[str, int] | None = None,
) -> LagDecision:
    """Decide one lag; `earlier_late_starts` counts each player's late starts before it."""
    earlier = earlier_late_starts or {}
    results = {"A": a, "B": b}
    late = [p for p, r in results.items() if r.fault == "late_start"]
    if late:
        # A second late start in the match loses the lag; a first one repeats it.
        losing = [p for p in late if earlier.get(p, 0) + 1 >= 2]
        if len(losing) == 1:
            return LagDecision(_other(losing[0]), "second late start")
        return LagDecision(None, "late start")
    at_fault = [p for p, r in results.items() if r.fault is not None]
    if collision and not at_fault:
        return LagDecision(None, "the balls collided")
    if len(at_fault) == 2:
        return LagDecision(None, "both at fault")
    if len(at_fault) == 1:
        return LagDecision(_other(at_fault[0]), f"{at_fault[0]} at fault")
    if a.distance == b.distance:
        return LagDecision(None, "equal distances")
    return LagDecision("A" if a.distance < b.distance else "B", "closer to the cushion")


def _other(player: str) -> str:
    return "B" if player == "A" else "A"
