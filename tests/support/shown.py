"""What a database shows of its competitions and players, to compare two databases."""

from __future__ import annotations

import json
from typing import Any

from replay.models import PlayerRating, StagesView, Standings


def shown() -> dict[str, Any]:
    """Return every competition's standings, stages and ranking (each with its version),
    and every player's rating after each day, by name: JSON as another process prints it,
    without the database's own row ids."""
    document = {
        "standings": {s.competition_id: [s.version, s.rows] for s in Standings.objects.all()},
        "stages": {
            view.competition_id: [view.stages, view.ranking, view.version]
            for view in StagesView.objects.all()
        },
        "ratings": sorted(
            [row.player.name, row.day.isoformat(), round(row.rating, 6), round(row.deviation, 6)]
            + [row.matches]
            for row in PlayerRating.objects.select_related("player")
        ),
    }
    loaded: dict[str, Any] = json.loads(json.dumps(document, default=str))
    return _without_row_ids(loaded)


def _without_row_ids(value: Any) -> Any:
    """Return a document without `player_key`, a player's row in this database alone."""
    if isinstance(value, dict):
        return {k: _without_row_ids(v) for k, v in value.items() if k != "player_key"}
    if isinstance(value, list):
        return [_without_row_ids(item) for item in value]
    return value
