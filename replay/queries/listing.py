"""The matches a program finds through the API: every match, newest first, a page at a time.

A match's status and the `seq` of its last event come from the store, as they stand
when the list is read (the status is kept in the same transaction as each append);
its games won and winner from the archive's summary, kept by the projector, which may
be a moment behind. A match scheduled a moment ago has no summary until the sweep, and
is listed with the one it will be given (`projector.new_summary`: no games).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.db.models import F

from matches import store
from matches.models import Match
from matches.store import Head
from replay.models import MatchSummary
from replay.projections.projector import new_summary
from replay.queries.search import PER_PAGE

# A match's own statuses (lag, playing, finished, review), "scheduled" before its first
# event and "unreadable" when the projector found a stored event it cannot fold.
UNREADABLE = "unreadable"
STATUSES = ("scheduled", "lag", "playing", "finished", "review", UNREADABLE)
MAX_PAGE = 100_000  # of PER_PAGE matches each, as the archive's pages

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations


@dataclass(frozen=True)
class Listed:
    """One match as the list shows it: its header and its summary."""

    match: WithAnnotations[Match, Head]
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
            "status": status_of(match, summary),
            "games_won": {"A": summary.games_won_a, "B": summary.games_won_b},
            "winner": summary.winner or None,
            "seq": match.head,
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
    rows = store.with_head(Match.objects.select_related("summary"))
    if competition is not None:
        rows = rows.filter(competition_id=competition)
    if status == "scheduled":
        rows = rows.filter(head=0)
    elif status == UNREADABLE:
        rows = rows.filter(summary__status=UNREADABLE)
    elif status is not None:
        rows = rows.filter(head__gt=0, status=status).exclude(summary__status=UNREADABLE)
    rows = rows.order_by(F("date").desc(nulls_first=True), "-id")
    start = (page - 1) * PER_PAGE
    found = list(rows[start : start + PER_PAGE + 1])
    return [Listed(match, _summary_of(match)) for match in found[:PER_PAGE]], len(found) > PER_PAGE


def status_of(match: WithAnnotations[Match, Head], summary: MatchSummary) -> str:
    """Return a listed match's status: the store's, "scheduled" before its first event."""
    if not match.head:
        return "scheduled"
    return UNREADABLE if summary.status == UNREADABLE else match.status


def _summary_of(match: Match) -> MatchSummary:
    try:
        return match.summary
    except MatchSummary.DoesNotExist:
        return new_summary(match)
