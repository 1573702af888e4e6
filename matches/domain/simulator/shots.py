"""Simulated shots: the contacts of a plausible stroke, and a referee's amendment of one."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from matches.domain.rules import BALLS, CALLED_FOULS, opponent_ball

# Pins a ball knocks in one contact, with how often: mostly one or two side pins,
# sometimes the red pin alone (the big score), now and then a line through the centre.
PIN_GROUPS: tuple[tuple[tuple[str, ...], float], ...] = (
    (("left",), 10),
    (("right",), 10),
    (("top",), 10),
    (("bottom",), 10),
    (("top", "left"), 3),
    (("top", "right"), 3),
    (("bottom", "left"), 3),
    (("bottom", "right"), 3),
    (("center",), 6),
    (("center", "left"), 1.5),
    (("center", "right"), 1.5),
    (("center", "top"), 1.5),
    (("center", "bottom"), 1.5),
    (("left", "center", "right"), 1),
    (("top", "center", "bottom"), 1),
)
STROKE_CALLS = ("feet", "double_hit", "push_shot", "not_tip", "jump", "balls_moving")


class ShotBuilder:
    """One shot as a referee would record it: the contacts in order and any called foul."""

    def __init__(self, rng: random.Random, cue: str, skill: float) -> None:
        self.rng = rng
        self.cue = cue
        self.opponent = opponent_ball(cue)
        self.skill = skill
        self.struck = cue
        self.contacts: list[dict[str, Any]] = []
        self.fallen: set[str] = set()
        self.off: set[str] = set()

    def facts(self) -> dict[str, Any]:
        rng, weakness = self.rng, 1.4 - self.skill
        kind = weighted(
            rng,
            (
                ("miss", 0.05 * weakness),
                ("red_first", 0.03 * weakness),
                ("pins_first", 0.02 * weakness),
                ("wrong_ball", 0.002),
                ("valid", 1.0),
            ),
        )
        getattr(self, f"_{kind}")()
        facts: dict[str, Any] = {"contacts": self.contacts}
        if self.struck != self.cue:
            facts["struck"] = self.struck
        if rng.random() < 0.02 * weakness:
            facts["called"] = [rng.choice(STROKE_CALLS)]
        return facts

    def moved(self) -> set[str]:
        moved = {self.struck}
        for contact in self.contacts:
            moved.add(contact["ball"])
            if contact["hit"] in BALLS:
                moved.add(contact["hit"])
        return moved

    def hit(self, ball: str, what: str, same_time: bool = False) -> None:
        contact: dict[str, Any] = {"ball": ball, "hit": what}
        if same_time:
            contact["same_time"] = True
        self.contacts.append(contact)

    def cushions(self, ball: str, most: int) -> None:
        for _ in range(self.rng.randint(0, most)):
            self.hit(ball, "cushion")

    def pins(self, ball: str) -> None:
        groups = [(g, w) for g, w in PIN_GROUPS if not self.fallen.intersection(g)]
        if groups:
            group = weighted(self.rng, groups)
            self.fallen.update(group)
            self.contacts.append({"ball": ball, "hit": "pins", "pins": list(group)})

    def leaves_table(self, ball: str) -> None:
        self.hit(ball, "off")
        self.off.add(ball)

    def _valid(self) -> None:
        rng, cue, opponent = self.rng, self.cue, self.opponent
        self.cushions(cue, 2)
        self.hit(cue, opponent)
        if rng.random() < 0.03:
            self.hit(cue, "red", same_time=True)  # a kiss at the very first contact
        caroms = rng.random()
        if caroms < 0.38 + 0.3 * self.skill:
            self.pins(opponent)
        if caroms < 0.08:
            self.hit(cue, "red")
            if rng.random() < 0.3:
                self.pins("red")
        elif caroms < 0.15:
            self.hit(opponent, "red")
            if rng.random() < 0.4:
                self.pins("red")
        self.cushions(opponent, 1)
        if rng.random() < 0.08 - 0.04 * self.skill:
            self.pins(cue)  # the cue ball on the pins after the valid hit
        if rng.random() < 0.012:
            self.leaves_table(rng.choice(sorted(self.moved())))

    def _miss(self) -> None:
        self.cushions(self.cue, 3)
        if self.rng.random() < 0.08:
            self.leaves_table(self.cue)

    def _red_first(self) -> None:
        self.cushions(self.cue, 1)
        self.hit(self.cue, "red")
        if self.rng.random() < 0.3:
            self.pins("red")
        if self.rng.random() < 0.4:
            self.hit(self.cue, self.opponent)

    def _pins_first(self) -> None:
        self.pins(self.cue)
        if self.rng.random() < 0.5:
            self.hit(self.cue, self.opponent)
            if self.rng.random() < 0.2:
                self.pins(self.opponent)

    def _wrong_ball(self) -> None:
        self.struck = self.opponent
        self.hit(self.opponent, self.cue)
        if self.rng.random() < 0.3:
            self.pins(self.cue)


def amended(
    rng: random.Random, facts: Mapping[str, Any], own: str, skill: float
) -> tuple[dict[str, Any], str]:
    """Return corrected facts for a shot, and the referee's reason."""
    contacts = [dict(c) for c in facts.get("contacts", [])]
    called = list(facts.get("called", []))
    pins_contacts = [i for i, c in enumerate(contacts) if c["hit"] == "pins"]
    fallen = {pin for c in contacts for pin in c.get("pins", [])}
    moving = {facts.get("struck", own)} | {c["ball"] for c in contacts}
    moving |= {c["hit"] for c in contacts if c["hit"] in BALLS}
    moving -= {c["ball"] for c in contacts if c["hit"] == "off"}
    standing = [pin for pin in ("left", "right", "top", "bottom", "center") if pin not in fallen]
    choice = rng.random()
    corrected: dict[str, Any] = {k: v for k, v in facts.items() if k != "contacts"}
    if choice < 0.35 and standing and moving - {own}:
        pin = rng.choice(standing)
        ball = rng.choice(sorted(moving - {own}))
        contacts.append({"ball": ball, "hit": "pins", "pins": [pin]})
        reason = f"video review: the {pin} pin fell"
    elif choice < 0.6 and pins_contacts:
        removed = contacts.pop(rng.choice(pins_contacts))
        reason = f"the {removed['pins'][0]} pin wobbled and stood"
    elif choice < 0.8 and len(called) < 2:
        code = rng.choice([c for c in CALLED_FOULS if c not in called])
        called.append(code)
        reason = f"foul seen on video: {code.replace('_', ' ')}"
    elif called:
        code = called.pop()
        reason = f"no foul: the {code.replace('_', ' ')} call withdrawn"
    else:
        regenerated = ShotBuilder(rng, own, skill)
        corrected = regenerated.facts()
        if "rest" in facts and not regenerated.off:
            rest = facts["rest"]
            corrected["rest"] = {b: p for b, p in rest.items() if b in regenerated.moved()}
        return corrected, "contacts entered wrongly"
    corrected["contacts"] = contacts
    if called:
        corrected["called"] = called
    else:
        corrected.pop("called", None)
    return corrected, reason


def weighted(rng: random.Random, choices: Sequence[tuple[Any, float]]) -> Any:
    total = sum(weight for _, weight in choices)
    point = rng.random() * total
    for value, weight in choices:
        point -= weight
        if point < 0:
            return value
    return choices[-1][0]
