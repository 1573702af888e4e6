"""The read models caught up with the log, the ratings included, as a worker's task does."""

from __future__ import annotations

from replay.projections import projector
from replay.projections.ratings_writer import ratings_catch_up


def projected() -> None:
    """Catch the projector up, then work out the ratings it noted (`tasks.standings_recompute`)."""
    projector.catch_up()
    ratings_catch_up()
