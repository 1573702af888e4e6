"""A competition's pages read here: the list with how far each has got, its matches, entrants."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Count

from matches.domain.state import CONFIRMING_ROLES
from matches.models import Competition, Entry, Match
from replay.models import MatchSummary, Standings
from replay.queries.match_counts import counts_of, match_counting
from replay.queries.player_keys import player_key

# A match with a result to show: played to the end, or ended and in review.
PLAYED = ("finished", "review")


def competitions_listed() -> list[dict[str, Any]]:
    """Return every competition, the newest first, with its matches counted and its entrants."""
    competitions = Competition.objects.order_by("-created_at").annotate(
        entrants=Count("entries", distinct=True), **match_counting()
    )
    versions = dict(Standings.objects.values_list("competition_id", "version"))
    return [
        {"competition": c, "version": versions.get(c.pk, 0), "matches": counts_of(c)}
        for c in competitions
    ]


@dataclass(frozen=True)
class CompetitionMatches:
    """A competition's matches, each a line: its results, and its schedule (the rest)."""

    results: list[dict[str, Any]]
    schedule: list[dict[str, Any]]


SIGNED = ",".join(CONFIRMING_ROLES)


def competition_matches(competition: Competition) -> CompetitionMatches:
    """Return a competition's matches by date, stage and id, as results and schedule."""
    summaries = {s.match_id: s for s in MatchSummary.objects.filter(competition=competition)}
    # From the matches, not only their summaries: one scheduled a moment ago has none yet.
    lines = [
        _line(match, summaries.get(match.pk))
        for match in Match.objects.filter(competition=competition)
        .select_related("player_a", "player_b")
        .order_by("date", "stage", "pk")
    ]
    return CompetitionMatches(
        results=[line for line in lines if line["status"] in PLAYED],
        schedule=[line for line in lines if line["status"] not in PLAYED],
    )


def competition_entrants(competition: Competition) -> list[dict[str, Any]]:
    """Return a competition's entrants, each with the key of their page (by seed, if seeded)."""
    entries = Entry.objects.filter(competition=competition).select_related("player")
    if competition.stages is not None:
        entries = entries.order_by("seed")
    return [
        {
            "name": entry.player.name,
            "key": player_key(entry.player.federation_id, entry.player.pk),
            "player": entry.player.pk,
            "seed": entry.seed,
            "withdrawn": entry.withdrawn,
        }
        for entry in entries
    ]


def _line(match: Match, summary: MatchSummary | None) -> dict[str, Any]:
    a, b = match.player_a, match.player_b
    line = {
        "match": match.pk,
        "date": match.date,
        "stage": match.stage,
        "stage_id": match.stage_id,
        "group": match.group,
        "slot": match.slot,
        "status": "scheduled",
        "players": [
            {
                "side": "A",
                "name": match.players["A"]["name"],
                "key": player_key(a.federation_id, a.pk),
            },
            {
                "side": "B",
                "name": match.players["B"]["name"],
                "key": player_key(b.federation_id, b.pk),
            },
        ],
        "games": (0, 0),
        "points": (0, 0),
        "winner": "",
        "amendments": 0,
        "signed": False,
    }
    if summary is not None:
        line.update(
            status=summary.status,
            games=(summary.games_won_a, summary.games_won_b),
            points=(summary.points_a, summary.points_b),
            winner=summary.winner,
            amendments=summary.amendments,
            # The referee and both players confirmed the result as it stands.
            signed=summary.confirmed_by == SIGNED,
        )
    return line
