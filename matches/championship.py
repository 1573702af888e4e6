"""A competition in stages as its logs make it: groups, bracket, slots and final ranking.

Pure Python, a fold like a match's: the competition's log (entries, seeds, draws,
withdrawals) and what each of its matches counts for (`Played`) give every stage's
groups with their tables, every knockout's rounds with the holders of their slots,
the matches that have become playable, and the final ranking (README, "Competitions and standings").
The same inputs up to a version V give the views "as of V".

A player is known by a key (`player_key`): the federation id, else the name.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from matches.draws import (
    BYE,
    Planned,
    check_groups_fit,
    check_knockout_fits,
    group_names,
    group_plan,
    groups_from_groups,
    knockout_plan,
    qualifiers,
    snake,
)
from matches.errors import Refused
from matches.rules.ranking import Result, Table, Totals, rank, row
from matches.stages import Stage

GROUPS, KNOCKOUT = "groups", "knockout"
Answer = TypeVar("Answer")


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


@dataclass(frozen=True)
class _Earlier:
    """What a previous fold of the same competition log answered, for the groups it can give
    again."""

    played: Mapping[str, Played]
    members: dict[tuple[str, str], list[str | None]]
    tables: dict[tuple[str, str], tuple[list[str], Table]]
    group_views: dict[tuple[str, str], dict[str, Any]]


class Championship:
    """The stages of one competition, from its competition log and its matches' results."""

    def __init__(
        self,
        competition: str,
        stages: Sequence[Stage],
        competition_log: CompetitionLog,
        played: Mapping[str, Played],
        previous: Championship | None = None,
    ) -> None:
        """`previous`, a fold of the same competition log with other results (the one before a
        batch of events): each group whose matches count as they did there is taken from it,
        table and view, instead of being ranked again."""
        self.competition = competition
        self.stages = list(stages)
        self.log = competition_log
        self.played = played
        # Memos: a championship is a fold of fixed inputs, so each answer is asked once.
        self._places: dict[tuple[str, str], list[str] | None] = {}
        self._outcomes: dict[str, Outcome | None] = {}
        self._members: dict[tuple[str, str], list[str | None]] = {}
        self._group_matches: dict[tuple[str, str], list[tuple[str, str, str, int]]] = {}
        self._tables: dict[tuple[str, str], tuple[list[str], Table]] = {}
        self._group_views: dict[tuple[str, str], dict[str, Any]] = {}
        self._memo: dict[str, Any] = {}
        self._holders: dict[str, Holder] = {}
        self._seeded = {entrant.seed: entrant for entrant in competition_log.entrants.values()}
        # The previous fold's answers, not the fold itself: no chain of folds is kept.
        self._earlier = (
            _Earlier(previous.played, previous._members, previous._tables, previous._group_views)
            if previous is not None and previous.log is competition_log
            else None
        )

    def with_played(self, played: Mapping[str, Played]) -> Championship:
        """Return the same competition log's fold with what its matches count for replaced."""
        return Championship(self.competition, self.stages, self.log, played)

    # -- Slots -------------------------------------------------------------------------

    def stage(self, stage_id: str) -> Stage:
        return next(stage for stage in self.stages if stage.id == stage_id)

    def holder(self, slot: str) -> Holder:
        """Return who holds a slot now: `ko:S5`, `groups:A1`, `W:ko-1-3`, `L:ko-2-1`, `BYE`.

        The holder the draw goes on with: a group's place whose started match waits for a
        decision is held by who plays it; any other place by its holder as amended, unless
        he plays such a match, so that no player is drawn into two matches of a round: the
        place then waits for that decision.
        """
        if slot not in self._holders:
            self._holders[slot] = self._held(slot, as_amended=False)
        return self._holders[slot]

    def amended_holder(self, slot: str) -> Holder:
        """Return who holds a slot as amended: a group's place as its table ranks it now,
        each place whose match staff kept as played left to who plays it (what a dispute
        compares with who plays it)."""
        return self._held(slot, as_amended=True)

    def _held(self, slot: str, as_amended: bool) -> Holder:
        if slot == BYE:
            return A_BYE
        if as_amended and self._through_bye(slot) != slot:
            return self._held(self._through_bye(slot), as_amended=True)
        if slot[:2] in ("W:", "L:"):
            outcome = self._outcome(slot[2:])
            if outcome is None:
                return UNSETTLED
            if not as_amended:
                outcome = self._as_played_on(slot[2:], outcome)
            return outcome.winner if slot[0] == "W" else outcome.loser
        stage_id, _, place = slot.partition(":")
        if place.startswith("S"):
            found = self._seeded.get(int(place[1:]))
            return Holder(found.key) if found else UNSETTLED
        places = self.group_places(stage_id, place[0])
        number = int(place[1:])
        if places is None or number > len(places):
            return UNSETTLED
        amended, going_on = self._assigned(stage_id, place[0])
        key = (amended if as_amended else going_on)[number]
        if key is None:
            return UNSETTLED
        return UNSETTLED if self.log.entrants[key].withdrawn else Holder(key)

    def _assigned(
        self, stage_id: str, group: str
    ) -> tuple[dict[int, str | None], dict[int, str | None]]:
        """Return a settled group's places as amended and as the draw goes on with them.

        As amended: each place whose started match staff kept as played (or that its
        player holds by the table) pinned to who plays it, the others taken in order by
        the players not pinned. As the draw goes on: a place whose started match is
        disputed and not yet decided held by who plays it; any other by its holder as
        amended, or by no one while he plays a match still waiting for its decision.
        """
        memo = f"assigned {stage_id} {group}"
        if memo not in self._memo:
            places = self.group_places(stage_id, group) or []
            numbers = range(1, len(places) + 1)
            playing = self._playing(stage_id, group, len(places))
            pinned = {n: key for n, (key, _, _) in playing.items() if key == places[n - 1]}
            amended = _in_order(places, pinned)
            # A decision to keep a match pins its player; each pin can answer another.
            grew = True
            while grew:
                grew = False
                for n, (key, match_id, slot) in playing.items():
                    if n not in pinned and self._answered(slot, match_id, amended[n]):
                        pinned[n] = key
                        amended = _in_order(places, pinned)
                        grew = True
            waiting = {n: key for n, (key, _, _) in playing.items() if n not in pinned}
            going_on = {
                n: waiting[n]
                if n in waiting
                else (None if amended[n] in waiting.values() else amended[n])
                for n in numbers
            }
            self._memo[memo] = (amended, going_on)
        assigned: tuple[dict[int, str | None], dict[int, str | None]] = self._memo[memo]
        return assigned

    def _playing(self, stage_id: str, group: str, size: int) -> dict[int, tuple[str, str, str]]:
        """Return each place of a group whose match has started and counts: who plays it,
        the match, and the slot it plays from."""
        playing = {}
        for number in range(1, size + 1):
            slot = f"{stage_id}:{group}{number}"
            fed = self._feeds().get(slot)
            if fed is not None:
                planned, side, feeding = fed
                assert planned.id is not None
                match_id = self.current(planned.id)
                if (played := self.begun(match_id)) is not None:
                    playing[number] = (str(played.result.players[side]), match_id, feeding)
            elif (begun := self.position_begun(slot)) is not None:
                key, match_id, _ = begun
                playing[number] = (key, match_id, slot)
        return playing

    def _positions(self) -> dict[str, tuple[str, str, int]]:
        """Return each slot a groups stage drawn from another's takes: its stage, group,
        and place among the group's entries (0-based)."""
        if "positions" not in self._memo:
            self._memo["positions"] = {
                slot: (stage.id, group, index)
                for stage in self.stages
                if stage.kind == GROUPS and stage.source and stage.id in self.log.draws
                for group, slots in self.log.draws[stage.id]["groups"].items()
                for index, slot in enumerate(slots)
            }
        found: dict[str, tuple[str, str, int]] = self._memo["positions"]
        return found

    def position_matches(self, slot: str) -> list[tuple[str, int]]:
        """Return the matches a slot of a groups stage drawn from another's plays: each
        match that plays them now (a replacement, once one is made) and its side."""
        found = self._positions().get(slot)
        if found is None:
            return []
        stage_id, group, index = found
        size = len(self.log.draws[stage_id]["groups"][group])
        return [
            (self.current(planned.id), 0 if planned.a == index else 1)
            for planned in group_plan(self.competition, stage_id, group, size)
            if index in (planned.a, planned.b)
        ]

    def position_begun(self, slot: str) -> tuple[str, str, int] | None:
        """Return who plays a slot of a groups stage drawn from another's, once one of its
        matches has begun and counts: his key, that match (the first), and his side."""
        for match_id, side in self.position_matches(slot):
            if (played := self.begun(match_id)) is not None:
                return str(played.result.players[side]), match_id, side
        return None

    def _feeds(self) -> dict[str, tuple[Planned, int, str]]:
        """Return the knockout match each group's place feeds, of every drawn stage: its
        place, its side, and the slot it is played from. A place with a bye feeds the
        match its bye's winner plays, from the slot `W:` of the bye."""
        if "feeds" not in self._memo:
            feeds = {}
            for stage in self.stages:
                if stage.kind == KNOCKOUT and stage.id in self.log.draws:
                    for planned in self._plan(stage.id):
                        if planned.id is None:
                            continue
                        for side, slot in enumerate(planned.slots):
                            fed = self._through_bye(slot)
                            if fed[:2] not in ("W:", "L:") and fed != BYE:
                                feeds[fed] = (planned, side, slot)
            self._memo["feeds"] = feeds
        found: dict[str, tuple[Planned, int, str]] = self._memo["feeds"]
        return found

    def _as_played_on(self, place: str, outcome: Outcome) -> Outcome:
        """Return a decided place's winner and loser as the draw goes on: when a match it
        feeds began with the other of its two players (its loser as amended in the match its
        winner feeds, or its winner as amended in the third-place match), waiting for a
        decision or kept, the place goes on as played, so that no one holds two places."""
        for fed_slot, expected in ((f"W:{place}", outcome.winner), (f"L:{place}", outcome.loser)):
            fed = self._outcome_feeds().get(fed_slot)
            if fed is None:
                continue
            planned, side = fed
            assert planned.id is not None
            played = self.begun(self.current(planned.id))
            if played is None:
                continue
            other = outcome.loser if expected is outcome.winner else outcome.winner
            if str(played.result.players[side]) == other.key:
                return Outcome(outcome.loser, outcome.winner)
        return outcome

    def _outcome_feeds(self) -> dict[str, tuple[Planned, int]]:
        """Return the place and side each knockout winner's or loser's slot (`W:ko-1-3`,
        `L:ko-2-1`) feeds."""
        if "outcome feeds" not in self._memo:
            self._memo["outcome feeds"] = {
                slot: (planned, side)
                for stage in self.stages
                if stage.kind == KNOCKOUT and stage.id in self.log.draws
                for planned in self._plan(stage.id)
                if planned.id is not None
                for side, slot in enumerate(planned.slots)
                if slot[:2] in ("W:", "L:")
            }
        found: dict[str, tuple[Planned, int]] = self._memo["outcome feeds"]
        return found

    def reached(self, slots: Iterable[str]) -> set[str]:
        """Return the slots whose holders follow these: these, each place of a group drawn
        from another stage's that one of them enters, and each bye's winner whose player
        holds one of them."""
        found = set(slots)
        for stage in self.stages:
            if stage.kind == GROUPS and stage.source and stage.id in self.log.draws:
                for group, entering in self.log.draws[stage.id]["groups"].items():
                    if found & set(entering):
                        found |= {f"{stage.id}:{group}{n}" for n in range(1, len(entering) + 1)}
            if stage.kind == KNOCKOUT and stage.id in self.log.draws:
                for planned in self._plan(stage.id):
                    if planned.id is None and planned.slots[0] in found:
                        found.add(f"W:{place_id(stage.id, planned)}")
        return found

    def _through_bye(self, slot: str) -> str:
        """Return the slot a bye's winner (`W:` of a place with a bye) stands for: the
        bye's player's own; any other slot as it is."""
        if slot[:2] == "W:":
            planned = self._planned(slot[2:])
            if planned is not None and planned.id is None:
                return planned.slots[0]
        return slot

    def members(self, stage_id: str, group: str) -> list[str | None]:
        memo = (stage_id, group)
        if memo not in self._members:
            draw = self.log.draws[stage_id]
            self._members[memo] = [self.holder(slot).key for slot in draw["groups"][group]]
        return self._members[memo]

    def group_matches(self, stage_id: str, group: str) -> list[tuple[str, str, str, int]]:
        """Return each match of a group: its id, A's and B's keys, its round."""
        memo = (stage_id, group)
        if memo not in self._group_matches:
            members = self.members(stage_id, group)
            self._group_matches[memo] = [
                (
                    self.current(planned.id),
                    members[planned.a] or "",
                    members[planned.b] or "",
                    planned.round,
                )
                for planned in group_plan(self.competition, stage_id, group, len(members))
            ]
        return self._group_matches[memo]

    def _as_earlier(self, memo: tuple[str, str]) -> _Earlier | None:
        """Return the previous fold's answers if this group's inputs are the same there:
        its members, and what each of its matches counts for."""
        earlier = self._earlier
        if earlier is None or earlier.members.get(memo) != self.members(*memo):
            return None
        if self.stage(memo[0]).source:  # its disputes follow the stage it is drawn from
            return None
        for match_id, _, _, _ in self.group_matches(*memo):
            was, now = earlier.played.get(match_id), self.played.get(match_id)
            if was is not now and was != now:
                return None
        return earlier

    def group_table(self, stage_id: str, group: str) -> tuple[list[str], Table]:
        """Return a group's members in order of their places now, and its table."""
        return self._of_group(
            (stage_id, group),
            self._tables,
            lambda earlier: earlier.tables,
            lambda: self._group_table(stage_id, group),
        )

    def _of_group(
        self,
        memo: tuple[str, str],
        mine: dict[tuple[str, str], Answer],
        theirs: Callable[[_Earlier], dict[tuple[str, str], Answer]],
        make: Callable[[], Answer],
    ) -> Answer:
        """Return a group's answer once: the previous fold's, if the group's inputs are the
        same there and it has one, else made now."""
        if memo not in mine:
            earlier = self._as_earlier(memo)
            found = theirs(earlier) if earlier is not None else {}
            mine[memo] = found[memo] if memo in found else make()
        return mine[memo]

    def _group_table(self, stage_id: str, group: str) -> tuple[list[str], Table]:
        members = [key for key in self.members(stage_id, group) if key is not None]
        table = Table()
        for match_id, _, _, _ in self.group_matches(stage_id, group):
            played = self.played_of(match_id)
            if played is not None and played.status != "void":
                table.put(match_id, played.result)
        entrants = self.log.entrants
        totals: dict[Hashable, Totals] = {key: table.totals.get(key, Totals()) for key in members}
        active = [key for key in members if not entrants[key].withdrawn]
        ordered = rank(
            active,
            totals,
            table.against,
            {key: entrants[key].name for key in members},
            {key: entrants[key].seed for key in members},
        )
        withdrawn = sorted(
            (key for key in members if entrants[key].withdrawn), key=lambda k: entrants[k].seed
        )
        return [*map(str, ordered), *withdrawn], table

    def group_settled(self, stage_id: str, group: str) -> bool:
        return all(
            (played := self.played_of(match_id)) is not None and played.decided
            for match_id, _, _, _ in self.group_matches(stage_id, group)
        )

    def group_places(self, stage_id: str, group: str) -> list[str] | None:
        """Return a group's players by place once it is settled, else None."""
        memo = (stage_id, group)
        if memo not in self._places:
            draw = self.log.draws.get(stage_id)
            if draw is None or group not in draw["groups"] or not self.group_settled(*memo):
                self._places[memo] = None
            else:
                self._places[memo] = self.group_table(stage_id, group)[0]
        return self._places[memo]

    def knockout_places(self, stage_id: str) -> list[Planned]:
        """Return a drawn knockout's places, round by round."""
        return self._plan(stage_id)

    def _plan(self, stage_id: str) -> list[Planned]:
        memo = f"plan {stage_id}"
        if memo not in self._memo:
            stage = self.stage(stage_id)
            draw = self.log.draws[stage_id]
            self._memo[memo] = knockout_plan(
                self.competition, stage_id, draw["seeds"], draw["size"], stage.third_place
            )
        plan: list[Planned] = self._memo[memo]
        return plan

    def _places_held(self, stage_id: str) -> dict[str, list[Planned]]:
        """Return the places of a knockout each player holds: a place whose match has begun
        (and counts) by the two who play it, as played; any other by its slots' holders."""
        memo = f"held {stage_id}"
        if memo not in self._memo:
            held: dict[str, list[Planned]] = {}
            for planned in self._plan(stage_id):
                played = self.begun(self.current(planned.id)) if planned.id else None
                if played is not None:
                    keys = [str(key) for key in played.result.players]
                else:
                    keys = [key for slot in planned.slots if (key := self.holder(slot).key)]
                for key in keys:
                    held.setdefault(key, []).append(planned)
            self._memo[memo] = held
        found: dict[str, list[Planned]] = self._memo[memo]
        return found

    def _outcome(self, place: str) -> Outcome | None:
        """Return the winner and loser of a knockout place (`ko-1-3`) once decided."""
        if place not in self._outcomes:
            self._outcomes[place] = self._decide(place)
        return self._outcomes[place]

    def _decide(self, place: str) -> Outcome | None:
        planned = self._planned(place)
        if planned is None:
            return None
        if planned.id is None:  # a bye: its player goes on from the draw
            a = self.holder(planned.slots[0])
            return Outcome(a, A_BYE) if a.settled else None
        # A match played stands as played: its winner goes on, whatever its slots say now
        # (a slot disputed since is decided by staff, never rewritten).
        played = self.played_of(self.current(planned.id))
        if played is None or not played.decided:
            return None
        won = played.result.players[0 if played.winner == "A" else 1]
        lost = played.result.players[1 if played.winner == "A" else 0]
        return Outcome(Holder(str(won)), Holder(str(lost)))

    def _planned(self, place: str) -> Planned | None:
        """Return the planned place a name (`ko-1-3`) names, if its stage is drawn."""
        stage_id, _, numbers = place.partition("-")
        if stage_id not in self.log.draws:
            return None
        round_text, _, number_text = numbers.partition("-")
        return next(
            (
                p
                for p in self._plan(stage_id)
                if p.round == int(round_text) and p.number == int(number_text)
            ),
            None,
        )

    def current(self, match_id: str) -> str:
        """Return the match that plays a place now: its own, or its last replacement."""
        return self._replaced_chain(match_id)[-1]

    def slots_of(self, match_id: str) -> tuple[str, ...]:
        """Return the two slots that give a match its players (side A's first): a knockout
        place's, or the places of a group drawn from another stage's; none for another."""
        placed = self.place_of(match_id)
        if placed is not None:
            return placed[1].slots
        for stage in self.stages:
            if stage.kind == GROUPS and stage.source and stage.id in self.log.draws:
                for group, slots in self.log.draws[stage.id]["groups"].items():
                    for planned in group_plan(self.competition, stage.id, group, len(slots)):
                        if self.current(planned.id) == match_id:
                            return slots[planned.a], slots[planned.b]
        return ()

    def place_of(self, match_id: str) -> tuple[str, Planned] | None:
        """Return the knockout stage and place a match plays (itself or as a replacement)."""
        for stage in self.stages:
            if stage.kind == KNOCKOUT and stage.id in self.log.draws:
                for planned in self._plan(stage.id):
                    if planned.id is not None and self.current(planned.id) == match_id:
                        return stage.id, planned
        return None

    def played_of(self, match_id: str) -> Played | None:
        """Return what a match counts for: nothing once a decision voided it."""
        played = self.played.get(match_id)
        if played is not None and match_id in self.log.replaced:
            return played.voided()
        return played

    def begun(self, match_id: str) -> Played | None:
        """Return what a match counts for once it has begun and is not void, else None."""
        played = self.played_of(match_id)
        if played is None or not played.started or played.status == "void":
            return None
        return played

    # -- Disputes ----------------------------------------------------------------------

    def disputes(self) -> list[Dispute]:
        """Return every open dispute: a started match whose slot's holder as amended is not
        the player who plays it, and no decision has answered that yet."""
        return [dispute for found in self._disputes_by_stage().values() for dispute in found]

    def _disputes_by_stage(self) -> dict[str, list[Dispute]]:
        if "disputes" not in self._memo:
            self._memo["disputes"] = {
                stage.id: [d for planned in self._plan(stage.id) for d in self.disputes_at(planned)]
                if stage.kind == KNOCKOUT
                else [
                    dispute
                    for slots in self.log.draws[stage.id]["groups"].values()
                    for slot in slots
                    if (dispute := self.position_dispute(slot)) is not None
                ]
                for stage in self.stages
                if stage.id in self.log.draws and (stage.kind == KNOCKOUT or stage.source)
            }
        by_stage: dict[str, list[Dispute]] = self._memo["disputes"]
        return by_stage

    def position_dispute(self, slot: str) -> Dispute | None:
        """Return the open dispute of a slot of a groups stage drawn from another's: its
        matches began with another player than who holds it as amended."""
        begun = self.position_begun(slot)
        if begun is None:
            return None
        as_played, match_id, side = begun
        as_amended = self.amended_holder(slot).key
        if as_amended == as_played or self._answered(slot, match_id, as_amended):
            return None
        return Dispute(slot, match_id, side, as_played, as_amended, self._since(slot))

    def disputes_at(self, planned: Planned) -> list[Dispute]:
        """Return the open disputes of one knockout place's match."""
        if planned.id is None:
            return []
        match_id = self.current(planned.id)
        played = self.played_of(match_id)
        if played is None or not played.started:
            return []
        found = []
        for side, slot in enumerate(planned.slots):
            as_played = str(played.result.players[side])
            as_amended = self.amended_holder(slot).key
            if as_amended == as_played or self._answered(slot, match_id, as_amended):
                continue
            found.append(Dispute(slot, match_id, side, as_played, as_amended, self._since(slot)))
        return found

    def _answered(self, slot: str, match_id: str, as_amended: str | None) -> bool:
        """Return whether staff kept the match as played against this holder as amended."""
        return any(
            decision["match"] == match_id and decision["as_amended"] == as_amended
            for decision in self.log.decisions.get(slot, [])
            if decision["keep"]
        )

    def _since(self, slot: str) -> int:
        """Return the newest event that made what a slot names what it is now."""
        slot = self._through_bye(slot)
        if slot[:2] in ("W:", "L:"):
            planned = self._planned(slot[2:])
            if planned is None or planned.id is None:
                return 0
            chain = self._replaced_chain(planned.id)
            decided = [
                int(decision.get("version", 0))
                for decisions in self.log.decisions.values()
                for decision in decisions
                if decision["match"] in chain
            ]
            return max([self._changed(match_id) for match_id in chain] + decided)
        stage_id, _, place = slot.partition(":")
        if place.startswith("S") or stage_id not in self.log.draws:
            return 0
        return max(
            (self._changed(m) for m, _, _, _ in self.group_matches(stage_id, place[0])), default=0
        )

    # -- What can be played ------------------------------------------------------------

    def playable(self) -> list[Playable]:
        """Return every knockout match both of whose slots are settled to players."""
        found = []
        for stage in self.stages:
            if stage.kind != KNOCKOUT or stage.id not in self.log.draws:
                continue
            for planned in self._plan(stage.id):
                if planned.id is None:
                    continue
                a, b = (self.holder(slot) for slot in planned.slots)
                if a.key is None or b.key is None or not self._free(stage.id, planned, a, b):
                    continue
                entrants = self.log.entrants
                found.append(
                    Playable(
                        self.current(planned.id),
                        stage,
                        _place_name(planned),
                        (entrants[a.key], entrants[b.key]),
                    )
                )
        return found + self._replacements_playable()

    def _replacements_playable(self) -> list[Playable]:
        """Return the replacements of voided matches of groups drawn from another stage's
        whose two players are settled (a group's other matches are made by its draw)."""
        found = []
        for stage in self.stages:
            if stage.kind != GROUPS or not stage.source or stage.id not in self.log.draws:
                continue
            for group in self.log.draws[stage.id]["groups"]:
                for match_id, a, b, _ in self.group_matches(stage.id, group):
                    if match_id not in self.log.replaced.values() or not a or not b or a == b:
                        continue
                    entrants = self.log.entrants
                    slot = original_id(match_id).rsplit("-", 1)[1]
                    found.append(Playable(match_id, stage, slot, (entrants[a], entrants[b]), group))
        return found

    def _free(self, stage_id: str, planned: Planned, a: Holder, b: Holder) -> bool:
        """Return whether a place's holders are two players free to play it: not one player
        twice, neither playing an unfinished match at another place of the stage (as a
        replacement's holder may while a dispute waits), and neither holding another place
        of its round (as a bye's player does who plays on from it): no player twice in a
        round."""
        if a.key is None or b.key is None or a.key == b.key:
            return False
        name = _place_name(planned)
        return not any(
            place != name and (not finished or round_number == planned.round)
            for key in (a.key, b.key)
            for place, round_number, finished in self._playing_in(stage_id).get(key, [])
        )

    def _playing_in(self, stage_id: str) -> dict[str, list[tuple[str, int, bool]]]:
        """Return the places each player holds as played in a knockout: those of his
        started, counting matches (the place, its round, whether it is finished), and each
        bye he played on from (finished)."""
        memo = f"playing in {stage_id}"
        if memo not in self._memo:
            playing: dict[str, list[tuple[str, int, bool]]] = {}
            for planned in self._plan(stage_id):
                if planned.id is None:
                    continue
                played = self.begun(self.current(planned.id))
                if played is None:
                    continue
                for side, key in enumerate(map(str, played.result.players)):
                    playing.setdefault(key, []).append(
                        (_place_name(planned), planned.round, played.status == "finished")
                    )
                    slot = planned.slots[side]
                    if self._through_bye(slot) != slot:
                        bye = self._planned(slot[2:])
                        assert bye is not None
                        playing[key].append((_place_name(bye), bye.round, True))
            self._memo[memo] = playing
        found: dict[str, list[tuple[str, int, bool]]] = self._memo[memo]
        return found

    # -- Views -------------------------------------------------------------------------

    def settled(self, stage: Stage) -> bool:
        memo = f"settled {stage.id}"
        if memo not in self._memo:
            self._memo[memo] = self._settled(stage)
        settled: bool = self._memo[memo]
        return settled

    def _settled(self, stage: Stage) -> bool:
        draw = self.log.draws.get(stage.id)
        if draw is None:
            return False
        if self._disputes_by_stage().get(stage.id):
            return False  # an open dispute can still void a match of it
        if stage.kind == GROUPS:
            return all(self.group_places(stage.id, group) is not None for group in draw["groups"])
        plan = self._plan(stage.id)
        final_round = max(planned.round for planned in plan)
        for planned in plan:  # a match made and not decided: reopened, or a replay to come
            played = self.played_of(self.current(planned.id)) if planned.id else None
            if played is not None and played.status != "void" and not played.decided:
                return False
        return all(
            self._outcome(place_id(stage.id, planned)) is not None
            for planned in plan
            if planned.round == final_round
        )

    def views(self) -> list[dict[str, Any]]:
        """Return every stage as `GET …/stages` answers it."""
        return [self._view(stage) for stage in self.stages]

    def _view(self, stage: Stage) -> dict[str, Any]:
        view: dict[str, Any] = {
            "id": stage.id,
            "kind": stage.kind,
            "ruleset": stage.ruleset,
            "drawn": stage.id in self.log.draws,
            "settled": self.settled(stage),
        }
        if stage.kind == GROUPS:
            view["groups"] = self._groups_view(stage) if view["drawn"] else []
        else:
            view["rounds"] = self._rounds_view(stage) if view["drawn"] else []
        return view

    def _name(self, key: str | None) -> str | None:
        """Return the name of an entrant's key: None for no one, the key if none enters it."""
        if not key:
            return None
        found = self.log.entrants.get(key)
        return found.name if found is not None else key

    def _groups_view(self, stage: Stage) -> list[dict[str, Any]]:
        return [self._group_view(stage, group) for group in self.log.draws[stage.id]["groups"]]

    def _group_view(self, stage: Stage, group: str) -> dict[str, Any]:
        return self._of_group(
            (stage.id, group),
            self._group_views,
            lambda earlier: earlier.group_views,
            lambda: self._group_view_made(stage, group),
        )

    def _group_view_made(self, stage: Stage, group: str) -> dict[str, Any]:
        ordered, table = self.group_table(stage.id, group)
        entrants = self.log.entrants
        standings = []
        for number, key in enumerate(ordered, start=1):
            entrant = entrants[key]
            line = row(
                number,
                key,
                (entrant.name, entrant.federation_id),
                table.totals.get(key, Totals()),
            )
            line["seed"] = entrant.seed
            line["withdrawn"] = entrant.withdrawn
            standings.append(line)
        matches = []
        names = {key: entrant.name for key, entrant in entrants.items()}
        disputes: dict[str, list[Dispute]] = {}
        for dispute in self._disputes_by_stage().get(stage.id, []):
            for match_id, _ in self.position_matches(dispute.slot):
                disputes.setdefault(match_id, []).append(dispute)
        for match_id, a, b, round_number in self.group_matches(stage.id, group):
            played = self.played_of(match_id)
            # Once begun, as made, whatever came since; before, as its places are held now
            # (a place left empty by a withdrawal is no one's, whoever the match was made for).
            if played is not None and played.started:
                a, b = (str(key) for key in played.result.players)
            own = [dispute.view(names) for dispute in disputes.get(match_id, [])]
            matches.append(
                {
                    "slot": original_id(match_id).rsplit("-", 1)[1],
                    "round": round_number,
                    "slots": None,
                    "players": [self._name(a), self._name(b)],
                    "match": match_id if played is not None else None,  # once made
                    "replaces": self._replaced_chain(original_id(match_id))[:-1],
                    "status": played.status if played else "scheduled",
                    "winner": self._winner_name(played),
                    "disputed": own[0] if own else None,
                    "disputes": own,
                }
            )
        return {
            "name": group,
            "settled": self.group_places(stage.id, group) is not None,
            "entries": [self._name(key) for key in self.members(stage.id, group)],
            "standings": standings,
            "matches": matches,
        }

    def _winner_name(self, played: Played | None) -> str | None:
        if played is None or not played.decided:
            return None
        key = played.result.players[0 if played.winner == "A" else 1]
        found = self.log.entrants.get(str(key))
        return found.name if found else None

    def _rounds_view(self, stage: Stage) -> list[list[dict[str, Any]]]:
        rounds: list[list[dict[str, Any]]] = []
        names = {key: entrant.name for key, entrant in self.log.entrants.items()}
        disputes: dict[str, list[Dispute]] = {}
        for dispute in self.disputes():
            disputes.setdefault(dispute.match, []).append(dispute)
        amended_in_round = self._amended_in_rounds(stage)
        for planned in self._plan(stage.id):
            while len(rounds) < planned.round:
                rounds.append([])
            a, b = (self.holder(slot) for slot in planned.slots)
            amended = amended_in_round[planned.slots]
            match_id = self.current(planned.id) if planned.id else None
            played = self.played_of(match_id) if match_id else None
            if planned.id is None:
                status = "bye"
            elif played is not None:
                status = played.status
            elif self._free(stage.id, planned, a, b):
                status = "scheduled"
            else:
                status = "waiting"
            outcome = self._outcome(place_id(stage.id, planned))
            holders = [self._name(key) for key in amended]
            if played is not None:  # who plays it or is to, as made, whatever came since
                players: list[str | None] | None = [
                    names.get(str(key), str(key)) for key in played.result.players
                ]
            else:
                players = (
                    [self._name(a.key), self._name(b.key)]
                    if a.settled and b.settled and status != "waiting"
                    else None
                )
            own = [dispute.view(names) for dispute in disputes.get(match_id or "", [])]
            rounds[planned.round - 1].append(
                {
                    "slot": _place_name(planned),
                    "round": planned.round,
                    "slots": list(planned.slots),
                    "players": players,
                    "holders": holders,
                    "match": match_id if played is not None else None,
                    "replaces": self._replaced_chain(planned.id)[:-1] if planned.id else [],
                    "status": status,
                    "winner": self._name(outcome.winner.key) if outcome else None,
                    "disputed": own[0] if own else None,
                    "disputes": own,
                }
            )
        return rounds

    def _amended_in_rounds(self, stage: Stage) -> dict[tuple[str, str], list[str | None]]:
        """Return each place's holders as amended, by its slots, but where that would put a
        player into two matches of one round or against himself: those places are left with
        their holders as the draw goes on (a dispute says who holds them as amended)."""
        found: dict[tuple[str, str], list[str | None]] = {}
        rounds: dict[int, list[tuple[str, str]]] = {}
        for planned in self._plan(stage.id):
            found[planned.slots] = [self.amended_holder(slot).key for slot in planned.slots]
            rounds.setdefault(planned.round, []).append(planned.slots)
        for places in rounds.values():
            named = [key for slots in places for key in found[slots] if key is not None]
            twice = {key for key in named if named.count(key) > 1}
            for slots in places:
                found[slots] = [
                    self.holder(slot).key if key in twice else key
                    for slot, key in zip(slots, found[slots], strict=True)
                ]
        return found

    def _replaced_chain(self, match_id: str) -> list[str]:
        """Return a place's matches in order: its own, then each replacement."""
        chain = [match_id]
        while chain[-1] in self.log.replaced:
            chain.append(self.log.replaced[chain[-1]])
        return chain

    def _changed(self, match_id: str) -> int:
        played = self.played.get(match_id)
        return played.changed if played is not None else 0

    # -- The final ranking -------------------------------------------------------------

    def ranking(self) -> list[dict[str, Any]]:
        """Return every entrant's final place (the README's "Final ranking")."""
        keyed = [(self._standing(entrant), entrant) for entrant in self.log.by_seed()]
        keyed.sort(key=lambda item: item[0].order, reverse=True)
        rows: list[dict[str, Any]] = []
        for index, (standing, entrant) in enumerate(keyed):
            shared = (
                rows
                and standing.shares is not None
                and keyed[index - 1][0].shares == standing.shares
            )
            place = rows[-1]["place"] if shared else index + 1
            rows.append(
                {
                    "place": place,
                    "player": entrant.name,
                    "player_id": entrant.federation_id,
                    "seed": entrant.seed,
                    "out_in": standing.out_in,
                    "provisional": standing.provisional,
                }
            )
        return rows

    def _standing(self, entrant: Entrant) -> Standing:
        """Return how far an entrant went: the deepest stage drawn with them in it."""
        for index in range(len(self.stages) - 1, -1, -1):
            stage = self.stages[index]
            if stage.id not in self.log.draws:
                continue
            if stage.kind == KNOCKOUT:
                found = self._knockout_standing(index, stage, entrant)
            else:
                found = self._group_standing(index, stage, entrant)
            if found is not None:
                return found
        # Not drawn into any stage yet: by seed, below everyone drawn.
        return Standing((-1, 0, 0, 0, 0.0, 0.0, 0.0, -entrant.seed), None, True)

    def _knockout_standing(self, index: int, stage: Stage, entrant: Entrant) -> Standing | None:
        plan = self._plan(stage.id)
        mine = self._places_held(stage.id).get(entrant.key, [])
        if not mine:
            return None
        last_round = max(p.round for p in plan if p.number)
        deepest = max(mine, key=lambda p: (p.round, p.number == 0))
        outcome = self._outcome(place_id(stage.id, deepest))
        won = outcome is not None and outcome.winner.key == entrant.key
        seed = -entrant.seed
        # A dispute open in the stage leaves every place reached in it open to a decision.
        disputed = bool(self._disputes_by_stage().get(stage.id))
        if deepest.number == 0:  # the third-place match: 3 and 4, once it is decided
            level = last_round - 1
            order = (index, level, int(won), 0, 0.0, 0.0, 0.0, seed)
            return Standing(order, f"{stage.id}:{level}", outcome is None or disputed)
        if outcome is None:  # still in: playing, or waiting for the place's match
            order = (index, deepest.round, 0, 0, 0.0, 0.0, 0.0, seed)
            return Standing(order, None, True)
        if won and deepest.round == last_round:  # the champion
            order = (index, last_round + 1, 0, 0, 0.0, 0.0, 0.0, seed)
            return Standing(order, None, disputed)
        # Out in this round: beaten, or a winner whose next match staff kept as played by
        # another (a replayed semi-final's winner after the final stood), above its losers.
        order = (index, deepest.round, int(won), 0, 0.0, 0.0, 0.0, seed)
        shares = (index, deepest.round, int(won))
        return Standing(order, f"{stage.id}:{deepest.round}", disputed, shares)

    def _group_of(self, stage_id: str) -> dict[str, str]:
        """Return each member's group in a drawn group stage (the first that has them)."""
        memo = f"group of {stage_id}"
        if memo not in self._memo:
            found: dict[str, str] = {}
            for group in self.log.draws[stage_id]["groups"]:
                for key in self.members(stage_id, group):
                    if key is not None:
                        found.setdefault(key, group)
            self._memo[memo] = found
        group_of: dict[str, str] = self._memo[memo]
        return group_of

    def _place_in_group(self, stage_id: str, group: str, key: str, ordered: list[str]) -> int:
        """Return a player's place in a group: once it is settled, as amended (a place
        staff kept as played held by who played on from it), else as its table ranks him."""
        if self.group_places(stage_id, group) is not None:
            amended, _ = self._assigned(stage_id, group)
            found = next((n for n, held in amended.items() if held == key), None)
            if found is not None:
                return found
        return ordered.index(key) + 1

    def _group_standing(self, index: int, stage: Stage, entrant: Entrant) -> Standing | None:
        group = self._group_of(stage.id).get(entrant.key)
        if group is not None:
            ordered, table = self.group_table(stage.id, group)
            place = self._place_in_group(stage.id, group, entrant.key, ordered)
            totals = table.totals.get(entrant.key, Totals())
            played = max(totals.played, 1)
            settled = self.settled(stage)
            group_settled = self.group_places(stage.id, group) is not None
            qualifies = (
                stage.advance is not None and place <= stage.advance and not entrant.withdrawn
            )
            return Standing(
                (
                    index,
                    -1,
                    1 if qualifies else 0,
                    -place,
                    totals.match_points / played,
                    (totals.games_won - totals.games_lost) / played,
                    (totals.points_for - totals.points_against) / played,
                    -entrant.seed,
                ),
                # Out once the group is settled: until then, every place can still change.
                stage.id if group_settled and not qualifies else None,
                not settled or qualifies,
                None,
            )
        return None


@dataclass(frozen=True)
class Standing:
    """An entrant's reach, as the final ranking orders it (higher first)."""

    order: tuple[int, int, int, int, float, float, float, int]
    out_in: str | None
    provisional: bool
    shares: tuple[int, int, int] | None = None  # players with equal `shares` share a place


def _in_order(places: Sequence[str], pinned: Mapping[int, str]) -> dict[int, str | None]:
    """Return each place's player: the pinned ones', the others taken in order by the rest."""
    rest = [key for key in places if key not in pinned.values()]
    return {
        number: pinned[number] if number in pinned else (rest.pop(0) if rest else None)
        for number in range(1, len(places) + 1)
    }


def _place_name(planned: Planned) -> str:
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


# -- The draws ---------------------------------------------------------------------------


def groups_draw(stage: Stage, entrants: Sequence[str], where: str) -> dict[str, list[str]]:
    """Return a groups stage's draw: each group's slots, by snake order of `entrants`.

    `where` names the stage (`stages[0]`) in a refusal: too few players for its groups,
    or a group from which all would go on.
    """
    check_groups_fit(stage.groups, stage.advance, len(entrants), where)
    return dict(zip(group_names(stage.groups), snake(list(entrants), stage.groups), strict=True))


def stage_entrants(championship: Championship, stage: Stage) -> list[str]:
    """Return the slots a stage draws from, best seeded first, or refuse while unsettled.

    From the entries: every entrant not withdrawn, but those a later stage takes
    directly. From a groups stage: its `direct` seeds, then the qualifiers who are there, ordered to
    keep one group's players apart (into a knockout, in two halves; into groups, in two
    groups) wherever the count allows.
    """
    competition_log = championship.log
    stages = championship.stages
    if stage.source is None:
        skipping = max((later.direct for later in stages if later.source == stage.id), default=0)
        return [
            f"{stage.id}:S{entrant.seed}"
            for rank_number, entrant in enumerate(competition_log.by_seed(), start=1)
            if not entrant.withdrawn and rank_number > skipping
        ]
    source = championship.stage(stage.source)
    if source.id not in competition_log.draws:
        raise Refused(f"stage {source.id} is not drawn yet", "stage")
    if not championship.settled(source):
        raise Refused(f"stage {source.id} is not settled yet: its groups are still open", "stage")
    direct = [
        f"{stage.id}:S{entrant.seed}" for entrant in competition_log.by_seed()[: stage.direct]
    ]
    groups = len(competition_log.draws[source.id]["groups"])
    advance = source.advance or 1
    if stage.kind == KNOCKOUT:
        # The size is the draw's to check, naming the stage's field.
        order = qualifiers(groups, advance, direct=len(direct))
    else:
        order = groups_from_groups(groups, advance, stage.groups, len(direct))
    # A place no one holds (its group left short by a withdrawal) sends no one on.
    advancing = [f"{source.id}:{group}{place}" for group, place in order]
    return direct + [slot for slot in advancing if championship.holder(slot).settled]


def draw_event(championship: Championship, stage: Stage) -> dict[str, Any]:
    """Return the `stage_drawn` event of a stage, or refuse naming the stage's field."""
    slots = stage_entrants(championship, stage)
    where = stage_field(championship.stages, stage)
    if stage.kind == GROUPS:
        return {
            "type": "stage_drawn",
            "stage": stage.id,
            "groups": groups_draw(stage, slots, where),
        }
    size = check_knockout_fits(len(slots), stage.size, stage.third_place, where)
    return {"type": "stage_drawn", "stage": stage.id, "seeds": slots, "size": size}


def stage_field(stages: Sequence[Stage], stage: Stage) -> str:
    """Return how a refusal names a stage: its place in the competition's `stages`."""
    return f"stages[{[each.id for each in stages].index(stage.id)}]"
