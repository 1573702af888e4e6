"""The players' ratings as of a day, and one player's over time, from the read model.

Each player's row of the last day they played on or before the day asked, its deviation
grown by the days since (`matches.domain.rating.as_of`): what the rating says at the end of
that day.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from matches.domain.rating import Rated, Rating, as_of
from matches.models import Entry, Player
from replay.models import PlayerRating
from replay.projections.ratings_writer import last_rows, rated_of
from replay.queries.player_keys import player_key


def ratings_on(day: date) -> list[dict[str, Any]]:
    """Return every rated player's rating at the end of `day`, the best first, placed."""
    found = last_rows(PlayerRating.objects.filter(day__lte=day).select_related("player"))
    rated = [(as_of(rated_of(row), day.toordinal()), row) for row in found]
    rated.sort(key=lambda pair: (-pair[0].rating, pair[0].deviation, pair[1].player.name))
    return [
        {
            "place": place,
            "player": row.player.name,
            "player_id": row.player.federation_id,
            "key": player_key(row.player.federation_id, row.player_id),
            **now.as_json(),
            "last_played": row.day.isoformat(),
        }
        for place, (now, row) in enumerate(rated, start=1)
    ]


def rating_history(player: Player) -> list[dict[str, Any]]:
    """Return a player's rating after each day they played, oldest first."""
    return [
        {"day": row.day, **rated_of(row).rating.as_json()}
        for row in PlayerRating.objects.filter(player=player).order_by("day")
    ]


def rating_today(history: list[dict[str, Any]], day: date) -> dict[str, Any] | None:
    """Return a player's rating at the end of `day` from their `rating_history`, or None
    before any counted match."""
    played = [entry for entry in history if entry["day"] <= day]
    if not played:
        return None
    last = played[-1]
    rating = Rating(last["rating"], last["deviation"], last["volatility"], last["matches"])
    return as_of(Rated(rating, last["day"].toordinal()), day.toordinal()).as_json()


def seeds_by_rating(competition_id: str, day: date) -> list[int]:
    """Return the players entered in a competition, strongest first by their rating at the
    end of `day` (the more certain first at equal ratings); those without a rating after
    them, in the order of their seeds now."""
    entries = list(
        Entry.objects.filter(competition_id=competition_id)
        .order_by("seed", "player_id")
        .values_list("player_id", flat=True)
    )
    rated = {
        row.player_id: as_of(rated_of(row), day.toordinal())
        for row in last_rows(PlayerRating.objects.filter(player_id__in=entries, day__lte=day))
    }
    ordered = sorted(
        (player for player in entries if player in rated),
        key=lambda player: (-rated[player].rating, rated[player].deviation),
    )
    return ordered + [player for player in entries if player not in rated]
