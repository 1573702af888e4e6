"""The draws of a competition in stages, as the README settles them, in tables of cases."""

from __future__ import annotations

from itertools import combinations, permutations, product

import pytest

from matches.domain.draws import (
    BYE,
    GroupMatch,
    Planned,
    bracket_order,
    first_round,
    group_names,
    group_plan,
    groups_from_groups,
    knockout_plan,
    knockout_size,
    pairings,
    qualifiers,
    snake,
)
from matches.domain.errors import Refused

# -- Groups ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("entries", "groups", "drawn"),
    [
        (8, 2, [[1, 4, 5, 8], [2, 3, 6, 7]]),
        (8, 4, [[1, 8], [2, 7], [3, 6], [4, 5]]),
        (10, 3, [[1, 6, 7], [2, 5, 8], [3, 4, 9, 10]]),
        (7, 2, [[1, 4, 5], [2, 3, 6, 7]]),
        (5, 1, [[1, 2, 3, 4, 5]]),
        (3, 3, [[1], [2], [3]]),
    ],
)
def test_entries_are_drawn_into_groups_in_snake_order(entries, groups, drawn):
    assert snake(list(range(1, entries + 1)), groups) == drawn


@pytest.mark.parametrize("entries", range(2, 65))
@pytest.mark.parametrize("groups", [1, 2, 3, 4, 8])
def test_group_sizes_differ_by_at_most_one_and_every_entry_is_drawn_once(entries, groups):
    drawn = snake(list(range(1, entries + 1)), groups)

    sizes = [len(group) for group in drawn]
    assert max(sizes) - min(sizes) <= 1
    assert sorted(seed for group in drawn for seed in group) == list(range(1, entries + 1))
    assert all(group == sorted(group) for group in drawn)


def test_groups_are_named_by_letters_and_a_27th_is_refused():
    assert group_names(3) == ["A", "B", "C"]
    with pytest.raises(Refused) as refused:
        group_names(27)
    assert refused.value.field == "groups"


@pytest.mark.parametrize("players", range(2, 17))
def test_in_a_groups_rounds_everyone_meets_everyone_once_and_no_one_twice_a_round(players):
    played = pairings(players)

    assert sorted(tuple(sorted((a, b))) for _, a, b in played) == list(
        combinations(range(players), 2)
    )
    by_round: dict[int, list[int]] = {}
    for round_number, a, b in played:
        by_round.setdefault(round_number, []).extend([a, b])
    assert all(len(seen) == len(set(seen)) for seen in by_round.values())
    assert len(by_round) == players - 1 + players % 2


def test_a_groups_matches_are_numbered_in_circle_method_order_with_their_rounds():
    assert group_plan("euro", "groups", "B", 4) == [
        GroupMatch("euro-groups-B1", 1, 0, 3),
        GroupMatch("euro-groups-B2", 1, 1, 2),
        GroupMatch("euro-groups-B3", 2, 2, 0),  # sides alternate from round to round
        GroupMatch("euro-groups-B4", 2, 1, 3),
        GroupMatch("euro-groups-B5", 3, 0, 1),
        GroupMatch("euro-groups-B6", 3, 2, 3),
    ]


# -- Knockouts ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("places", "order"),
    [
        (2, [1, 2]),
        (4, [1, 4, 2, 3]),
        (8, [1, 8, 4, 5, 2, 7, 3, 6]),
        (16, [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]),
    ],
)
def test_the_bracket_order_is_the_one_the_spec_writes(places, order):
    assert bracket_order(places) == order


@pytest.mark.parametrize(
    ("players", "size", "places"),
    [(2, None, 2), (3, None, 4), (5, None, 8), (16, None, 16), (17, None, 32), (6, 8, 8)],
)
def test_a_knockout_has_the_smallest_power_of_two_places_unless_told(players, size, places):
    assert knockout_size(players, size) == places


@pytest.mark.parametrize(("players", "size"), [(5, 4), (4, 8), (6, 12), (6, 6), (1, None)])
def test_a_size_too_small_too_large_or_not_a_power_of_two_is_refused_naming_it(players, size):
    with pytest.raises(Refused) as refused:
        knockout_size(players, size, "stages[1].size")
    assert refused.value.field == "stages[1].size"


@pytest.mark.parametrize("players", range(2, 65))
def test_the_top_seeds_get_the_byes_and_every_seed_plays_its_mirror(players):
    places = knockout_size(players)
    matches = first_round(players)

    seeds = [seed for pair in matches for seed in pair if seed is not None]
    assert sorted(seeds) == list(range(1, players + 1))
    byes = sorted(a for a, b in matches if b is None)
    assert byes == list(range(1, places - players + 1))
    for a, b in matches:
        assert b is None or a + b == places + 1
    half = max(len(matches) // 2, 1)
    assert any(1 in pair for pair in matches[:half])
    assert any(2 in pair for pair in matches[-half:])  # 1 and 2 meet in the final alone


# -- From groups into a knockout ---------------------------------------------------------


def meetings(groups, advance):
    """Return round one of the knockout the qualifiers of a groups stage go into."""
    seeded = qualifiers(groups, advance)
    return [
        (seeded[a - 1], seeded[b - 1] if b is not None else None)
        for a, b in first_round(len(seeded))
    ]


def test_two_groups_advancing_two_give_a1_b2_and_b1_a2():
    assert meetings(2, 2) == [(("A", 1), ("B", 2)), (("B", 1), ("A", 2))]


def test_four_groups_advancing_two_keep_each_group_in_both_halves():
    assert meetings(4, 2) == [
        (("A", 1), ("C", 2)),
        (("D", 1), ("B", 2)),
        (("B", 1), ("D", 2)),
        (("C", 1), ("A", 2)),
    ]


@pytest.mark.parametrize("groups", [1, 2, 4, 8])
@pytest.mark.parametrize("advance", [1, 2, 3, 4])
def test_qualifiers_are_seeded_by_rank_and_a_group_split_over_the_halves(groups, advance):
    if groups * advance < 2:
        with pytest.raises(Refused):
            qualifiers(groups, advance)
        return
    seeded = qualifiers(groups, advance)
    places = knockout_size(len(seeded))
    top = set(bracket_order(places)[: places // 2])

    # Every qualifier once, each rank in the seeds of its rank.
    assert sorted(seeded) == sorted(
        (name, place) for name in group_names(groups) for place in range(1, advance + 1)
    )
    assert [place for _, place in seeded] == sorted(place for _, place in seeded)
    # A group's players as evenly split over the two halves as they can be.
    for name in group_names(groups):
        halves = [(seed in top) for seed, entry in enumerate(seeded, start=1) if entry[0] == name]
        assert abs(halves.count(True) - halves.count(False)) <= 1
    # Round one pairs two groups wherever there are two.
    if groups > 1:
        for a, b in meetings(groups, advance):
            assert b is None or a[0] != b[0]


# -- Qualifiers after direct entries: one group's players as far apart as can be -----


def shared_halves(seeded, direct, places):
    """Count the pairs of one group's qualifiers who share a half of the bracket."""
    top = set(bracket_order(places)[: places // 2])
    sides = [((seed in top), name) for seed, (name, _) in enumerate(seeded, start=direct + 1)]
    return sum(1 for a, b in combinations(sides, 2) if a == b)


def fewest_shared(seats: list[int], groups: int) -> int:
    """Return the fewest pairs of one group that `seats` places in one area can hold."""
    pairs = 0
    for seated in seats:
        each, more = divmod(seated, groups)
        pairs += more * (each + 1) * each // 2 + (groups - more) * each * (each - 1) // 2
    return pairs


def swapped_within_ranks(seeded, groups):
    """Yield every order the qualifiers take by one swap of two players of one rank.

    Group winners keep their seeds: swapping two of them renames two groups.
    """
    for start in range(groups, len(seeded), groups):
        for i, j in combinations(range(start, start + groups), 2):
            swapped = list(seeded)
            swapped[i], swapped[j] = swapped[j], swapped[i]
            yield swapped


def test_direct_entries_take_the_first_seeds_and_one_group_s_qualifiers_still_cross():
    seeded = qualifiers(2, 2, direct=2)
    order = ["S1", "S2", *(f"{name}{place}" for name, place in seeded)]

    round_one = [(order[a - 1], order[b - 1]) for a, b in first_round(6) if b is not None]

    assert seeded == [("A", 1), ("B", 1), ("A", 2), ("B", 2)]
    assert round_one == [("B1", "A2"), ("A1", "B2")]  # seeds 1 and 2 have byes


@pytest.mark.parametrize("groups", range(2, 9))
@pytest.mark.parametrize("advance", range(1, 5))
@pytest.mark.parametrize("direct", range(0, 5))
@pytest.mark.parametrize("told_size", [False, True])
def test_no_two_of_one_group_share_a_half_when_a_swap_within_their_rank_avoids_it(
    groups, advance, direct, told_size
):
    players = direct + groups * advance
    if players > 256:
        return
    places = knockout_size(players)
    seeded = qualifiers(groups, advance, places if told_size else None, direct)

    assert sorted(seeded) == sorted(
        (name, place) for name in group_names(groups) for place in range(1, advance + 1)
    )
    assert [place for _, place in seeded] == sorted(place for _, place in seeded)
    shared = shared_halves(seeded, direct, places)
    assert all(
        shared <= shared_halves(other, direct, places)
        for other in swapped_within_ranks(seeded, groups)
    )
    top = set(bracket_order(places)[: places // 2])
    seats = range(direct + 1, players + 1)
    in_top = sum(1 for seed in seats if seed in top)
    assert shared == fewest_shared([in_top, groups * advance - in_top], groups)


def meeting_rounds(seeded, direct, places):
    """Count, for each round before the final from the semi-final down, the pairs of one
    group's qualifiers who could meet in it or earlier."""
    leaf = {seed: index for index, seed in enumerate(bracket_order(places))}
    rounds = places.bit_length() - 1
    met = [
        (leaf[i + direct + 1] ^ leaf[j + direct + 1]).bit_length()
        for (i, (a, _)), (j, (b, _)) in combinations(enumerate(seeded), 2)
        if a == b
    ]
    return tuple(sum(1 for m in met if m <= last) for last in range(rounds - 1, 0, -1))


def every_order_by_rank(groups, advance):
    """Yield every order of the qualifiers that swaps within ranks alone, rank 1 as it is."""
    names = group_names(groups)
    for ranks in product(permutations(names), repeat=advance - 1):
        yield [(name, 1) for name in names] + [
            (name, rank) for rank, order in enumerate(ranks, start=2) for name in order
        ]


@pytest.mark.parametrize(
    ("groups", "advance"), [(2, 2), (2, 3), (2, 4), (3, 2), (3, 3), (3, 4), (4, 2), (4, 3)]
)
@pytest.mark.parametrize("direct", range(0, 5))
def test_one_group_s_players_meet_as_late_as_any_order_within_ranks_lets_them(
    groups, advance, direct
):
    places = knockout_size(direct + groups * advance)
    seeded = qualifiers(groups, advance, direct=direct)

    best = min(
        meeting_rounds(order, direct, places) for order in every_order_by_rank(groups, advance)
    )

    assert meeting_rounds(seeded, direct, places) == best


# -- Groups from groups: one earlier group's players in different groups -------------


def shared_groups(seeded, direct, into):
    """Count the pairs of one earlier group's qualifiers whom the snake puts in one group."""
    drawn = snake([("direct", 0)] * direct + list(seeded), into)
    return sum(1 for group in drawn for a, b in combinations(group, 2) if a[0] == b[0] != "direct")


def test_four_groups_advancing_two_into_two_groups_split_every_earlier_group():
    seeded = groups_from_groups(4, 2, 2)

    assert snake(seeded, 2) == [
        [("A", 1), ("D", 1), ("B", 2), ("C", 2)],
        [("B", 1), ("C", 1), ("A", 2), ("D", 2)],
    ]


def test_three_groups_advancing_two_into_three_groups_never_meet_their_own_again():
    seeded = groups_from_groups(3, 2, 3)

    assert snake(seeded, 3) == [
        [("A", 1), ("C", 2)],
        [("B", 1), ("A", 2)],
        [("C", 1), ("B", 2)],
    ]


@pytest.mark.parametrize("groups", range(2, 9))
@pytest.mark.parametrize("advance", range(1, 5))
@pytest.mark.parametrize("direct", range(0, 5))
def test_no_two_of_one_earlier_group_share_a_group_when_the_count_lets_them_part(
    groups, advance, direct
):
    players = direct + groups * advance
    for into in range(1, min(players // 2, 26) + 1):
        seeded = groups_from_groups(groups, advance, into, direct)

        assert sorted(seeded) == sorted(
            (name, place) for name in group_names(groups) for place in range(1, advance + 1)
        )
        assert [place for _, place in seeded] == sorted(place for _, place in seeded)
        shared = shared_groups(seeded, direct, into)
        assert all(
            shared <= shared_groups(other, direct, into)
            for other in swapped_within_ranks(seeded, groups)
        )
        drawn = snake(list(range(1, players + 1)), into)
        seats = [sum(1 for seed in group if seed > direct) for group in drawn]
        assert shared == fewest_shared(seats, groups)


@pytest.mark.parametrize(
    ("groups", "advance"), [(2, 2), (2, 3), (2, 4), (3, 2), (3, 3), (3, 4), (4, 2), (4, 3)]
)
@pytest.mark.parametrize("direct", range(0, 5))
def test_one_earlier_group_s_players_share_groups_as_little_as_any_order_within_ranks(
    groups, advance, direct
):
    for into in range(2, (direct + groups * advance) // 2 + 1):
        seeded = groups_from_groups(groups, advance, into, direct)

        best = min(
            shared_groups(order, direct, into) for order in every_order_by_rank(groups, advance)
        )

        assert shared_groups(seeded, direct, into) == best


# -- A knockout's plan -------------------------------------------------------------------


def test_two_groups_into_a_knockout_of_four_with_a_third_place_is_the_spec_s_plan():
    seeds = [f"groups:{name}{place}" for name, place in qualifiers(2, 2)]

    assert knockout_plan("euro", "ko", seeds, third_place=True) == [
        Planned("euro-ko-1-1", 1, 1, ("groups:A1", "groups:B2")),
        Planned("euro-ko-1-2", 1, 2, ("groups:B1", "groups:A2")),
        Planned("euro-ko-2-1", 2, 1, ("W:ko-1-1", "W:ko-1-2")),
        Planned("euro-ko-3rd", 2, 0, ("L:ko-1-1", "L:ko-1-2")),
    ]


def test_a_bye_is_a_round_one_place_without_a_match_its_seed_against_bye():
    plan = knockout_plan("open", "ko", ["ko:S1", "ko:S2", "ko:S3"])

    assert plan[:2] == [
        Planned(None, 1, 1, ("ko:S1", BYE)),
        Planned("open-ko-1-2", 1, 2, ("ko:S2", "ko:S3")),
    ]
    assert plan[2] == Planned("open-ko-2-1", 2, 1, ("W:ko-1-1", "W:ko-1-2"))


@pytest.mark.parametrize("players", range(2, 65))
def test_every_plan_plays_one_match_fewer_than_its_players_each_fed_by_the_round_before(
    players,
):
    seeds = [f"ko:S{seed}" for seed in range(1, players + 1)]
    third = players >= 4  # from 4 players on, both semi-finals are played
    plan = knockout_plan("c", "ko", seeds, third_place=third)

    matches = [place for place in plan if place.id is not None]
    assert len(matches) == players - 1 + third
    assert len({place.id for place in matches}) == len(matches)
    first = [slot for place in plan if place.round == 1 for slot in place.slots]
    assert sorted(slot for slot in first if slot != BYE) == sorted(seeds)
    names = {f"{place.round}-{place.number}": place for place in plan}
    for place in plan:
        for slot in place.slots:
            if slot[:2] in ("W:", "L:"):
                fed = names[slot.removeprefix(slot[:2] + "ko-")]
                assert fed.round == place.round - 1
    last = max(place.round for place in plan)
    assert [place.number for place in plan if place.round == last] == [1, 0][: 1 + third]


def test_a_third_place_is_refused_where_a_semi_final_is_a_bye():
    with pytest.raises(Refused) as refused:
        knockout_plan("c", "ko", ["ko:S1", "ko:S2", "ko:S3"], third_place=True)
    assert refused.value.field == "third_place"
