"""What the home page shows: the matches live now, the latest results, the competitions on."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Count, F, Max, Q, QuerySet

from matches.domain.errors import Refused
from matches.models import Competition, Match
from replay.models import MatchSummary
from replay.projections.states import match_state
from replay.queries.match_counts import LIVE, counts_of, match_counting

UNDER_WAY = LIVE  # the live matches listed are those counted live
NOT_OVER = (Match.Status.LAG, Match.Status.PLAYING, Match.Status.REVIEW)


@dataclass(frozen=True)
class MatchLine:
    match: Match
    games_won: dict[str, int]
    status: str
    winner: str | None
    scores: tuple[tuple[int, int], ...] = ()  # each game's score, A then B
    problem: str = ""  # why the match cannot be shown (a corrupt stored event)
    seq: int = 0  # the last event in the state shown


def lines_of(matches: QuerySet[Match]) -> list[MatchLine]:
    """Return each match with games won, game scores and status, from its state on demand."""
    lines = []
    for match in matches:
        try:
            state = match_state(match)
        except Refused as error:
            # One unreadable match is reported in its line; the others are still shown.
            lines.append(MatchLine(match, {"A": 0, "B": 0}, "unreadable", None, (), str(error)))
            continue
        scores = tuple((game["score"]["A"], game["score"]["B"]) for game in state["games"])
        lines.append(
            MatchLine(
                match,
                state["games_won"],
                state["status"],
                state["winner"],
                scores,
                seq=state["seq"],
            )
        )
    return lines


def live_matches(limit: int = 8) -> list[MatchLine]:
    """Return the matches being played now (a game started, no winner yet), newest first.

    From their states on demand, not the summaries: a viewer wants the score of this
    minute, and the few matches on at once keep the queries few.
    """
    matches = (
        Match.objects.filter(status__in=UNDER_WAY)
        .select_related("competition")
        .order_by("-created_at")[:limit]
    )
    return lines_of(matches)


def recent_results(limit: int = 10) -> QuerySet[MatchSummary]:
    """Return the latest finished matches from the archive's summaries, by the day played."""
    return (
        MatchSummary.objects.filter(status=Match.Status.FINISHED)
        .select_related("competition", "match")
        .order_by(F("date").desc(nulls_first=True), "-match_id")[:limit]
    )


def current_competitions(limit: int = 6) -> list[dict[str, Any]]:
    """Return the competitions with a match still to finish, the latest dated first, each with
    its matches counted as the competitions' list counts them."""
    found = (
        Competition.objects.annotate(
            open=Count("matches", filter=Q(matches__status__in=NOT_OVER)),
            last=Max("matches__date"),
        )
        .filter(open__gt=0)
        .annotate(**match_counting())
        .order_by("-last", "id")[:limit]
    )
    return [{"competition": c, "matches": counts_of(c)} for c in found]
