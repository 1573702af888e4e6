"""The draws of a competition in stages, as pure functions of seeds and counts.

As the README settles them: entries drawn into groups in snake order, each group
a round robin whose rounds come by the circle method; a knockout's places in the standard
bracket order, its byes to the top seeds; and the qualifiers of a groups stage seeded
into a knockout after its direct entries, A1, B1, C1, ..., A2, B2, ..., two players of
one group kept apart (opposite halves, then quarters, ...) where the count allows
(swapped within their rank, `matches.domain.apart`); and in the same order into groups drawn
from groups, two of one earlier group kept in two groups where the count allows. Seeds
count from 1, groups are named A, B, C, ...; a knockout's plan names each place's two
slots.
"""

from __future__ import annotations

import string
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

from matches.domain.apart import apart
from matches.domain.errors import Refused
from matches.domain.notation import expect_whole

T = TypeVar("T")

GROUP_NAMES = string.ascii_uppercase  # the most groups a stage can have: 26
LARGEST_KNOCKOUT = 256  # places in round one


def group_names(groups: int) -> list[str]:
    """Return the names of a stage's groups: A, B, C, ..."""
    if not 1 <= groups <= len(GROUP_NAMES):
        raise Refused(f"must be from 1 to {len(GROUP_NAMES)}", "groups")
    return list(GROUP_NAMES[:groups])


def snake(seeded: Sequence[T], groups: int) -> list[list[T]]:
    """Draw entries, strongest first, into groups in snake order.

    Seeds 1 to G go into groups A to G, seeds G+1 to 2G into G to A, and so on: the
    groups' sizes differ by at most one, and each group's entries stay in seed order.
    """
    group_names(groups)
    drawn: list[list[T]] = [[] for _ in range(groups)]
    for index, entry in enumerate(seeded):
        turn, place = divmod(index, groups)
        drawn[place if turn % 2 == 0 else groups - 1 - place].append(entry)
    return drawn


def pairings(n_players: int) -> list[tuple[int, int, int]]:
    """Return (round, A, B) for every two of n players by the circle method (0-based).

    No one plays twice in a round; with an odd count one rests each round. Sides
    alternate from round to round, so no one always breaks the lag from the same end.
    """
    slots: list[int | None] = list(range(n_players)) + ([None] if n_players % 2 else [])
    rounds = []
    for round_number in range(1, len(slots)):
        half = len(slots) // 2
        for a, b in zip(slots[:half], reversed(slots[half:]), strict=True):
            if a is not None and b is not None:
                rounds.append((round_number, a, b) if round_number % 2 else (round_number, b, a))
        slots = [slots[0], slots[-1], *slots[1:-1]]
    return rounds


@dataclass(frozen=True)
class GroupMatch:
    """One match of a group: its id, its round, and its two players' places in the group."""

    id: str
    round: int
    a: int  # 0-based, the group's entries in seed order
    b: int


def group_plan(competition: str, stage: str, group: str, players: int) -> list[GroupMatch]:
    """Return a group's matches by the circle method, numbered in that order from 1.

    Ids as the README settles them: `{competition}-{stage}-{group}{n}`.
    """
    return [
        GroupMatch(f"{competition}-{stage}-{group}{number}", round_number, a, b)
        for number, (round_number, a, b) in enumerate(pairings(players), start=1)
    ]


def knockout_size(players: int, size: int | None = None, field: str = "size") -> int:
    """Return a knockout's places: `size` if it fits the players, else the smallest that does.

    A size is a power of two, at least the players and less than twice their number (a
    round of byes alone is no round).
    """
    if players < 2:
        raise Refused("a knockout needs at least 2 players", field)
    if size is None:
        return 1 << (players - 1).bit_length()
    check_places(size, field)
    if not players <= size < 2 * players:
        raise Refused(
            f"must be at least {players} and less than {2 * players}: "
            f"the knockout has {players} players",
            field,
        )
    return size


def check_knockout_fits(players: int, size: int | None, third_place: bool, where: str) -> int:
    """Return the places of a knockout of `players`, or refuse naming the stage's field.

    `where` names the stage (`stages[1]`): too many players for the largest knockout, a
    `size` they do not fit, a third-place match with fewer than 4 players.
    """
    if players > LARGEST_KNOCKOUT:
        raise Refused(
            f"a knockout has at most {LARGEST_KNOCKOUT} places; the stage has {players} players",
            where,
        )
    places = knockout_size(players, size, f"{where}.size")
    if third_place and players < 4:
        raise Refused(
            f"a third-place match needs at least 4 players; the stage has {players}",
            f"{where}.third_place",
        )
    return places


def check_groups_fit(groups: int, advance: int | None, players: int, where: str) -> None:
    """Refuse groups that `players` cannot fill, naming the stage's field (`stages[0].groups`).

    Each group needs two players, and at least `advance`: a place no one can hold sends no
    one on. (A place a withdrawal leaves empty later sends no one on either.)
    """
    if players < 2 * groups:
        raise Refused(
            f"{groups} groups need at least {2 * groups} players; the stage has {players}",
            f"{where}.groups",
        )
    smallest = players // groups
    if advance is not None and advance > smallest:
        raise Refused(
            f"must be at most {smallest}: {players} players in {groups} groups leave "
            f"{smallest} in the smallest",
            f"{where}.advance",
        )


def check_places(size: object, field: str) -> int:
    """Return a knockout's places as written, a power of two from 2 to 256, or refuse."""
    places = expect_whole(size, field, 2, LARGEST_KNOCKOUT)
    if places & (places - 1):
        raise Refused("must be a power of two", field)
    return places


def bracket_order(places: int) -> list[int]:
    """Return the seeds of a bracket's places in order, each pair a match of round one.

    For 2 places 1, 2; the order for 2n places replaces each seed s of the order for n
    by s, 2n+1-s (8 places: 1-8, 4-5, 2-7, 3-6): seeds 1 and 2 can meet only in the final.
    """
    knockout_size(places, places, "places")
    order = [1]
    while len(order) < places:
        count = 2 * len(order)
        order = [seed for kept in order for seed in (kept, count + 1 - kept)]
    return order


def first_round(players: int, size: int | None = None) -> list[tuple[int, int | None]]:
    """Return round one as pairs of seeds, a bye as None: the highest seeds get the byes."""
    places = knockout_size(players, size)
    order = bracket_order(places)
    # Each pair is s, places+1-s with s the smaller: a bye is always the second.
    return [(a, b if b <= players else None) for a, b in zip(order[::2], order[1::2], strict=True)]


def qualifiers(
    groups: int, advance: int, size: int | None = None, direct: int = 0
) -> list[tuple[str, int]]:
    """Return the qualifiers of a groups stage as (group, place), in the knockout's seed order.

    The `direct` entries hold seeds 1 to N; A1, B1, C1, ..., A2, B2, ... take the next
    seeds in that order, except that players of one rank swap seeds so that two players of
    one group meet as late as the count allows: first in opposite halves, then in opposite
    quarters, and so on down to round one (for 2 groups advancing 2: A1-B2, B1-A2; for 4:
    A1-C2, D1-B2, B1-D2, C1-A2).
    """
    group_names(groups)
    places = knockout_size(direct + groups * check_advance(advance), size)
    order = bracket_order(places)
    leaf = {seed: index for index, seed in enumerate(order)}
    rounds = places.bit_length() - 1
    # A seed's half, quarter, ... down to its round-one match: the leaf's leading bits.
    parts = [
        tuple(leaf[seed] >> (rounds - depth) for depth in range(1, rounds))
        for seed in range(direct + 1, direct + groups * advance + 1)
    ]
    return _named(groups, apart(groups, advance, parts))


def groups_from_groups(
    groups: int, advance: int, into: int, direct: int = 0
) -> list[tuple[str, int]]:
    """Return the qualifiers of a groups stage in seed order for a groups stage drawn from it.

    The `direct` entries hold seeds 1 to N; A1, B1, C1, ..., A2, B2, ... take the next
    seeds, as into a knockout, and all are drawn by snake into `into` groups; players of
    one rank swap seeds so that two players of one earlier group land in two groups
    wherever the count allows (4 groups advancing 2 into 2: A1, D1, B2, C2 and B1, C1,
    A2, D2).
    """
    group_names(groups)
    players = direct + groups * check_advance(advance)
    drawn = snake(range(1, players + 1), into)
    group_of = {seed: index for index, seeds in enumerate(drawn) for seed in seeds}
    parts = [(group_of[seed],) for seed in range(direct + 1, players + 1)]
    return _named(groups, apart(groups, advance, parts))


def check_advance(advance: int) -> int:
    """Return how many go on from each group, at least 1, or refuse."""
    if advance < 1:
        raise Refused("must be at least 1", "advance")
    return advance


def _named(groups: int, order: Sequence[int]) -> list[tuple[str, int]]:
    """Return an order of the qualifiers' groups as (group, place), rank by rank."""
    names = group_names(groups)
    return [(names[group], index // groups + 1) for index, group in enumerate(order)]


BYE = "BYE"


@dataclass(frozen=True)
class Planned:
    """One place of a knockout's plan: a match (its id) or a bye (no id), and its two slots.

    A slot names a seed's place (`ko:S5`, or a qualifier such as `groups:A1`), a match's
    winner or loser (`W:ko-1-3`, `L:ko-2-1`), or `BYE`. The first slot is side A.
    """

    id: str | None
    round: int
    number: int
    slots: tuple[str, str]


def knockout_plan(
    competition: str,
    stage: str,
    seeds: Sequence[str],
    size: int | None = None,
    third_place: bool = False,
) -> list[Planned]:
    """Return every place of a knockout, round by round, from its seeds' slots, seed 1 first.

    Round one pairs the seeds in bracket order, a missing seed a bye (no match); each
    later match takes the winners of two matches before it; the third-place match, if
    asked for, the semi-finals' losers. Ids as the README settles them:
    `{competition}-{stage}-{round}-{n}`, the third place `{competition}-{stage}-3rd`.
    """
    plan = []
    for number, (a, b) in enumerate(first_round(len(seeds), size), start=1):
        slots = (seeds[a - 1], seeds[b - 1] if b is not None else BYE)
        match = None if b is None else f"{competition}-{stage}-1-{number}"
        plan.append(Planned(match, 1, number, slots))
    previous, round_number = len(plan), 1
    while previous > 1:
        round_number += 1
        for number in range(1, previous // 2 + 1):
            slots = (
                f"W:{stage}-{round_number - 1}-{2 * number - 1}",
                f"W:{stage}-{round_number - 1}-{2 * number}",
            )
            plan.append(
                Planned(
                    f"{competition}-{stage}-{round_number}-{number}", round_number, number, slots
                )
            )
        previous //= 2
    if third_place:
        semi = round_number - 1
        semis = [place for place in plan if place.round == semi]
        if semi < 1 or any(place.id is None for place in semis):
            raise Refused(
                "a third-place match needs two semi-finals played: at least 4 players",
                "third_place",
            )
        losers = (f"L:{stage}-{semi}-1", f"L:{stage}-{semi}-2")
        plan.append(Planned(f"{competition}-{stage}-3rd", round_number, 0, losers))
    return plan
