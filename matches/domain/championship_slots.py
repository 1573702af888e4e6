"""Who holds each slot of a competition in stages, as its logs make it: each group's members,
table and places, each knockout place's holders and outcome, and the match that plays each
place now (a replacement, once one is made).

Pure Python, a fold like a match's: `Championship` (in `matches.domain.championship`) builds on
it with the disputes, the matches that can be played, the views and the final ranking.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from matches.domain.competition_log import (
    A_BYE,
    GROUPS,
    KNOCKOUT,
    UNSETTLED,
    CompetitionLog,
    Holder,
    Outcome,
    Played,
    place_id,
)
from matches.domain.draws import BYE, Planned, group_plan, knockout_plan
from matches.domain.rules.ranking import Table, Totals, rank
from matches.domain.stages import Stage

if TYPE_CHECKING:
    from matches.domain.championship import Championship

Answer = TypeVar("Answer")


@dataclass(frozen=True)
class _Earlier:
    """What a previous fold of the same competition log answered, for the groups it can give
    again."""

    played: Mapping[str, Played]
    members: dict[tuple[str, str], list[str | None]]
    tables: dict[tuple[str, str], tuple[list[str], Table]]
    group_views: dict[tuple[str, str], dict[str, Any]]


class ChampionshipSlots:
    """Who holds each slot of one competition's stages, from its competition log and its
    matches' results: the part of the fold that disputes, views and the ranking build on."""

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
            outcome = self.outcome(slot[2:])
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
        amended, going_on = self.assigned(stage_id, place[0])
        key = (amended if as_amended else going_on)[number]
        if key is None:
            return UNSETTLED
        return UNSETTLED if self.log.entrants[key].withdrawn else Holder(key)

    def assigned(
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

    def places_held(self, stage_id: str) -> dict[str, list[Planned]]:
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

    def outcome(self, place: str) -> Outcome | None:
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
        return self.replaced_chain(match_id)[-1]

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

    def replaced_chain(self, match_id: str) -> list[str]:
        """Return a place's matches in order: its own, then each replacement."""
        chain = [match_id]
        while chain[-1] in self.log.replaced:
            chain.append(self.log.replaced[chain[-1]])
        return chain

    def _answered(self, slot: str, match_id: str, as_amended: str | None) -> bool:
        """Return whether staff kept the match as played against this holder as amended."""
        return any(
            decision["match"] == match_id and decision["as_amended"] == as_amended
            for decision in self.log.decisions.get(slot, [])
            if decision["keep"]
        )

    def group_of(self, stage_id: str) -> dict[str, str]:
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


def _in_order(places: Sequence[str], pinned: Mapping[int, str]) -> dict[int, str | None]:
    """Return each place's player: the pinned ones', the others taken in order by the rest."""
    rest = [key for key in places if key not in pinned.values()]
    return {
        number: pinned[number] if number in pinned else (rest.pop(0) if rest else None)
        for number in range(1, len(places) + 1)
    }
