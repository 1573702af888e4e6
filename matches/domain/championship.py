"""A competition in stages as its logs make it: groups, bracket, slots and final ranking.

Pure Python, a fold like a match's: the competition's log (entries, seeds, draws,
withdrawals) and what each of its matches counts for (`Played`) give every stage's
groups with their tables, every knockout's rounds with the holders of their slots,
the matches that have become playable, and the final ranking (README, "Competitions and standings").
The same inputs up to a version V give the views "as of V".

The fold is in parts: the folded log and the records it answers with
(`matches.domain.competition_log`), who holds each slot
(`matches.domain.championship_slots`), and here the disputes, what can be played and
whether a stage is settled; the views (`matches.domain.championship_views`) and the
final ranking (`matches.domain.championship_ranking`) are functions of it, and a stage's
draw is `matches.domain.championship_draws`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from matches.domain.championship_ranking import final_ranking
from matches.domain.championship_slots import ChampionshipSlots
from matches.domain.championship_views import group_view_made, stage_views
from matches.domain.competition_log import (
    GROUPS,
    KNOCKOUT,
    Dispute,
    Holder,
    Playable,
    Played,
    original_id,
    place_id,
    place_name,
)
from matches.domain.draws import Planned
from matches.domain.stages import Stage


class Championship(ChampionshipSlots):
    """The stages of one competition, from its competition log and its matches' results:
    who holds each slot (`ChampionshipSlots`), the open disputes, the matches that can be
    played, whether each stage is settled, its views and the final ranking."""

    def with_played(self, played: Mapping[str, Played]) -> Championship:
        """Return the same competition log's fold with what its matches count for replaced."""
        return Championship(self.competition, self.stages, self.log, played)

    # -- Disputes ----------------------------------------------------------------------

    def disputes(self) -> list[Dispute]:
        """Return every open dispute: a started match whose slot's holder as amended is not
        the player who plays it, and no decision has answered that yet."""
        return [dispute for found in self.disputes_by_stage().values() for dispute in found]

    def disputes_by_stage(self) -> dict[str, list[Dispute]]:
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

    def _since(self, slot: str) -> int:
        """Return the newest event that made what a slot names what it is now."""
        slot = self._through_bye(slot)
        if slot[:2] in ("W:", "L:"):
            planned = self._planned(slot[2:])
            if planned is None or planned.id is None:
                return 0
            chain = self.replaced_chain(planned.id)
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
                if a.key is None or b.key is None or not self.free_to_play(stage.id, planned, a, b):
                    continue
                entrants = self.log.entrants
                found.append(
                    Playable(
                        self.current(planned.id),
                        stage,
                        place_name(planned),
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

    def free_to_play(self, stage_id: str, planned: Planned, a: Holder, b: Holder) -> bool:
        """Return whether a place's holders are two players free to play it: not one player
        twice, neither playing an unfinished match at another place of the stage (as a
        replacement's holder may while a dispute waits), and neither holding another place
        of its round (as a bye's player does who plays on from it): no player twice in a
        round."""
        if a.key is None or b.key is None or a.key == b.key:
            return False
        name = place_name(planned)
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
                        (place_name(planned), planned.round, played.status == "finished")
                    )
                    slot = planned.slots[side]
                    if self._through_bye(slot) != slot:
                        bye = self._planned(slot[2:])
                        assert bye is not None
                        playing[key].append((place_name(bye), bye.round, True))
            self._memo[memo] = playing
        found: dict[str, list[tuple[str, int, bool]]] = self._memo[memo]
        return found

    # -- Views and the final ranking ---------------------------------------------------

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
        if self.disputes_by_stage().get(stage.id):
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
            self.outcome(place_id(stage.id, planned)) is not None
            for planned in plan
            if planned.round == final_round
        )

    def views(self) -> list[dict[str, Any]]:
        """Return every stage as `GET …/stages` answers it."""
        return stage_views(self)

    def ranking(self) -> list[dict[str, Any]]:
        """Return every entrant's final place (the README's "Final ranking")."""
        return final_ranking(self)

    def group_view(self, stage: Stage, group: str) -> dict[str, Any]:
        return self._of_group(
            (stage.id, group),
            self._group_views,
            lambda earlier: earlier.group_views,
            lambda: group_view_made(self, stage, group),
        )

    def _changed(self, match_id: str) -> int:
        played = self.played.get(match_id)
        return played.changed if played is not None else 0
