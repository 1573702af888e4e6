"""The ranking of a competition's standings table (the API's), from what each match counts for.

A match's `Result` is taken from its fold (`matches.domain.render.result_of`); a `Table` adds
and takes away results one match at a time and ranks the players: match points (2
for a win), then game difference, then point difference, then the match points of
the tied players' matches among themselves, then the name compared case-folded.
Unfinished matches and matches under review are not counted: they are `pending`.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from matches.domain.rules.flow import average

WIN_POINTS = 2
SIDES = ("A", "B")


@dataclass(frozen=True)
class Result:
    """What the standings count of one match: its players, and its result once counted.

    A match that is not counted (unfinished, under review) carries no numbers, so that
    the shots of a game in progress change nothing the standings show.
    """

    players: tuple[Hashable, Hashable]  # A's and B's keys
    counted: bool = False
    winner: str | None = None  # "A" or "B"
    games: tuple[int, int] = (0, 0)
    points: tuple[int, int] = (0, 0)  # the sum of each player's game scores
    own_points: tuple[int, int] = (0, 0)  # points scored with their own shots
    shots: tuple[int, int] = (0, 0)

    def as_json(self) -> dict[str, Any]:
        return {
            "players": list(self.players),
            "counted": self.counted,
            "winner": self.winner,
            "games": list(self.games),
            "points": list(self.points),
            "own_points": list(self.own_points),
            "shots": list(self.shots),
        }

    @classmethod
    def from_json(
        cls, value: Mapping[str, Any], players: tuple[Hashable, Hashable] | None = None
    ) -> Result:
        """Return the result `as_json` wrote, naming its players by `players` if given."""
        return cls(
            players=(value["players"][0], value["players"][1]) if players is None else players,
            counted=value["counted"],
            winner=value["winner"],
            games=(value["games"][0], value["games"][1]),
            points=(value["points"][0], value["points"][1]),
            own_points=(value["own_points"][0], value["own_points"][1]),
            shots=(value["shots"][0], value["shots"][1]),
        )


@dataclass
class Totals:
    """One player's counted matches, summed."""

    played: int = 0
    won: int = 0
    lost: int = 0
    match_points: int = 0
    games_won: int = 0
    games_lost: int = 0
    points_for: int = 0
    points_against: int = 0
    own_points: int = 0
    shots: int = 0
    appearances: int = 0  # matches with at least one event, counted or not

    def average(self) -> float:
        return average(self.own_points, self.shots)


@dataclass
class Table:
    """A competition's counted results, kept one match at a time, and its ranking."""

    results: dict[Hashable, Result] = field(default_factory=dict)
    totals: dict[Hashable, Totals] = field(default_factory=dict)
    # Match points a player took from another, for the tie-break between tied players.
    against: dict[tuple[Hashable, Hashable], int] = field(default_factory=dict)
    pending: int = 0

    @classmethod
    def of(cls, results: Iterable[tuple[Hashable, Result | None]]) -> Table:
        table = cls()
        for match, result in results:
            table.put(match, result)
        return table

    def put(self, match: Hashable, result: Result | None) -> None:
        """Count a match's result (None: it has no event yet), in place of its last one."""
        old = self.results.pop(match, None)
        if old is not None:
            self._count(old, -1)
        if result is not None:
            self.results[match] = result
            self._count(result, +1)

    def _count(self, result: Result, sign: int) -> None:
        for player in result.players:
            self.totals.setdefault(player, Totals()).appearances += sign
        if not result.counted:
            self.pending += sign
            return
        for side, player in enumerate(result.players):
            mine, theirs = side, 1 - side
            won = result.winner == SIDES[side]
            totals = self.totals[player]
            totals.played += sign
            totals.won += sign * won
            totals.lost += sign * (not won)
            totals.match_points += sign * WIN_POINTS * won
            totals.games_won += sign * result.games[mine]
            totals.games_lost += sign * result.games[theirs]
            totals.points_for += sign * result.points[mine]
            totals.points_against += sign * result.points[theirs]
            totals.own_points += sign * result.own_points[mine]
            totals.shots += sign * result.shots[mine]
            if won:
                pair = (player, result.players[theirs])
                self.against[pair] = self.against.get(pair, 0) + sign * WIN_POINTS

    def rows(self, names: Mapping[Hashable, tuple[str, str | None]]) -> list[dict[str, Any]]:
        """Return the API's standings rows, ranked; `names`: each key's name and federation id."""
        players = [key for key, totals in self.totals.items() if totals.appearances > 0]
        ordered = rank(players, self.totals, self.against, {k: names[k][0] for k in players})
        return [
            row(number, key, names[key], self.totals[key])
            for number, key in enumerate(ordered, start=1)
        ]


def rank(
    players: Iterable[Hashable],
    totals: Mapping[Hashable, Totals],
    against: Mapping[tuple[Hashable, Hashable], int],
    names: Mapping[Hashable, str],
    seeds: Mapping[Hashable, int] | None = None,
) -> list[Hashable]:
    """Return the players in ranking order (the API's standings: no shared ranks).

    With `seeds` (a group of a competition in stages), a tie the head-to-head leaves is
    broken by seed, lower first, before the name.
    """

    def standing(key: Hashable) -> tuple[int, int, int]:
        t = totals[key]
        return (-t.match_points, -(t.games_won - t.games_lost), -(t.points_for - t.points_against))

    groups: dict[tuple[int, int, int], list[Hashable]] = {}
    for key in players:
        groups.setdefault(standing(key), []).append(key)
    ordered: list[Hashable] = []
    for _, tied in sorted(groups.items(), key=lambda item: item[0]):
        ordered.extend(sorted(tied, key=lambda key: _among(key, tied, against, names, seeds)))
    return ordered


def _among(
    key: Hashable,
    tied: list[Hashable],
    against: Mapping[tuple[Hashable, Hashable], int],
    names: Mapping[Hashable, str],
    seeds: Mapping[Hashable, int] | None,
) -> tuple[int, int, str, str]:
    head_to_head = sum(against.get((key, other), 0) for other in tied if other != key)
    seed = seeds[key] if seeds is not None else 0
    # The key last: two players of the same name still get one order, always the same.
    return (-head_to_head, seed, names[key].casefold(), str(key))


def row(number: int, key: Hashable, name: tuple[str, str | None], t: Totals) -> dict[str, Any]:
    return {
        "rank": number,
        "player": name[0],
        "player_id": name[1],
        "player_key": key,
        "played": t.played,
        "won": t.won,
        "lost": t.lost,
        "match_points": t.match_points,
        "games_won": t.games_won,
        "games_lost": t.games_lost,
        "points_for": t.points_for,
        "points_against": t.points_against,
        "average": t.average(),
    }


def moves(before: list[dict[str, Any]], after: list[dict[str, Any]]) -> dict[str, Any]:
    """Return who moved from which rank to which, and whose match points changed.

    Each row of `after` is given its `change`: places gained since `before` (negative:
    lost; null: new in the table), what the page's arrows show.
    """
    was = {entry["player_key"]: entry for entry in before}
    moved, points = [], []
    for entry in after:
        old = was.get(entry["player_key"])
        old_rank = old["rank"] if old else None
        entry["change"] = None if old_rank is None else old_rank - entry["rank"]
        if old_rank != entry["rank"]:
            moved.append({"player": entry["player"], "from": old_rank, "to": entry["rank"]})
        old_points = old["match_points"] if old else 0
        if old_points != entry["match_points"]:
            points.append(
                {"player": entry["player"], "from": old_points, "to": entry["match_points"]}
            )
    return {"moves": moved, "points": points}
