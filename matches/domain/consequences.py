"""What one event does to a competition in stages: the difference of two folds.

Pure, as the fold is: given the championship before an event and after it (each the fold
of the same log and of what every stage match counts for, the event's match one event
apart), say what changes (the README's "Corrections that flow through the draw"):
the places of a group, the holder of each slot as amended, the matches not started yet
whose players follow (moves), the started matches that become disputed, and the final
ranking. The write path moves the players and refuses a referee a dispute with it; the
preview shows all of it before an amendment is confirmed.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

from matches.domain.championship import Championship
from matches.domain.competition_log import KNOCKOUT, Dispute, Entrant, place_id
from matches.domain.draws import Planned


@dataclass(frozen=True)
class GroupChange:
    stage: str
    group: str
    before: list[str]  # the players' keys by place
    after: list[str]


@dataclass(frozen=True)
class SlotChange:
    """A slot whose holder as amended changes, and the match it feeds (if made)."""

    slot: str
    place: str  # the place it feeds: `ko-1-3`
    side: int
    match: str | None  # the match playing that place, if made
    started: bool
    before: str | None  # the holder's key, None while unsettled
    after: str | None


@dataclass(frozen=True)
class Move:
    """A match not started yet whose players follow a correction: both sides, before and
    after (keys)."""

    match: str
    place: str
    before: tuple[str, str]
    after: tuple[str, str]
    players: tuple[Entrant, Entrant]  # the entrants after, for its header


@dataclass
class Consequences:
    groups: list[GroupChange] = field(default_factory=list)
    slots: list[SlotChange] = field(default_factory=list)
    moves: list[Move] = field(default_factory=list)
    disputes: list[Dispute] = field(default_factory=list)  # opened by the event
    ranking: tuple[list[dict[str, Any]], list[dict[str, Any]]] | None = None


def consequences(
    before: Championship,
    after: Championship,
    headers: Mapping[str, tuple[str, str]],
    slots: Collection[str] | None = None,
    ranking: bool = True,
) -> Consequences:
    """Return what changes from `before` to `after`.

    `headers`: the players' keys (A, B) each made knockout match's header names now, so
    that a match not started yet whose holders change is a move. `slots`: the only slots
    the event can change (`affected_slots`), when the caller knows them: then only the
    groups, places and disputes they reach are looked at. `ranking`: whether to compare
    the final ranking (every group's table).
    """
    found = Consequences()
    for stage in after.stages:
        draw = after.log.draws.get(stage.id)
        if draw is None:
            continue
        if stage.kind != KNOCKOUT:
            for group in draw["groups"]:
                if slots is not None and f"{stage.id}:{group}1" not in slots:
                    continue
                places = before.group_table(stage.id, group)[0]
                now_places = after.group_table(stage.id, group)[0]
                if places != now_places:
                    found.groups.append(GroupChange(stage.id, group, places, now_places))
                if stage.source:
                    _group_moves(found, stage.id, group, after, headers)
            continue
        for planned in after.knockout_places(stage.id):
            if planned.id is None or (slots is not None and not set(planned.slots) & set(slots)):
                continue
            _place(found, stage.id, planned, before, after, headers)
    opened = {_key(dispute) for dispute in _disputes(before, slots)}
    found.disputes = [d for d in _disputes(after, slots) if _key(d) not in opened]
    if ranking:
        ranked_before, ranked_after = before.ranking(), after.ranking()
        if ranked_before != ranked_after:
            found.ranking = (ranked_before, ranked_after)
    return found


def affected_slots(stage_id: str, group: str, slot: str, members: int) -> set[str]:
    """Return the slots one match's result can change: its group's places, or its winner
    and loser (`slot` is its place in the stage: `A3`, `2-1`, `3rd`)."""
    if group:
        return {f"{stage_id}:{group}{place}" for place in range(1, members + 1)}
    if slot == "3rd":
        return set()  # the third-place match feeds nothing
    return {f"W:{stage_id}-{slot}", f"L:{stage_id}-{slot}"}


def _place(
    found: Consequences,
    stage_id: str,
    planned: Planned,
    before: Championship,
    after: Championship,
    headers: Mapping[str, tuple[str, str]],
) -> None:
    """Add what changes at one knockout place: its slots' holders, and a move of its
    players if its match is made and not started."""
    assert planned.id is not None
    place = place_id(stage_id, planned)
    match_id = after.current(planned.id)
    played = after.played_of(match_id)
    made = match_id in headers
    started = played is not None and played.started
    holders = [after.holder(slot).key for slot in planned.slots]  # as the draw goes on
    for side, slot in enumerate(planned.slots):
        held, holds = before.amended_holder(slot).key, after.amended_holder(slot).key
        if held != holds:
            found.slots.append(
                SlotChange(slot, place, side, match_id if made else None, started, held, holds)
            )
    if made and not started:
        _move(found, match_id, place, headers[match_id], (holders[0], holders[1]), after)


def _move(
    found: Consequences,
    match_id: str,
    place: str,
    header: tuple[str, str],
    holders: tuple[str | None, str | None],
    after: Championship,
) -> None:
    """Add a move of a match not started whose header is not its holders: each side to its
    holder, a side whose slot holds no one now (open again) keeping its player as made, so
    that a side that changed never leaves its new player named in two matches."""
    a, b = (holder or made for holder, made in zip(holders, header, strict=True))
    if (a, b) != header and a != b:
        entrants = after.log.entrants
        found.moves.append(Move(match_id, place, header, (a, b), (entrants[a], entrants[b])))


def _group_moves(
    found: Consequences,
    stage_id: str,
    group: str,
    after: Championship,
    headers: Mapping[str, tuple[str, str]],
) -> None:
    """Add a move of each match not started yet of a group drawn from another stage's
    whose players, as its entries now stand, are not its header's."""
    for match_id, a, b, _ in after.group_matches(stage_id, group):
        played = after.played_of(match_id)
        if match_id in headers and not (played is not None and played.started):
            _move(found, match_id, f"{stage_id}-{group}", headers[match_id], (a, b), after)


def _disputes(championship: Championship, slots: Collection[str] | None) -> list[Dispute]:
    if slots is None:
        return championship.disputes()
    wanted = set(slots)
    return [
        dispute
        for stage in championship.stages
        if stage.kind == KNOCKOUT and stage.id in championship.log.draws
        for planned in championship.knockout_places(stage.id)
        if set(planned.slots) & wanted
        for dispute in championship.disputes_at(planned)
    ] + [
        dispute
        for slot in sorted(wanted)
        if (dispute := championship.position_dispute(slot)) is not None
    ]


def _key(dispute: Dispute) -> tuple[str, str, str | None]:
    return (dispute.slot, dispute.match, dispute.as_amended)
