"""Corrections that flow through the draw, on the write path (README, "Competitions and standings").

`follow` runs in the transaction of an append to a stage match whose result it changes,
once the competition has matches a slot gives players (a knockout's, or those of groups
drawn from another stage's): it folds the competition just before and just
after the event (its log, and only the stage matches the slots it can change need, each
from its own events: judged by the log's one order, never by a read model that may lag),
moves the players of each made match not started yet whose slots' holders changed,
writes each move in the competition's log (a sentence of its history), and refuses a
login that is not staff a correction that would open a dispute (403, naming why).

`first_event_check` refuses the first event of such a match while one of its slots
is not settled to its players (422 naming the slot).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from django.db.models import Q

from matches import store
from matches.domain.championship import Championship
from matches.domain.competition_log import Played, fold_competition_log, player_key
from matches.domain.consequences import Consequences, affected_slots, consequences
from matches.domain.errors import Refused
from matches.domain.fold import state_after
from matches.domain.render import result_of, status
from matches.domain.rules.ranking import Result
from matches.domain.state import MatchState
from matches.models import Competition, Match, Player
from matches.services.competition_log import log_append, log_read, stages_of
from matches.services.competitions import player_of

PLAYERS_MOVED = "players_moved"
CORRECTIONS = ("shot_amended", "shot_retracted")


class Forbidden(Refused):
    """What only staff may record (403): an event whose consequences dispute a started match."""

    status = 403


class FoldedOnDemand(Mapping[str, Played]):
    """What each stage match of a competition counts for now, folded from its events when
    first asked: a correction's consequences need a few groups, never the whole draw."""

    def __init__(self, matches: dict[str, Match], fresh: Mapping[str, Played] | None = None):
        self._matches = matches
        self._fresh = dict(fresh or {})
        self._folded: dict[str, Played] = {}

    def with_(self, match_id: str, played: Played) -> FoldedOnDemand:
        """Return the same matches with one of them counting for `played` (shares folds)."""
        other = FoldedOnDemand(self._matches, {**self._fresh, match_id: played})
        other._folded = self._folded
        return other

    def __getitem__(self, match_id: str) -> Played:
        if match_id in self._fresh:
            return self._fresh[match_id]
        if match_id not in self._folded:
            match = self._matches[match_id]
            facts = store.load_facts(match)
            if not facts:
                self._folded[match_id] = Played("scheduled", Result(header_keys(match)))
            else:
                self._folded[match_id] = played_of(match, state_after(match.header(), facts))
        return self._folded[match_id]

    def __iter__(self) -> Iterator[str]:
        return iter(self._matches)

    def __len__(self) -> int:
        return len(self._matches)


def header_keys(match: Match) -> tuple[str, str]:
    return (player_key(match.players["A"]), player_key(match.players["B"]))


def played_of(match: Match, state: MatchState) -> Played:
    """Return what a match counts for in its stage after a fold of its log."""
    shown = status(state)
    winner = state.winner if shown == "finished" else None
    return Played(shown, result_of(state, header_keys(match)), winner)


def follow(
    match: Match,
    was: Played,
    after: MatchState,
    event: Mapping[str, Any],
    by: str,
    staff: bool,
) -> Consequences | None:
    """Carry an event's consequences through the draw (the caller's transaction, under the
    log lock); return them, or None when it can change no slot that has a match yet.

    `was`: what the match counted for just before the event; `after`: its fold after it."""
    if not match.stage_id:
        return None
    now = played_of(match, after)
    if was == now:
        return None  # nothing a group table or a slot reads has changed
    fed = fed_matches(match.competition)
    if not fed:
        return None
    now_folded = folded_now(match.competition)
    base = now_folded.played
    assert isinstance(base, FoldedOnDemand)
    folded_before = now_folded.with_played(base.with_(match.pk, was))
    folded_after = now_folded.with_played(base.with_(match.pk, now))
    members = len(folded_after.members(match.stage_id, match.group)) if match.group else 0
    slots = folded_after.reached(affected_slots(match.stage_id, match.group, match.slot, members))
    headers = {match_id: header_keys(m) for match_id, m in fed.items()}
    found = consequences(folded_before, folded_after, headers, slots, ranking=False)
    # Only a correction needs staff: the result of a match played as made (a replacement
    # staff ordered) stands whatever it disputes downstream.
    if found.disputes and not staff and event["type"] in CORRECTIONS:
        dispute = found.disputes[0]
        raise Forbidden(
            f"this would dispute match {dispute.match}, started with another player in slot "
            f"{dispute.slot}: only staff may record it",
            "event",
        )
    cause = _cause(match, event, after)
    for found_move in found.moves:
        move(fed[found_move.match], found_move.players, cause, by)
    return found


def first_event_check(match: Match) -> None:
    """Refuse the first event of a match whose slots are not settled to its players (of a
    knockout, or of a group drawn from another stage), or of a match a decision voided."""
    if match.status == Match.Status.VOID:
        raise Refused("the match is void: a decision replaced it", "match")
    if not match.stage_id or match.pk not in fed_matches(match.competition):
        return
    championship = folded_now(match.competition)
    for side, slot in enumerate(championship.slots_of(match.pk)):
        holder = championship.holder(slot)
        if holder.key != header_keys(match)[side]:
            raise Refused(
                f"slot {slot} is not settled to this match's players: it waits for a "
                "correction or a decision",
                "slot",
            )


def folded_now(competition: Competition) -> Championship:
    """Return a competition as its logs make it now, each stage match folded when asked."""
    logged = log_read(competition.pk)
    competition_log = fold_competition_log(
        [entry.event for entry in logged], [entry.id for entry in logged]
    )
    matches = {m.pk: m for m in Match.objects.filter(competition=competition).exclude(stage_id="")}
    return Championship(
        competition.pk, stages_of(competition), competition_log, FoldedOnDemand(matches)
    )


def fed_matches(competition: Competition) -> dict[str, Match]:
    """Return a competition's matches made, not void, whose players a slot gives: its
    knockouts', and those of its groups drawn from another stage's; by id."""
    sourced = [stage.id for stage in stages_of(competition) if stage.source]
    found = (
        Match.objects.filter(competition=competition)
        .filter(Q(group="") | Q(stage_id__in=sourced))
        .exclude(stage_id="")
        .exclude(status=Match.Status.VOID)
    )
    return {match.pk: match for match in found}


def _cause(match: Match, event: Mapping[str, Any], after: MatchState) -> dict[str, Any]:
    """Return what the history names as a move's cause: the event and its match; for a
    correction, the shot it names by seq and by number (as the pages name it)."""
    cause: dict[str, Any] = {"match": match.pk, "seq": after.seq, "type": event["type"]}
    if "shot" in event:
        cause["shot"] = event["shot"]
        number = after.shot_number(event["shot"])
        if number is not None:
            cause["number"] = number
    cause["players"] = [match.players["A"]["name"], match.players["B"]["name"]]
    return cause


def move(match: Match, players: tuple[Any, Any], cause: Mapping[str, Any], by: str) -> None:
    """Give a match not started yet the players its slots hold now, and log it."""
    was = {"A": dict(match.players["A"]), "B": dict(match.players["B"])}
    now = {"A": players[0].record(), "B": players[1].record()}
    match.players = now
    match.player_a = _player(now["A"])
    match.player_b = _player(now["B"])
    match.save(update_fields=["players", "player_a", "player_b"])
    log_append(
        match.competition,
        [
            {
                "type": PLAYERS_MOVED,
                "match": match.pk,
                "slot": match.slot,
                "was": was,
                "now": now,
                "cause": dict(cause),
            }
        ],
        by,
    )


def _player(record: Mapping[str, Any]) -> Player:
    return player_of(record, "players")
