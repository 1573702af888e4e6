"""Sections 2, 8 and 11: how a match goes on between the shots, game after game.

Who breaks the next game, who receives a ruling's points, the score cut at the
target, when a game and the match are won, what a foul outside a stroke does, who a
forfeit credits, which shot a retraction may name, when a game needs review. Plain
values in, plain values out: the fold (`matches.domain.transitions`), the legality checks
(`matches.domain.decide`) and the read side ask these rather than spelling them again.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from matches.domain.errors import Refused
from matches.domain.rules.players import other
from matches.domain.rules.ruleset import Ruleset

# The pause before a deciding game, in minutes, when the referee gives no length.
INTERMISSION_MINUTES = 5


def next_breaker(last_breaker: str) -> str:
    """Return who breaks the next game: the players break in turn (section 2)."""
    return other(last_breaker)


def receiver(player: str | None, scorer: str | None, points: int | None) -> str | None:
    """Return who receives a ruling's points: the shooter or the opponent, None for no points.

    `scorer` is the ruling's ("shooter", "opponent" or None), `player` who played the shot.
    """
    if not points or scorer is None or player is None:
        return None
    return player if scorer == "shooter" else other(player)


def capped(score: int, points: int, target: int) -> int:
    """Return a game score after these points: never past the target."""
    return min(target, score + points)


def game_won(score: int, target: int) -> bool:
    """Return whether a game score wins the game: it has reached the target."""
    return score >= target


def match_won(games_won: int, ruleset: Ruleset) -> bool:
    """Return whether a player's games won make the majority of `best_of`: the match."""
    return games_won >= ruleset.majority


def forfeit_winner(player: str) -> str:
    """Return who a forfeit credits: the opponent of the player who left (section 8)."""
    return other(player)


class OutsideFoul(NamedTuple):
    """What a foul outside a stroke does: who is due next, who receives how many points."""

    due: str | None
    receiver: str
    points: int


def outside_foul(offender: str, due: str | None, ruleset: Ruleset) -> OutsideFoul:
    """Return what a foul outside a stroke does (section 11).

    It takes the offender's turn if it was his; his opponent receives the foul's points
    and plays from hand.
    """
    return OutsideFoul(
        due=other(offender) if due == offender else due,
        receiver=other(offender),
        points=ruleset.foul,
    )


def needs_review(
    decided: bool, void: bool, closed_by_next: bool, reached_as_recorded: bool
) -> bool:
    """Return whether a game needs review: undecided, yet over as it was first recorded.

    An amendment can leave a game short of the target although it reached it as played,
    or although a later game has started since.
    """
    return not decided and not void and (closed_by_next or reached_as_recorded)


def latest_in_force(shots: Sequence[Mapping[str, Any]]) -> int | None:
    """Return the seq of the latest shot not retracted (None before the first shot)."""
    for shot in reversed(shots):
        if not shot["retracted"]:
            return int(shot["seq"])
    return None


def check_retraction(
    seq: int, shots: Sequence[Mapping[str, Any]], since: Sequence[Mapping[str, Any]]
) -> None:
    """Refuse to retract a shot but the latest in force, or one a game has followed.

    `shots` are the match's shots so far, `since` the events recorded after this one.
    """
    latest = latest_in_force(shots)
    if latest is None:
        raise Refused.because("nothing_to_retract", "shot")
    if seq != latest:
        raise Refused.because("retract_latest_only", "shot", shot=latest)
    if any(event["type"] == "game_started" for event in since):
        raise Refused.because("game_since_shot", "shot")


def big_shot_points(ruleset: Ruleset) -> int:
    """Return the points from which a shot is big: the red pin alone's, or more."""
    return ruleset.center_alone


def is_big_shot(scorer: str | None, points: int, ruleset: Ruleset) -> bool:
    """Return whether a shot is big: its shooter scores the red pin alone's points or more."""
    return scorer == "shooter" and points >= big_shot_points(ruleset)


def average(points: int, shots: int) -> float:
    """Return points per shot to three decimals (0.0 before the first shot)."""
    return round(points / shots, 3) if shots else 0.0
