"""The players' Glicko-2 ratings as a read model: what counts noted by the projector in
its transaction, the ratings worked out after it (`matches.domain.rating` does the arithmetic).

After each batch, the summaries of the matches it touched (and of those a decision of it
voided) say which matches count: finished with a winner, at least one shot played (a
walkover, forfeited before any shot, says nothing of either player's play and is not
rated; a forfeit during play is the loss it is), never under review, never void. Each
counts on its day: its date, else the day of its last event. When what counts changes
(a match ends, an amendment turns a result or moves a day, a match is voided), every
rating from the earliest day concerned on is worked out again from the ratings before
it, matches of a day in the order of their ids: a rebuild, which meets every match in
the log's order, comes to the very same rows. The projector only notes the matches that
count and that first day (`ratings_write`); the task that ran it works the ratings out
after its commit (`ratings_catch_up`), so that an old match's amendment, which works out
every rating after it, never holds the standings and the draw back.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from datetime import date
from itertools import groupby

from django.db import transaction
from django.db.models import BigIntegerField, Case, F, Max, Q, QuerySet, Value, When
from django.utils import timezone

from matches import store
from matches.domain.rating import Outcome, Rated, Rating, ratings_by_day
from replay.models import MatchSummary, PlayerRating, ProjectorCursor, RatedMatch
from replay.projections.cursors import position_of
from replay.projections.log import Batch, ReadModel

Counted = tuple[date, int, int, bool]  # day, player A's id, player B's id, A won


def ratings_write(
    summaries: Mapping[str, MatchSummary], counted_before: Collection[str]
) -> date | None:
    """Note what a batch changed in what counts; return the first day to work out again
    (None when nothing rated changed).

    `summaries` are the matches the batch touched, as they stand after it (the projector
    holds them already); `counted_before` are those of them that counted before it. A
    match that counted neither before nor after (a shot of a match in play: nearly every
    event) cannot have changed what counts, and costs no read.
    """
    now = _counted(summaries.values())
    concerned = set(now) | (set(counted_before) & set(summaries))
    if not concerned:
        return None
    stored = _stored(concerned)
    changed = [match_id for match_id in concerned if stored.get(match_id) != now.get(match_id)]
    if not changed:
        return None
    days = [
        counted[0]
        for match_id in changed
        for counted in (stored.get(match_id), now.get(match_id))
        if counted is not None
    ]
    RatedMatch.objects.filter(match_id__in=changed).delete()
    RatedMatch.objects.bulk_create(
        [
            RatedMatch(match_id=match_id, day=day, player_a_id=a, player_b_id=b, a_won=a_won)
            for match_id in changed
            if match_id in now
            for day, a, b, a_won in [now[match_id]]
        ],
    )
    first = min(days)
    _note_from(first)
    return first


def ratings_note(batch: Batch) -> dict[str, int]:
    """Note what a batch changed in what counts (the projector's write: no version)."""
    ratings_write(batch.summaries, batch.counted)
    return {}


def counts(summary: MatchSummary) -> bool:
    """Say whether a match counts in the rating as its summary stands: finished with a
    winner, at least one shot played (so never under review or void)."""
    return (
        summary.status == "finished"
        and summary.winner in ("A", "B")
        and summary.shots_a + summary.shots_b > 0
    )


# The row of the cursors' table that holds the first day whose ratings are to be worked
# out again (its ordinal; 0: none), noted by the projector in its transaction.
PENDING = "ratings-from"


def ratings_catch_up() -> date | None:
    """Work out the ratings the projector has noted as changed, from the first day noted,
    in a transaction of their own (after the projector's run, off its path); return that
    day (None when none was noted)."""
    if not position_of(PENDING):
        return None  # read without the write lock: most recomputes change no rating
    with transaction.atomic():
        found = position_of(PENDING, locked=True)
        if not found:
            return None  # worked out meanwhile
        first = date.fromordinal(found)
        ratings_recompute(first)
        ProjectorCursor.objects.filter(name=PENDING).update(position=0)
    return first


def _note_from(day: date) -> None:
    """Note, in the projector's transaction, that the ratings from `day` on are to be
    worked out again (the earliest day noted wins)."""
    ordinal = day.toordinal()
    later = Q(position=0) | Q(position__gt=ordinal)
    earliest = Case(
        When(later, then=Value(ordinal)), default=F("position"), output_field=BigIntegerField()
    )
    if not ProjectorCursor.objects.filter(name=PENDING).update(position=earliest):
        ProjectorCursor.objects.create(name=PENDING, position=ordinal)


def ratings_recompute(first: date) -> None:
    """Work out every rating from day `first` on, from the ratings before it."""
    PlayerRating.objects.filter(day__gte=first).delete()
    start = {
        row.player_id: rated_of(row)
        for row in last_rows(PlayerRating.objects.filter(day__lt=first))
    }
    counted = (
        RatedMatch.objects.filter(day__gte=first)
        .order_by("day", "match_id")
        .values_list("day", "player_a_id", "player_b_id", "a_won")
    )
    days = (
        (day.toordinal(), [Outcome(a, b, a_won) for _, a, b, a_won in matches])
        for day, matches in groupby(counted.iterator(), key=lambda row: row[0])
    )
    PlayerRating.objects.bulk_create(
        PlayerRating(
            player_id=player,
            day=date.fromordinal(day),
            rating=rated.rating.rating,
            deviation=rated.rating.deviation,
            volatility=rated.rating.volatility,
            matches=rated.rating.matches,
        )
        for day, today in ratings_by_day(days, start)
        for player, rated in today.items()
    )


def last_rows(rows: QuerySet[PlayerRating]) -> list[PlayerRating]:
    """Return each player's latest row among `rows`: the rating they stand at."""
    last = dict(rows.values("player_id").annotate(last=Max("day")).values_list("player_id", "last"))
    found = rows.filter(player_id__in=list(last), day__in=set(last.values()))
    return [row for row in found if last[row.player_id] == row.day]


def rated_of(row: PlayerRating) -> Rated:
    """Return a row of the read model as the rating's arithmetic takes it."""
    return Rated(
        Rating(row.rating, row.deviation, row.volatility, row.matches), row.day.toordinal()
    )


def ratings_empty() -> None:
    """Empty the ratings' read model (a rebuild works it out again from the log)."""
    PlayerRating.objects.all().delete()
    RatedMatch.objects.all().delete()
    ProjectorCursor.objects.filter(name=PENDING).delete()


def _counted(summaries: Iterable[MatchSummary]) -> dict[str, Counted]:
    """Return how each of these matches counts in the rating now, if it does."""
    rows = [summary for summary in summaries if counts(summary)]
    last = store.last_recorded([summary.match_id for summary in rows if summary.date is None])
    return {
        summary.match_id: (
            summary.date
            if summary.date is not None
            else timezone.localdate(last[summary.match_id]),
            summary.player_a_id,
            summary.player_b_id,
            summary.winner == "A",
        )
        for summary in rows
    }


def _stored(match_ids: Collection[str]) -> dict[str, Counted]:
    """Return how each of these matches counted when the projector last noted it."""
    return {
        match_id: (row.day, row.player_a_id, row.player_b_id, row.a_won)
        for match_id, row in RatedMatch.objects.in_bulk(list(match_ids)).items()
    }


def _no_cache() -> None:
    """The ratings keep no cache in this process."""


RATINGS = ReadModel("ratings", ratings_note, ratings_empty, _no_cache)
