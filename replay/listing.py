"""The matches a program finds through the API: every match, newest first, a page at a time.

Read from the archive's summaries (kept by the projector), joined to the matches: a
match scheduled a moment ago has no summary until the projector's sweep, and is listed
with the one it will be given (`projector.new_summary`: status "scheduled", no games).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import F, Q

from matches.models import Match
from replay.models import MatchSummary
from replay.pages.search import PER_PAGE
from replay.projector import new_summary

# The summary's statuses: a match's own (lag, playing, finished, review), "scheduled"
# before its first event and "unreadable" when a stored event cannot be folded.
STATUSES = ("scheduled", "lag", "playing", "finished", "review", "unreadable")
MAX_PAGE = 100_000  # of PER_PAGE matches each, as the archive's pages


@dataclass(frozen=True)
class Listed:
    """One match as the list shows it: its header and its summary."""

    match: Match
    summary: MatchSummary

    def as_dict(self, url: str) -> dict[str, Any]:
        match, summary = self.match, self.summary
        return {
            "id": match.pk,
            "competition": match.competition_id,
            "date": match.date.isoformat() if match.date else None,
            "stage": match.stage or None,
            "table": match.table or None,
            "players": match.players,
            "status": summary.status,
            "games_won": {"A": summary.games_won_a, "B": summary.games_won_b},
            "winner": summary.winner or None,
            "seq": summary.seq,
            "url": url,
        }


def matches_page(
    *, competition: str | None = None, status: str | None = None, page: int = 1
) -> tuple[list[Listed], bool]:
    """Return one page of matches, newest first, and whether another page follows.

    Newest first as the archive lists them: by date, the latest first, and a match
    without a date before every dated one (one arranged or played today); then by id,
    descending. A page past the end is empty.
    """
    rows = Match.objects.select_related("summary")
    if competition is not None:
        rows = rows.filter(competition_id=competition)
    if status == "scheduled":
        rows = rows.filter(Q(summary__isnull=True) | Q(summary__status=status))
    elif status is not None:
        rows = rows.filter(summary__status=status)
    rows = rows.order_by(F("date").desc(nulls_first=True), "-id")
    start = (page - 1) * PER_PAGE
    found = list(rows[start : start + PER_PAGE + 1])
    return [Listed(match, _summary_of(match)) for match in found[:PER_PAGE]], len(found) > PER_PAGE


def _summary_of(match: Match) -> MatchSummary:
    try:
        return match.summary
    except MatchSummary.DoesNotExist:
        return new_summary(match)
