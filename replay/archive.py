"""The archive as the home page lists it: recent matches with their result so far."""

from __future__ import annotations

from dataclasses import dataclass

from matches.errors import Refused
from matches.models import Match
from replay.projection import match_state


@dataclass(frozen=True)
class MatchLine:
    match: Match
    games_won: dict[str, int]
    status: str
    winner: str | None
    problem: str = ""  # why the match cannot be shown (a corrupt stored event)


def recent_matches(limit: int = 20) -> list[MatchLine]:
    """Return the newest matches with games won and status, from their states on demand."""
    matches = Match.objects.select_related("competition").order_by("-created_at")[:limit]
    lines = []
    for match in matches:
        try:
            state = match_state(match)
        except Refused as error:
            # One unreadable match is reported in its line; the others are still shown.
            lines.append(MatchLine(match, {"A": 0, "B": 0}, "unreadable", None, str(error)))
            continue
        lines.append(MatchLine(match, state["games_won"], state["status"], state["winner"]))
    return lines
