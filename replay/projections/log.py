"""What the projector hands on from the log it reads through `store.log_after`.

A leaf: the projector, its read models and its process manager all use these, and
import each other no more.

A `Batch` is one run of events as every read model takes it; a `ReadModel` is what the
projector knows of each one (how it writes a batch, how a rebuild empties it, how its
cache is cleared): the projector lists them once, and catching up, rebuilding and
clearing the caches go through that list.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from matches.domain.championship import Championship
from matches.domain.errors import Refused
from matches.domain.rules.ranking import Result
from matches.models import Competition
from matches.services.decisions import DISPUTE_DECIDED
from matches.store import LoggedEvent
from replay.models import MatchSummary


@dataclass(frozen=True)
class Change:
    """One event that changed what a match counts for in its competition's standings."""

    event: LoggedEvent
    competition_id: str
    summary: MatchSummary
    before: Result | None
    after: Result | None
    game: int | None = None  # the game of the shot a correction names
    shot: int | None = None  # that shot's number (its place among the match's shots)


def voided_match(row: LoggedEvent) -> str | None:
    """Return the match a row of a competition's log voids (a decision not to keep it),
    else None: the summaries and the ratings count that match for nothing from then on."""
    if row.match_id is not None or row.stored_type != DISPUTE_DECIDED:
        return None
    try:
        decision = row.fact()
    except Refused:
        return None
    if decision.get("keep", True) or not isinstance(decision.get("match"), str):
        return None
    match_id: str = decision["match"]
    return match_id


@dataclass(frozen=True)
class Folded:
    """A competition in stages as the stages writer has just written it: its fold, the
    ids of its stage matches stored, and the newest event of the batch it takes in."""

    competition: Competition
    championship: Championship
    stored: frozenset[str]
    newest: int


@dataclass
class Batch:
    """One batch of the log, as the projector hands it to each read model in turn."""

    rows: list[LoggedEvent]
    position: int  # the cursor once these events are in
    changes: list[Change]  # each event that changed a counted result, in the log's order
    summaries: dict[str, MatchSummary]  # the matches touched (or voided), as they stand after
    new: list[MatchSummary]  # of those, the summaries not stored before this batch
    counted: set[str]  # of those, the matches that counted in the rating before it
    # Filled by the stages writer, for the process manager after it.
    championships: dict[str, Folded] = field(default_factory=dict)


@dataclass(frozen=True)
class ReadModel:
    """A read model the projector writes: each batch in its transaction (`write`, which
    returns the versions it wrote, by competition, to announce once it commits), emptied
    for a rebuild (`empty`), and its process-local cache cleared (`clear_cache`)."""

    name: str
    write: Callable[[Batch], Mapping[str, int]]
    empty: Callable[[], None]
    clear_cache: Callable[[], None]
