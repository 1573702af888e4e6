"""Sections 4 to 7, 12 to 14: the ruling of one shot, from its contacts and called fouls.

`judge` follows the steps of the project's rules reference (README, "The rules")
in order; each step names the rulebook clause it applies.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from matches.domain.rules.ruleset import DEFAULT_RULESET, Ruleset
from matches.domain.rules.table import BALLS, PINS, WHITE_PINS, opponent_ball

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


@dataclass(frozen=True)
class Ruling:
    """The referee's decision on one shot, as the notation spells it."""

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
