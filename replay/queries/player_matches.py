"""A player's matches from their side of the table, and what they add up to."""

from __future__ import annotations

from typing import Any

from django.db.models import F, Q, QuerySet

from matches.domain.rules import average
from matches.models import Match, Player
from replay.models import MatchSummary
from replay.queries.player_keys import player_key

VOID = Match.Status.VOID.value
FINISHED = Match.Status.FINISHED.value


def player_lines(player: Player, versus: Player | None = None) -> list[dict[str, Any]]:
    """Return a player's matches (those against `versus` alone, if given), newest first."""
    return [player_line(row, player) for row in _summaries(player, versus)]


def head_to_head(
    player: Player, versus: Player
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Return the matches of two players, newest first, from each one's side of the table."""
    rows = list(_summaries(player, versus))
    return [player_line(row, player) for row in rows], [player_line(row, versus) for row in rows]


def finished_totals(lines: list[dict[str, Any]]) -> dict[str, Any]:
    """Return what the finished ones of a player's matches add up to (as `player_totals`)."""
    return player_totals([line for line in lines if line["status"] == FINISHED])


def _summaries(player: Player, versus: Player | None) -> QuerySet[MatchSummary]:
    rows = (
        MatchSummary.objects.filter(Q(player_a=player) | Q(player_b=player))
        .select_related("competition", "player_a", "player_b")
        # Newest first, and an undated match (one under way, most often) before every dated
        # one, whichever database: the chart reads this list backwards, oldest first.
        .order_by(F("date").desc(nulls_first=True), "-match_id")
    )
    if versus is not None:
        rows = rows.filter(Q(player_a=versus) | Q(player_b=versus))
    return rows


def player_line(summary: MatchSummary, player: Player) -> dict[str, Any]:
    """Return one of a player's matches from their side of the table: theirs first."""
    side = _side(summary, player)
    other = summary.player_b if side == "A" else summary.player_a
    mine, theirs = ("a", "b") if side == "A" else ("b", "a")
    return {
        "match": summary.match_id,
        "competition": summary.competition,
        "date": summary.date,
        "opponent": {
            "name": getattr(summary, f"player_{theirs}_name"),
            "key": player_key(other.federation_id, other.pk),
        },
        "games": (getattr(summary, f"games_won_{mine}"), getattr(summary, f"games_won_{theirs}")),
        "points": (getattr(summary, f"points_{mine}"), getattr(summary, f"points_{theirs}")),
        "average": getattr(summary, f"average_{mine}"),
        "own_points": getattr(summary, f"own_points_{mine}"),
        "shots": getattr(summary, f"shots_{mine}"),
        "outcome": _outcome(summary, side),
        "status": summary.status,
    }


def player_totals(lines: list[dict[str, Any]]) -> dict[str, Any]:
    """Return what a player's matches add up to: decided, won, lost, games, points, average.

    A void match is left out: a decision replaced it, its record stays, counted nowhere.
    """
    lines = [line for line in lines if line["status"] != VOID]
    played = [line for line in lines if line["outcome"]]
    won = sum(line["outcome"] == "won" for line in played)
    shots = sum(line["shots"] for line in lines)
    return {
        "matches": len(lines),
        "decided": len(played),
        "won": won,
        "lost": len(played) - won,
        "games_won": sum(line["games"][0] for line in lines),
        "games_lost": sum(line["games"][1] for line in lines),
        "points": sum(line["points"][0] for line in lines),
        "average": average(sum(line["own_points"] for line in lines), shots),
    }


def _side(summary: MatchSummary, player: Player) -> str:
    return "A" if summary.player_a_id == player.pk else "B"


def _outcome(summary: MatchSummary, side: str) -> str:
    if not summary.winner:
        return ""
    return "won" if summary.winner == side else "lost"
