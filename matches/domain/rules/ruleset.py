"""The Regulations of a competition: every number the rules use, with the rulebook's defaults."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from typing import Any

from matches.domain.errors import EXCERPT, Refused, excerpt, join_field
from matches.domain.rules.table import BALL_DIAMETER, SPOTS

MAX_GAMES = 15  # the longest match a ruleset may set: best of 15


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

    @property
    def majority(self) -> int:
        """Return how many games win the match (section 2: the majority of `best_of`)."""
        return self.best_of // 2 + 1

    @classmethod
    def from_overrides(cls, overrides: Any, field: str | None = "ruleset") -> Ruleset:
        """Return the default ruleset with the given parameters changed, or raise Refused."""
        if overrides is None:
            return DEFAULT_RULESET
        if not isinstance(overrides, Mapping):
            raise Refused("must be an object", field)
        known = {f.name for f in fields(cls)}
        values: dict[str, Any] = {}
        for name, value in overrides.items():
            where = join_field(field, str(name)[:EXCERPT])
            if name not in known:
                raise Refused(f"unknown ruleset parameter {excerpt(name)}", where)
            values[name] = _checked_parameter(name, value, where)
        ruleset = cls(**values)
        if ruleset.best_of % 2 == 0:
            raise Refused("best_of must be odd", join_field(field, "best_of"))
        return ruleset

    def as_dict(self) -> dict[str, Any]:
        """Return every parameter, as a match record writes the ruleset in force."""
        return asdict(self)


# The range of each parameter: wide enough for any competition, narrow enough that no
# score, game count or pin cross leaves what the table and the store can hold.
RANGES: dict[str, tuple[float, float]] = {
    "target": (1, 1000),
    "best_of": (1, MAX_GAMES),
    "pin_pitch": (BALL_DIAMETER, 200.0),
}
POINTS_RANGE = (0, 100)  # every value of a pin, a carom or a foul


def _checked_parameter(name: str, value: Any, where: str | None) -> Any:
    if name == "cumulative_fouls":
        if not isinstance(value, bool):
            raise Refused("must be true or false", where)
        return value
    low, high = RANGES.get(name, POINTS_RANGE)
    if name == "pin_pitch":
        # As parsed: the hash chain seals the ruleset's numbers as written.
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not low <= value <= high
        ):
            raise Refused(f"must be from {low:g} to {high:g} millimetres", where)
        return value
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise Refused(f"must be a whole number from {low:g} to {high:g}", where)
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
