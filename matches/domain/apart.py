"""Keeping one group's qualifiers apart in the draw that follows, as far as the count allows.

The qualifiers of a groups stage take the seeds after the direct entries in the order A1,
B1, C1, ..., A2, B2, ...: rank by rank. Each seed lies in parts of the next draw: in a
knockout its half, its quarter, ... down to its round-one match; in groups, its group.
Two players of one earlier group in one part are a pair that costs; pairs in a coarser
part cost before any in a finer one. Players of one rank swap seeds to lower the cost.

Pure Python: an order is a list of group numbers (0 for A), one per seed.
"""

from __future__ import annotations

import itertools
from collections import Counter, deque
from collections.abc import Iterator, Sequence

Parts = tuple[int, ...]  # the parts a seed lies in, the coarsest first

# How many two swaps at once a draw may weigh (a few tenths of a second): a draw is made
# under the log's lock, and a large shape's must not take seconds.
PAIRED_SWAPS_WEIGHED = 20_000


def apart(groups: int, advance: int, parts: Sequence[Parts]) -> list[int]:
    """Return the groups of the qualifiers' seeds, rank by rank, their pairs in a part fewest.

    From the written order (A, B, C, ... in each rank): swap two players of one rank while
    that lowers the cost; else swap two groups along a chain of ranks that moves a pair of
    one group out of a part (which leaves, at the coarsest parts, no pair that any order
    within ranks could part); else try two swaps in two ranks at once, within a budget.
    At the end the groups are renamed so that the group winners keep seeds A1, B1, C1, ...
    """
    order = _Order([group for _ in range(advance) for group in range(groups)], groups, parts)
    # Group winners keep their seeds but in a chain: the renaming puts them back.
    swaps = [
        (i, j)
        for start in range(groups, len(order.groups), groups)
        for i, j in itertools.combinations(range(start, start + groups), 2)
    ]
    improved = True
    while improved:
        improved = (
            order.improve_by_one_swap(swaps)
            or order.improve_by_a_chain()
            or order.improve_by_two_swaps(swaps)
        )
    return order.winners_in_written_order()


class _Order:
    """An order of the qualifiers' groups, with how many of each group lie in each part."""

    def __init__(self, groups: Sequence[int], count: int, parts: Sequence[Parts]) -> None:
        self.groups = list(groups)
        self.count_of_groups = count
        self.parts = parts
        self.depths = len(parts[0]) if parts else 0
        self.together: Counter[tuple[int, int, int]] = Counter(
            (group, depth, part)
            for group, seat in zip(groups, parts, strict=True)
            for depth, part in enumerate(seat)
        )
        self.unchanged: Parts = (0,) * self.depths
        self.weighable = PAIRED_SWAPS_WEIGHED

    def gain(self, i: int, j: int) -> Parts:
        """Return what swapping seeds i and j changes in the pairs sharing a part, by depth."""
        a, b, n = self.groups[i], self.groups[j], self.together
        if a == b:
            return self.unchanged
        return tuple(
            # a leaves at_i for at_j, b at_j for at_i.
            0 if at_i == at_j else n[a, d, at_j] - n[a, d, at_i] + n[b, d, at_i] - n[b, d, at_j] + 2
            for d, (at_i, at_j) in enumerate(zip(self.parts[i], self.parts[j], strict=True))
        )

    def swap(self, i: int, j: int) -> None:
        """Swap the groups of seeds i and j."""
        a, b = self.groups[i], self.groups[j]
        for depth, (at_i, at_j) in enumerate(zip(self.parts[i], self.parts[j], strict=True)):
            self.together[a, depth, at_i] -= 1
            self.together[a, depth, at_j] += 1
            self.together[b, depth, at_j] -= 1
            self.together[b, depth, at_i] += 1
        self.groups[i], self.groups[j] = b, a

    def swapped(self, swaps: Sequence[tuple[int, int]]) -> Parts:
        """Make these swaps in turn and return what they change together."""
        change = self.unchanged
        for i, j in swaps:
            change = _plus(change, self.gain(i, j))
            self.swap(i, j)
        return change

    def improve_by_one_swap(self, swaps: Sequence[tuple[int, int]]) -> bool:
        """Make every swap, in turn, that lowers the cost; return whether one did."""
        helped = False
        for i, j in swaps:
            if self.gain(i, j) < self.unchanged:
                self.swap(i, j)
                helped = True
        return helped

    def improve_by_a_chain(self) -> bool:
        """Swap two groups along the first chain of ranks that lowers the cost, if any."""
        for depth in range(self.depths):
            for a, b in itertools.permutations(range(self.count_of_groups), 2):
                for chain in self._chains(a, b, depth):
                    if self.swapped(chain) < self.unchanged:
                        return True
                    self.swapped(chain[::-1])
        return False

    def _chains(self, a: int, b: int, depth: int) -> Iterator[list[tuple[int, int]]]:
        """Yield, for each part holding at least two more of group a than of b, the shortest
        chain of ranks whose swaps of a and b move one a from it to a part with more b.

        The parts between keep their counts; the cost of a and b falls by two or more.
        """
        edges: dict[int, list[tuple[int, int, int]]] = {}  # a's part: (b's part, a's, b's seed)
        for start in range(0, len(self.groups), self.count_of_groups):
            rank = self.groups[start : start + self.count_of_groups]
            at_a, at_b = start + rank.index(a), start + rank.index(b)
            part_a, part_b = self.parts[at_a][depth], self.parts[at_b][depth]
            if part_a != part_b:
                edges.setdefault(part_a, []).append((part_b, at_a, at_b))

        def more_a(part: int) -> int:
            return self.together[a, depth, part] - self.together[b, depth, part]

        for first in sorted(part for part in edges if more_a(part) >= 2):
            came: dict[int, tuple[int, tuple[int, int]] | None] = {first: None}
            waiting = deque([first])
            while waiting:
                part = waiting.popleft()
                if more_a(part) <= -1:
                    yield _back(came, part)
                    break
                for later, at_a, at_b in edges.get(part, []):
                    if later not in came:
                        came[later] = (part, (at_a, at_b))
                        waiting.append(later)

    def improve_by_two_swaps(self, swaps: Sequence[tuple[int, int]]) -> bool:
        """Make the first two swaps, in two ranks, that together lower the cost; return whether.

        Called when no one swap helps, so the second must move a group the first moved:
        any other swap is worth what it was worth before, nothing. Past the draw's budget of
        pairs weighed, none is tried.
        """
        for i, j in swaps:
            moved = (self.groups[i], self.groups[j])
            first = self.gain(i, j)
            self.swap(i, j)
            for k, m in self._swaps_moving(moved, i // self.count_of_groups + 1):
                self.weighable -= 1
                if self.weighable < 0:
                    self.swap(i, j)
                    return False
                if _plus(first, self.gain(k, m)) < self.unchanged:
                    self.swap(k, m)
                    return True
            self.swap(i, j)
        return False

    def _swaps_moving(self, moved: tuple[int, int], first_rank: int) -> Iterator[tuple[int, int]]:
        """Yield the swaps, from rank `first_rank` on, that move a player of a `moved` group."""
        size = self.count_of_groups
        for start in range(first_rank * size, len(self.groups), size):
            for group in moved:
                k = self.groups.index(group, start, start + size)
                yield from ((k, m) for m in range(start, start + size) if m != k)

    def winners_in_written_order(self) -> list[int]:
        """Return the order with its groups renamed so that rank 1 reads A, B, C, ..."""
        renamed = {group: name for name, group in enumerate(self.groups[: self.count_of_groups])}
        return [renamed[group] for group in self.groups]


def _plus(one: Parts, other: Parts) -> Parts:
    return tuple(x + y for x, y in zip(one, other, strict=True))


def _back(came: dict[int, tuple[int, tuple[int, int]] | None], part: int) -> list[tuple[int, int]]:
    """Return the swaps of a chain found breadth first, from its first part to `part`."""
    chain = []
    step = came[part]
    while step is not None:
        part, swap = step
        chain.append(swap)
        step = came[part]
    return chain[::-1]
