"""A competition's log folded (`CompetitionLog`), and the records a championship's fold
answers with: entrants, what a match counts for, slots' holders, playable matches,
outcomes and disputes; and the ids of knockout places and of replacements.

Pure Python. A player is known by a key (`player_key`): the federation id, else the name.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from matches.domain.draws import Planned
from matches.domain.rules.ranking import Result
from matches.domain.stages import Stage

GROUPS, KNOCKOUT = "groups", "knockout"


def player_key(player: Mapping[str, Any]) -> str:
    """Return the key of a player as a record names them: federation id, else name."""
    federation_id = player.get("federation_id")
    return str(federation_id) if federation_id else f"name:{player['name']}"


@dataclass(frozen=True)
class Entrant:
    key: str
    name: str
    federation_id: str | None
    seed: int
    withdrawn: bool = False

    def record(self) -> dict[str, Any]:
        entry: dict[str, Any] = {"name": self.name}
        if self.federation_id:
            entry["federation_id"] = self.federation_id
        return entry


@dataclass(frozen=True)
class Played:
    """What one match of a stage counts for: its status, winner side, and result."""

    status: str  # scheduled (no event), lag, playing, finished, review, void
    result: Result  # its players are the header's keys (A, B)
    winner: str | None = None  # "A" or "B", once finished
    changed: int = 0  # the global id of the event that last changed what it shows

    @property
    def started(self) -> bool:
        return self.status != "scheduled"

    @property
    def decided(self) -> bool:
        return self.status == "finished" and self.winner is not None

    def voided(self) -> Played:
        """Return the match as a decision leaves it void: counted nowhere."""
        return Played("void", Result(self.result.players), None, self.changed)


@dataclass
class CompetitionLog:
    """A competition's log folded: its entrants by key and each stage's draw."""

    entrants: dict[str, Entrant] = field(default_factory=dict)
    draws: dict[str, dict[str, Any]] = field(default_factory=dict)
    # The decisions on disputes, each slot's in order; and each voided match's replacement.
    decisions: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    replaced: dict[str, str] = field(default_factory=dict)

    def apply(self, event: Mapping[str, Any], version: int = 0) -> None:
        kind = event["type"]
        if kind == "player_entered":
            entrant = Entrant(
                player_key(event["player"]),
                event["player"]["name"],
                event["player"].get("federation_id"),
                event["seed"],
            )
            self.entrants[entrant.key] = entrant
        elif kind == "players_seeded":
            for seeded in event["seeds"]:
                key = player_key(seeded["player"])
                self.entrants[key] = replace(self.entrants[key], seed=seeded["seed"])
        elif kind == "player_withdrawn":
            key = player_key(event["player"])
            found = self.entrants[key]
            self.entrants[key] = Entrant(
                found.key, found.name, found.federation_id, found.seed, withdrawn=True
            )
        elif kind == "stage_drawn":
            self.draws[event["stage"]] = dict(event)
        elif kind == "draw_undone":
            self.draws.pop(event["stage"], None)
        elif kind == "dispute_decided":
            self.decisions.setdefault(event["slot"], []).append({**event, "version": version})
            if not event["keep"]:
                self.replaced[event["match"]] = event["replacement"]
                # A place in a group drawn from another stage voids each match it began.
                self.replaced.update(event.get("voided", {}))

    def replacing(self, match_id: str) -> dict[str, Any] | None:
        """Return the decision that voided the match `match_id` replaces, if it is one,
        naming that match."""
        for decisions in self.decisions.values():
            for decision in decisions:
                if decision["keep"]:
                    continue
                if decision["replacement"] == match_id:
                    return decision
                for voided, replacement in decision.get("voided", {}).items():
                    if replacement == match_id:
                        return {**decision, "match": voided, "replacement": replacement}
        return None

    def by_seed(self) -> list[Entrant]:
        return sorted(self.entrants.values(), key=lambda entrant: entrant.seed)


def fold_competition_log(
    events: Sequence[Mapping[str, Any]], versions: Sequence[int] = ()
) -> CompetitionLog:
    """Fold a competition's log; `versions`, the global id of each event where known."""
    competition_log = CompetitionLog()
    for index, event in enumerate(events):
        competition_log.apply(event, versions[index] if index < len(versions) else 0)
    return competition_log


@dataclass(frozen=True)
class Holder:
    """Who holds a slot: an entrant's key, a bye, or nobody yet (unsettled)."""

    key: str | None
    bye: bool = False

    @property
    def settled(self) -> bool:
        return self.bye or self.key is not None


UNSETTLED = Holder(None)
A_BYE = Holder(None, bye=True)


@dataclass(frozen=True)
class Playable:
    """A match both of whose slots are settled, not made yet: what the service creates (a
    knockout's, or a replacement in a group drawn from another stage's)."""

    id: str
    stage: Stage
    slot: str  # its place in the stage: "1-3", "3rd", or a group's "A3"
    players: tuple[Entrant, Entrant]
    group: str = ""


@dataclass(frozen=True)
class Outcome:
    winner: Holder
    loser: Holder


@dataclass(frozen=True)
class Dispute:
    """A started match whose slot is held, as amended, by another than its player."""

    slot: str  # the slot that feeds it: `groups:B2`, `W:ko-1-3`
    match: str  # the started match's id
    side: int  # 0 for A, 1 for B
    as_played: str  # the key of who plays it
    as_amended: str | None  # the key of who holds the slot now (None: undecided)
    since: int  # the newest event that made the slot's holder what it is now

    def view(self, names: Mapping[str, str]) -> dict[str, Any]:
        """Return the dispute as the API shows it: names, not keys."""
        return {
            "slot": self.slot,
            "match": self.match,
            "side": "AB"[self.side],
            "as_played": names.get(self.as_played, self.as_played),
            "as_amended": names.get(self.as_amended) if self.as_amended else None,
            "since": self.since,
        }


def place_name(planned: Planned) -> str:
    return "3rd" if planned.number == 0 else f"{planned.round}-{planned.number}"


def original_id(match_id: str) -> str:
    """Return the id of the match a replacement replaces first: `{id}` of `{id}-r3`."""
    return re.sub(r"-r\d+\Z", "", match_id)


def replacement_id(match_id: str) -> str:
    """Return the id of a voided match's replacement: `{id}-r2`, then `-r3`, ..."""
    base, _, number = match_id.rpartition("-r")
    if base and number.isdigit():
        return f"{base}-r{int(number) + 1}"
    return f"{match_id}-r2"


def place_id(stage_id: str, planned: Planned) -> str:
    """Return the name a knockout place is known by, its winner and loser too (`ko-1-3`)."""
    return f"{stage_id}-{planned.round}-{planned.number}"
