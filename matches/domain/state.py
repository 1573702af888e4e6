"""The state of a match while its events are folded: plain data, and questions asked of it.

`transitions` changes it, `decide` judges a new event against it, `render` spells it as
the notation does; this module does none of the three. Pure Python: no Django.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

from matches.domain.header import Header
from matches.domain.rules import PINS, PLAYERS, Positions, Ruleset, needs_review, placement_zone

CORRECTIONS = ("shot_amended", "shot_retracted")


class Amendment(NamedTuple):
    """The amendment in force for a shot: the event that made it, the new facts, why."""

    seq: int
    facts: Mapping[str, Any]
    reason: str | None


class Retraction(NamedTuple):
    """The retraction of a shot: the event that made it, and why."""

    seq: int
    reason: str | None


@dataclass
class Corrections:
    """The amendments and retractions in force, by the `seq` of the shot they correct."""

    amendments: dict[int, Amendment] = field(default_factory=dict)
    retractions: dict[int, Retraction] = field(default_factory=dict)

    @classmethod
    def of(cls, events: Sequence[Mapping[str, Any]]) -> Corrections:
        """Return the corrections recorded among these events (event 1 first)."""
        corrections = cls()
        for seq, event in enumerate(events, start=1):
            if event["type"] in CORRECTIONS:
                corrections.note(seq, event)
        return corrections

    def note(self, seq: int, event: Mapping[str, Any]) -> bool:
        """Record a correction unless a later one of the same shot is known; return if new."""
        shot = event["shot"]
        if event["type"] == "shot_amended":
            known = self.amendments.get(shot)
            if known is None or known.seq < seq:
                self.amendments[shot] = Amendment(seq, event["facts"], event.get("reason"))
                return True
        elif event["type"] == "shot_retracted" and shot not in self.retractions:
            self.retractions[shot] = Retraction(seq, event.get("reason"))
            return True
        return False


@dataclass
class Game:
    """One game: its breaker, score and winner, and what an amendment may have left open."""

    number: int
    breaker: str
    score: dict[str, int] = field(default_factory=lambda: {"A": 0, "B": 0})
    winner: str | None = None
    shots: int = 0
    end: str | None = None  # "target" or "forfeit"
    void: bool = False  # started after the match was decided
    void_shots: bool = False  # shots were played after it was decided
    closed_by_next: bool = False  # a later game started while this one was recorded open
    reached_as_recorded: bool = False  # reached the target with the rulings first recorded
    recorded_score: dict[str, int] = field(default_factory=lambda: {"A": 0, "B": 0})

    @property
    def decided(self) -> bool:
        return self.winner is not None

    @property
    def won_by(self) -> str | None:
        """Return whom the game counts as won for: its winner; no one for a void game."""
        return None if self.void else self.winner

    @property
    def needs_review(self) -> bool:
        """Return whether an amendment left this game short of the target although it was over."""
        return needs_review(self.decided, self.void, self.closed_by_next, self.reached_as_recorded)


def new_stats() -> dict[str, Any]:
    """Return one player's statistics before the first shot."""
    return {
        "shots": 0,
        "points": 0,
        "points_received": 0,
        "fouls": 0,
        "foul_points_conceded": 0,
        "caroms": {"kiss": 0, "ricochet": 0},
        "pins": {pin: 0 for pin in PINS},
        "best_shot": None,
        "average": 0.0,
    }


def _copied_stats(counted: Mapping[str, Any]) -> dict[str, Any]:
    return {**counted, "caroms": dict(counted["caroms"]), "pins": dict(counted["pins"])}


RESULT_CONFIRMED = "result_confirmed"
CONFIRMING_ROLES = ("referee", "A", "B")  # who signs a result off: the referee, then each player


@dataclass(eq=False)
class MatchState:
    """Where a match stands after events 1 to `seq`, with the corrections known to the fold."""

    header: Header
    corrections: Corrections = field(default_factory=Corrections)
    ruleset: Ruleset = field(init=False)
    seq: int = 0
    events: list[Mapping[str, Any]] = field(default_factory=list)
    lags: list[dict[str, Any]] = field(default_factory=list)
    late_starts: dict[str, int] = field(default_factory=lambda: {"A": 0, "B": 0})
    lag_winner: str | None = None
    lag_repeat: bool = False
    games: list[Game] = field(default_factory=list)
    winner: str | None = None
    due: str | None = None
    in_hand: str | None = None  # "break", "foul" or "respot": why a ball is in hand
    offender: str | None = None
    no_score_next: bool = False  # the next shot follows a re-spot of balls in contact
    positions: Positions = field(
        default_factory=lambda: {"white": None, "yellow": None, "red": None}
    )
    shots: list[dict[str, Any]] = field(default_factory=list)
    shot_index: dict[int, dict[str, Any]] = field(default_factory=dict)
    outside_fouls: list[dict[str, Any]] = field(default_factory=list)
    intermissions: list[dict[str, Any]] = field(default_factory=list)
    stats: dict[str, dict[str, Any]] = field(
        default_factory=lambda: {player: new_stats() for player in PLAYERS}
    )
    # Each result_confirmed so far: its role, its seq and the result's head it confirms.
    confirmations: list[dict[str, Any]] = field(default_factory=list)

    # The memo of rulings under this ruleset, shared by every fold (`transitions.judged`).
    rulings: dict[Any, Any] | None = None

    def __post_init__(self) -> None:
        self.ruleset = self.header.ruleset  # read on every shot: a field, not a property

    def copy(self) -> MatchState:
        """Return a copy to fold on from, this state left as it is.

        The header and the memo of rulings are shared, as every fold of a match shares
        them; the corrections are copied, since folding a correction into the copy notes
        it there (a preview of an amendment must leave the match it previews unamended).
        An entry of `shots`, `lags`, `outside_fouls` or `intermissions` is never changed
        once added, so those lists are copied, not their entries; nor is a game decided
        and followed by another (`transitions`), shared too; what the fold changes in
        place (the other games, the stats, the positions) is copied.
        """
        last = len(self.games) - 1
        return replace(
            self,
            events=list(self.events),
            lags=list(self.lags),
            late_starts=dict(self.late_starts),
            games=[
                game
                if index < last and game.decided
                else replace(game, score=dict(game.score), recorded_score=dict(game.recorded_score))
                for index, game in enumerate(self.games)
            ],
            positions=dict(self.positions),
            shots=list(self.shots),
            shot_index=dict(self.shot_index),
            outside_fouls=list(self.outside_fouls),
            intermissions=list(self.intermissions),
            stats={player: _copied_stats(counted) for player, counted in self.stats.items()},
            confirmations=list(self.confirmations),
            corrections=Corrections(
                dict(self.corrections.amendments), dict(self.corrections.retractions)
            ),
        )

    def shot_number(self, seq: int) -> int | None:
        """Return a shot's number: its place among the match's shots in log order, the first
        1, retracted and void ones counted so that a number never shifts; None for no shot."""
        if seq not in self.shot_index:
            return None
        return bisect_left(self.shots, seq, key=lambda shot: shot["seq"]) + 1

    def result_head(self) -> int:
        """Return the seq of the last event that is not a confirmation: what the result is."""
        for seq in range(self.seq, 0, -1):
            if self.events[seq - 1]["type"] != RESULT_CONFIRMED:
                return seq
        return 0

    def confirmed_by(self) -> list[str]:
        """Return who has confirmed the result as it stands (referee, A, B, in that order):
        a confirmation of an earlier head (an amendment came after it) no longer counts."""
        head = self.result_head()
        roles = {entry["role"] for entry in self.confirmations if entry["confirms"] == head}
        return [role for role in CONFIRMING_ROLES if role in roles]

    @property
    def game(self) -> Game | None:
        """Return the latest game, if one has started."""
        return self.games[-1] if self.games else None

    def game_open(self) -> bool:
        """Return whether the latest game is being played."""
        game = self.game
        return game is not None and not game.decided and not game.void and game.end is None

    def games_won(self) -> dict[str, int]:
        won = {"A": 0, "B": 0}
        for game in self.games:
            if (player := game.won_by) is not None:
                won[player] += 1
        return won

    def all_games_played(self) -> bool:
        """Return whether every game of `best_of` has started: a match has no more."""
        return len(self.games) >= self.ruleset.best_of

    def zone(self) -> str | None:
        """Return the half the ball in hand may be placed in (None: either, or no ball in hand)."""
        offender = self.positions[self.header.ball_of(self.offender)] if self.offender else None
        return placement_zone(self.in_hand, offender)
