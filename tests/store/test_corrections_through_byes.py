"""Corrections that reach a knockout through a bye: the match the bye's player goes on to
follows the correction while it has not begun, is disputed once it has, and no decision
ever puts a player into two places of one round or against himself."""

from __future__ import annotations

import pytest

from matches import services
from matches.models import Competition, Match
from matches.services.championships import championship_at
from replay.projections import projector
from tests.support.builders import BY
from tests.support.championships import championship
from tests.support.corrections import amend, names
from tests.support.league import win

# Two groups (A: Rossi, Marchetti, Petrenko, Novak; B: Kovalenko, Fernández, Bianchi,
# Dubois), three of each into a knockout of 8: the groups' firsts get the byes.
STAGES = [
    {"id": "groups", "kind": "groups", "groups": 2, "advance": 3},
    {"id": "ko", "kind": "knockout", "from": "groups"},
]


def folded():
    return championship_at(Competition.objects.get(pk="euro")).championship


def group_a_match(a: str, b: str) -> Match:
    found = Match.objects.filter(competition_id="euro", stage_id="groups", group="A")
    return next(m for m in found if {m.players["A"]["name"], m.players["B"]["name"]} == {a, b})


def begin(match_id: str) -> None:
    services.lag_record(
        match_id=match_id, expected_seq=0, by=BY, a={"distance": 90}, b={"distance": 150}
    )


def knockout_match_of(name: str, round_number: int = 1) -> Match:
    found = Match.objects.filter(
        competition_id="euro", stage_id="ko", slot__startswith=f"{round_number}-"
    )
    return next(m for m in found if name in (m.players["A"]["name"], m.players["B"]["name"]))


@pytest.fixture
def byes_drawn(db) -> Match:
    """The groups played, Marchetti first of group A by beating Rossi (side B of their match,
    which an amendment can give Rossi), the knockout drawn; return that match."""
    championship(stages=STAGES)
    services.stage_draw(competition_id="euro", stage_id="groups", by="director")
    flip = group_a_match("Rossi", "Marchetti")
    winner_side = "A" if flip.players["A"]["name"] == "Marchetti" else "B"
    for match in Match.objects.filter(competition_id="euro", stage_id="groups"):
        if match.pk == flip.pk:
            win(match.pk, winner_side)
        else:  # Petrenko and Novak lose to group A's first two; side A wins the rest
            losers = {"Novak", "Petrenko"}
            win(match.pk, "B" if match.players["A"]["name"] in losers else "A")
    services.stage_draw(competition_id="euro", stage_id="ko", by="director")
    projector.catch_up()
    return flip


def flip_group_a(flip: Match, staff: bool = False) -> None:
    """Amend the Rossi v Marchetti match: Rossi first of group A now, Marchetti second."""
    assert names(flip.pk) == ("Rossi", "Marchetti")  # B won: the amendment gives it to A
    amend(flip.pk, staff=staff)


def test_the_match_a_bye_s_player_goes_on_to_follows_a_correction_before_it_begins(byes_drawn):
    bye_match = folded().views()[1]["rounds"][1][0]  # round two's first: group A's first on
    assert bye_match["slots"][0] == "W:ko-1-1"
    opponent = Match.objects.get(pk="euro-ko-1-2")  # the round-one match beside the bye
    win(opponent.pk, "A")
    projector.catch_up()
    assert names("euro-ko-2-1")[0] == "Marchetti"

    flip_group_a(byes_drawn)

    assert names("euro-ko-2-1")[0] == "Rossi"
    begin("euro-ko-2-1")  # its first event is taken: the slot is settled to Rossi


def test_a_void_decision_never_puts_the_bye_s_player_into_a_replacement_of_round_one(
    byes_drawn,
):
    opponent = Match.objects.get(pk="euro-ko-1-2")
    win(opponent.pk, "A")
    projector.catch_up()
    begin("euro-ko-2-1")  # Marchetti plays on from the bye
    rossi = knockout_match_of("Rossi")  # group A's second plays round one
    begin(rossi.pk)
    flip_group_a(byes_drawn, staff=True)
    disputes = {d.slot: d for d in folded().disputes()}
    assert set(disputes) == {"groups:A2", "W:ko-1-1"}

    services.dispute_decide(
        competition_id="euro", slot="groups:A2", keep=False, reason="replay it", by="chief"
    )
    projector.catch_up()

    # Marchetti, group A's second as amended, still plays on from the bye: the replay waits.
    assert not Match.objects.filter(pk=f"{rossi.pk}-r2").exists()
    services.dispute_decide(
        competition_id="euro", slot="W:ko-1-1", keep=True, reason="it stands", by="chief"
    )
    projector.catch_up()
    replay = Match.objects.get(pk=f"{rossi.pk}-r2")
    assert "Rossi" in names(replay.pk) and "Marchetti" not in names(replay.pk)
    for stage in folded().views():
        for games in stage.get("rounds") or []:
            playing = [p for game in games for p in game["players"] or [] if p]
            assert len(playing) == len(set(playing))
