"""Competitions in stages as a read model, written by the projector inside its transaction.

After each batch, every competition with stages that the batch touched (an event of its
own log or of one of its stage matches) is folded as of the cursor from what each match
counts for, read from the summaries the batch has just written (no match is folded
again); the matches its settled slots make playable are created (`services.settle`), and
its stages and final ranking written. A rebuild writes the same, since both are the fold
of the same events up to the same position. Reading is `replay.queries.championships`'s.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from django.utils import timezone

from matches.championship import Played, player_key
from matches.models import Competition, Match
from matches.rules.ranking import Result
from matches.services import settle
from matches.services.championships import championship_of
from matches.store import LoggedEvent
from replay.models import StagesView


def stages_write(rows: Sequence[LoggedEvent], position: int) -> dict[str, int]:
    """Settle and write each competition with stages these events touched; return the
    version of each one whose version grew."""
    own = {row.competition_id for row in rows if row.competition_id is not None}
    touched = {row.match_id for row in rows if row.match_id is not None}
    staged = set(
        Match.objects.filter(pk__in=touched)
        .exclude(stage_id="")
        .values_list("competition_id", flat=True)
    )
    versions = {}
    for competition in Competition.objects.filter(pk__in=own | staged, stages__isnull=False):
        version = stages_store(competition, position)
        if version is not None:
            versions[competition.pk] = version
    return versions


def stages_store(competition: Competition, position: int) -> int | None:
    """Write a competition's stages and ranking as of `position`; return the version if it
    grew (None when it did not)."""
    as_of = championship_of(competition, *played_of(competition.pk), position)
    if settle(competition, as_of.championship):  # the new matches' ids go on its bracket
        as_of = championship_of(competition, *played_of(competition.pk), position)
    before = StagesView.objects.filter(pk=competition.pk).values_list("version", flat=True).first()
    StagesView.objects.update_or_create(
        competition=competition,
        defaults={
            "version": as_of.version,
            "position": position,
            "stages": as_of.championship.views(),
            "ranking": as_of.championship.ranking(),
            "computed_at": timezone.now(),
        },
    )
    return as_of.version if before is None or as_of.version > before else None


def played_of(competition_id: str) -> tuple[dict[str, Played], int]:
    """Return what each stage match of a competition counts for, from its summary, and the
    newest event that changed what they show."""
    rows = (
        Match.objects.filter(competition_id=competition_id)
        .exclude(stage_id="")
        .values_list(
            "pk",
            "players",
            "summary__status",
            "summary__winner",
            "summary__result",
            "summary__shown_event_id",
        )
    )
    played = {}
    newest = 0
    for match_id, players, status, winner, result, shown in rows:
        keys = (player_key(players["A"]), player_key(players["B"]))
        counted = Result.from_json(result) if result else None
        outcome = Result(keys) if counted is None else replace(counted, players=keys)
        status = status or "scheduled"
        won = winner if status == "finished" and winner else None
        played[match_id] = Played(status, outcome, won)
        newest = max(newest, shown or 0)
    return played, newest
