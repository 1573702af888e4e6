"""A correction to come in the euro: its groups played with FLIPPED won by B, its knockout
drawn; amending FLIPPED changes group B's places and the players of the knockout."""

from __future__ import annotations

import pytest

from matches import services
from matches.models import Competition, Event, Match
from matches.services.championships import championship_at
from tests.support.builders import BY
from tests.support.championships import championship
from tests.support.league import CAROM_A, win

FLIPPED = "euro-groups-B5"  # Kovalenko v Fernández, won by Fernández, then flipped


def places(group: str) -> list[str]:
    folded = championship_at(Competition.objects.get(pk="euro")).championship
    return [key.removeprefix("name:") for key in folded.group_places("groups", group) or []]


def names(match_id: str) -> tuple[str, str]:
    match = Match.objects.get(pk=match_id)
    return (match.players["A"]["name"], match.players["B"]["name"])


def amend(match_id: str, staff: bool = False) -> int:
    """Amend A's first shot of a match B won into a carom of A's: A now wins."""
    return services.ruling_amend(
        match_id=match_id,
        expected_seq=Event.objects.filter(match_id=match_id).count(),
        by="jury",
        shot=4,
        facts=CAROM_A,
        reason="video review: white touched the red",
        staff=staff,
    ).seq


def drawn_with_a_flip_to_come() -> None:
    """The groups played (side A winning all but FLIPPED, which B wins), the knockout drawn:
    amending FLIPPED then changes group B's places."""
    championship()
    services.stage_draw(competition_id="euro", stage_id="groups", by="director")
    for match in Match.objects.filter(competition_id="euro", stage_id="groups"):
        win(match.pk, "B" if match.pk == FLIPPED else "A")
    services.stage_draw(competition_id="euro", stage_id="ko", by="director")


def first_match_begun() -> None:
    """The knockout's first match (A1 v B2) begun: its lag recorded."""
    services.lag_record(
        match_id="euro-ko-1-1", expected_seq=0, by=BY, a={"distance": 90}, b={"distance": 150}
    )


@pytest.fixture
def knockout_drawn(db) -> list[str]:
    """As `drawn_with_a_flip_to_come`; group B's places before the flip."""
    drawn_with_a_flip_to_come()
    return places("B")
