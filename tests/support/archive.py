"""An archive of matches with the summaries the projector would keep, for the listing pages."""

from __future__ import annotations

from datetime import date, timedelta

from matches import services
from matches.models import Competition, Match
from replay.models import MatchSummary
from replay.projections.projector import new_summary

PLAYERS = [
    {"name": "Olena Kovalenko", "federation_id": "UA-101"},
    {"name": "Marco Marchetti", "federation_id": "IT-202"},
    {"name": "Pablo Gómez", "federation_id": "AR-808"},
    {"name": "Club Player"},  # no federation id: known by name, paged by row id
]


FIRST_DAY = date(2026, 3, 1)


# Status by match number: most finished, some played now, some not started.
STATUSES = ("finished", "finished", "finished", "playing", "scheduled")


def summarise(match: Match, number: int) -> MatchSummary:
    """Write the summary the projector would keep (test-only: the tests choose its result)."""
    status = STATUSES[number % len(STATUSES)]
    winner = ("A" if number % 2 else "B") if status == "finished" else ""
    summary = new_summary(match)  # as the projector starts one
    summary.status = status
    summary.games_won_a = 2 if winner == "A" else (1 if status != "scheduled" else 0)
    summary.games_won_b = 2 if winner == "B" else 0
    summary.points_a = 100 + number
    summary.points_b = 90 + number
    summary.average_a = 1.5 + number / 100
    summary.average_b = 1.25
    summary.own_points_a = 0 if status == "scheduled" else 30 + number
    summary.own_points_b = 0 if status == "scheduled" else 25
    summary.shots_a = 0 if status == "scheduled" else 20 + number % 4
    summary.shots_b = 0 if status == "scheduled" else 20
    summary.winner = winner
    summary.winner_player_id = match.player_a_id if winner == "A" else match.player_b_id
    summary.amendments = number % 3
    summary.seq = 0 if status == "scheduled" else 100
    return summary


def make_archive(count: int, competition: str = "cup", start: int = 0) -> list[MatchSummary]:
    """Create `count` matches (one a day) between the players in turn, with their summaries."""
    if not Competition.objects.filter(pk=competition).exists():
        services.competition_create(id=competition, name=competition.title())
    made = []
    for number in range(start, start + count):
        a, b = PLAYERS[number % 4], PLAYERS[(number + 1) % 4]
        match = services.match_create(
            id=f"{competition}-{number:04d}",
            competition=competition,
            players={"A": a, "B": b},
            date=FIRST_DAY + timedelta(days=number),
            stage=f"Round {number % 7 + 1}",
        )
        made.append(summarise(match, number))
    return MatchSummary.objects.bulk_create(made)
