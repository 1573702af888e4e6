"""A match's header: its players, their balls and the ruleset, as a record writes them.

Pure Python: no Django. The header is what every event of a match is judged
against, and what the hash chain seals before event 1.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from matches.domain.errors import EXCERPT, Refused, join_field
from matches.domain.notation import (
    LONGEST,
    SLUG,
    check_json,
    expect_choice,
    expect_federation_id,
    expect_object,
    expect_text,
    is_date,
)
from matches.domain.rules import PLAYERS, Ruleset


@dataclass(frozen=True)
class Header:
    """What a match's events are judged against: players, their balls, the ruleset."""

    players: Mapping[str, Mapping[str, Any]]
    balls: Mapping[str, str]
    ruleset: Ruleset

    def ball_of(self, player: str) -> str:
        """Return the cue ball of a player."""
        return self.balls[player]

    def sealed(self) -> dict[str, Any]:
        """Return the part of the header the hash chain seals."""
        return {
            "balls": dict(self.balls),
            "players": {p: dict(v) for p, v in self.players.items()},
            "ruleset": self.ruleset.as_dict(),
        }


def parse_header(obj: Any, prefix: str = "match") -> tuple[dict[str, Any], Header]:
    """Return the match header of a record (normalised) and its Header, or raise."""
    obj = expect_object(obj, prefix)
    match = dict(obj)
    if "id" in obj:
        if not isinstance(obj["id"], str) or not SLUG.match(obj["id"]):
            raise Refused("must be a slug (letters, digits, - _ .)", join_field(prefix, "id"))
    if obj.get("competition") is not None:
        if not isinstance(obj["competition"], str) or not SLUG.match(obj["competition"]):
            raise Refused(
                "must be a slug (letters, digits, - _ .)", join_field(prefix, "competition")
            )
    check_json(obj, prefix or None)
    _check_header_texts(obj, prefix)
    players_obj = expect_object(obj.get("players"), join_field(prefix, "players"))
    players: dict[str, dict[str, Any]] = {}
    for player in PLAYERS:
        where = join_field(prefix, f"players.{player}")
        entry = dict(expect_object(players_obj.get(player), where))
        expect_text(entry.get("name"), f"{where}.name", longest=LONGEST["name"])
        expect_federation_id(entry.get("federation_id"), f"{where}.federation_id")
        # Kept as written (other keys too): the hash chain seals the players as the record has them.
        _refuse_negative_zero(entry, where)
        players[player] = entry
    _refuse_one_player_twice(players, join_field(prefix, "players.B"))
    balls_obj = expect_object(
        obj.get("balls", {"A": "white", "B": "yellow"}), join_field(prefix, "balls")
    )
    balls = {
        player: expect_choice(
            balls_obj.get(player),
            ("white", "yellow"),
            "ball",
            join_field(prefix, f"balls.{player}"),
        )
        for player in PLAYERS
    }
    if balls["A"] == balls["B"]:
        raise Refused("the players need different balls", join_field(prefix, "balls.B"))
    ruleset = Ruleset.from_overrides(obj.get("ruleset"), join_field(prefix, "ruleset"))
    match.update(players=players, balls=balls, ruleset=ruleset.as_dict())
    return match, Header(players=players, balls=balls, ruleset=ruleset)


def _refuse_one_player_twice(players: Mapping[str, Mapping[str, Any]], where: str | None) -> None:
    """Refuse a match of a player against themself: one federation id, or one name without."""
    a, b = players["A"], players["B"]
    if a.get("federation_id") and a.get("federation_id") == b.get("federation_id"):
        raise Refused(
            "is player A's federation id: a player cannot play themself",
            join_field(where, "federation_id"),
        )
    if not a.get("federation_id") and not b.get("federation_id") and a["name"] == b["name"]:
        raise Refused(
            "is player A's name: a player cannot play themself", join_field(where, "name")
        )


def _refuse_negative_zero(value: Any, where: str) -> None:
    """Refuse -0.0 in a player's entry: PostgreSQL's jsonb keeps it as 0, changing the seal."""
    pending: list[tuple[Any, str]] = [(value, where)]
    while pending:
        item, at = pending.pop()
        if type(item) is float and item == 0 and math.copysign(1.0, item) < 0:
            raise Refused("must not be -0.0 (a database keeps it as 0)", at)
        if type(item) is dict:
            pending.extend((v, join_field(at, str(k)[:EXCERPT])) for k, v in item.items())
        elif type(item) is list:
            pending.extend((v, f"{at}[{i}]") for i, v in enumerate(item))


def _check_header_texts(obj: Mapping[str, Any], prefix: str) -> None:
    for key in ("stage", "table"):
        value = obj.get(key)
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, int | str):
            raise Refused("must be a string", join_field(prefix, key))
        if len(str(value)) > LONGEST[key]:
            raise Refused(f"must be at most {LONGEST[key]} characters", join_field(prefix, key))
    day = obj.get("date")
    if day is not None and not is_date(day):
        raise Refused("must be a date, YYYY-MM-DD", join_field(prefix, "date"))
    referee = obj.get("referee")
    if referee is not None:
        referee = expect_object(referee, join_field(prefix, "referee"))
        expect_text(
            referee.get("name"),
            join_field(prefix, "referee.name"),
            required=False,
            longest=LONGEST["name"],
        )
        expect_text(
            referee.get("username"),
            join_field(prefix, "referee.username"),
            required=False,
            longest=LONGEST["username"],
        )
