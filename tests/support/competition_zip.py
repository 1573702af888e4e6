"""A championship's zip and its way back: the euro played far enough to export, its zip
downloaded, the database emptied as a new one would be, and the views to compare."""

from __future__ import annotations

from matches import services
from matches.immutability import triggers_lifted
from matches.models import Competition, Entry, Event, Match, Player
from replay.projections import projector
from replay.queries.championships import ranking_get, stages_get
from tests.support.championships import championship, play_groups
from tests.support.league import win


def played() -> None:
    """A championship with its groups played, the knockout drawn, a semi-final won and a
    player of the other withdrawn."""
    championship()
    services.stage_draw(competition_id="euro", stage_id="groups", by="director")
    play_groups()
    services.stage_draw(competition_id="euro", stage_id="ko", by="director")
    win("euro-ko-1-1", "B")
    projector.catch_up()


def downloaded(client) -> bytes:
    answer = client.get("/competitions/euro/records.zip")
    assert answer.status_code == 200, answer.content[:300]
    return answer.content


def views(at: int | None = None) -> tuple[dict, dict]:
    return stages_get("euro", at), ranking_get("euro", at)


def emptied() -> None:
    """Take everything away, as if the zip were carried to a new database."""
    with triggers_lifted():
        Event.objects.all().delete()
        Match.objects.all().delete()
        Entry.objects.all().delete()
        Competition.objects.all().delete()
        Player.objects.all().delete()
    projector.rebuild()
