"""The matches a login is assigned to record, in the order a referee's day takes them."""

from __future__ import annotations

import datetime
from typing import Any

from django.db.models import OuterRef, QuerySet, Subquery

from matches import store
from matches.models import Assignment, Match, TableAssignment

# How far back a finished match stays on the list: the week's sheets to sign, amendments to make.
FINISHED_DAYS = 7
DONE = (Match.Status.FINISHED, Match.Status.REVIEW)


def assigned_to(user: Any) -> QuerySet[Match]:
    """Return the matches whose latest assignment names this login, voids left out.

    A void match records nothing more (its console says so): it is no referee's work.
    """
    if not (user and user.is_authenticated):
        return Match.objects.none()
    latest = Assignment.objects.filter(match=OuterRef("pk")).order_by("-id").values("user")[:1]
    return (
        Match.objects.annotate(assigned=Subquery(latest))
        .filter(assigned=user.pk)
        .exclude(status=Match.Status.VOID)
    )


def has_assigned_matches(user: Any) -> bool:
    """Tell whether a login has a match to record: the navigation links its list then."""
    return assigned_to(user).exists()


def referee_day(user: Any, now: datetime.datetime) -> dict[str, list[dict[str, Any]]]:
    """Return a login's matches: today's, then upcoming by date, then undated, then finished.

    Today's are every match dated today, finished or not. Upcoming are the unfinished
    dated ones, the earliest first (one left over from an earlier day too: it is still to
    be recorded). Finished are those whose last event is under `FINISHED_DAYS` old.
    """
    today = now.date()
    called = (
        TableAssignment.objects.filter(match=OuterRef("pk")).order_by("-id").values("table__name")
    )
    rows = list(
        assigned_to(user)
        .select_related("competition")
        .annotate(called=Subquery(called[:1]))
        .order_by("date", "id")
    )
    recorded = store.last_recorded([match.pk for match in rows])
    day: dict[str, list[dict[str, Any]]] = {
        "today": [],
        "upcoming": [],
        "undated": [],
        "finished": [],
    }
    since = now - datetime.timedelta(days=FINISHED_DAYS)
    for match in rows:
        last_at = recorded.get(match.pk)
        section = _section(match, last_at, today, since)
        if section is not None:
            day[section].append(_line(match, last_at))
    day["finished"].sort(key=lambda line: line["last_at"], reverse=True)
    return day


def _section(
    match: Any,
    last_at: datetime.datetime | None,
    today: datetime.date,
    since: datetime.datetime,
) -> str | None:
    if match.date == today:
        return "today"
    if match.status in DONE:
        return "finished" if last_at is not None and last_at >= since else None
    return "undated" if match.date is None else "upcoming"


def _line(match: Any, last_at: datetime.datetime | None) -> dict[str, Any]:
    players = match.players
    return {
        "match": match,
        "names": {side: players.get(side, {}).get("name", side) for side in ("A", "B")},
        "table": match.called or match.table,
        "date": match.date,
        # Nothing recorded yet: scheduled, as the competition's page and the archive say.
        "status": match.status if last_at is not None else "scheduled",
        "last_at": last_at,
    }
