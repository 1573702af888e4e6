"""A correction that flows through the draw: the players of a match not started follow it,
a started one is disputed and never rewritten (staff alone may record that), and a match
whose slot is no longer settled refuses its first event."""

from __future__ import annotations

import pytest

from matches import services
from matches.domain.errors import Refused
from matches.models import Competition, Event, Match
from matches.services.championships import championship_at
from matches.services.corrections import Forbidden
from matches.services.decisions import StateClash
from replay.presentation.stage_words import Terms, dressed
from replay.projections import projector
from tests.support.builders import BY, QUIET
from tests.support.championships import championship
from tests.support.corrections import (
    FLIPPED,
    amend,
    first_match_begun,
    knockout_drawn,
    names,
    places,
)
from tests.support.league import CAROM_A, win

__all__ = ["knockout_drawn"]  # the fixture, used by name


def test_the_players_of_a_match_not_started_follow_a_correction_in_the_same_write(
    knockout_drawn,
):
    assert names("euro-ko-1-1")[1] == knockout_drawn[1]  # A1 v B2

    amend(FLIPPED)

    now = places("B")
    assert now[1] != knockout_drawn[1]
    assert names("euro-ko-1-1")[1] == now[1]
    assert names("euro-ko-1-2")[0] == now[0]  # B1 v A2
    moved = Event.objects.filter(competition_id="euro", type="players_moved").order_by("seq")
    assert [event.data["match"] for event in moved] == ["euro-ko-1-1", "euro-ko-1-2"]
    cause = moved.first().data["cause"]
    assert (cause["match"], cause["type"], cause["shot"]) == (FLIPPED, "shot_amended", 4)
    assert cause["number"] == 1  # event 4 is the match's first shot, as the pages name it


def test_a_started_match_is_disputed_never_rewritten_and_only_staff_may_dispute_it(
    knockout_drawn,
):
    first_match_begun()
    played = names("euro-ko-1-1")
    before = Event.objects.filter(match_id=FLIPPED).count()

    with pytest.raises(Forbidden) as refused:
        amend(FLIPPED)  # the match's referee
    assert refused.value.status == 403
    assert "only staff" in refused.value.message and "euro-ko-1-1" in refused.value.message
    assert Event.objects.filter(match_id=FLIPPED).count() == before

    amend(FLIPPED, staff=True)

    assert names("euro-ko-1-1") == played
    folded = championship_at(Competition.objects.get(pk="euro")).championship
    [dispute] = folded.disputes()
    assert (dispute.slot, dispute.match) == ("groups:B2", "euro-ko-1-1")
    assert dispute.as_played == f"name:{played[1]}"
    assert dispute.as_amended == f"name:{places('B')[1]}"
    assert dispute.since == Event.objects.filter(match_id=FLIPPED).order_by("-id").first().pk


def test_a_match_whose_slot_is_no_longer_settled_refuses_its_first_event_naming_the_slot(
    knockout_drawn,
):
    last = Event.objects.filter(match_id=FLIPPED).count()
    services.shot_retract(
        match_id=FLIPPED, expected_seq=last, by="jury", shot=last, reason="entered twice"
    )
    assert places("B") == []  # group B is open again

    with pytest.raises(Refused) as refused:
        services.lag_record(
            match_id="euro-ko-1-1", expected_seq=0, by=BY, a={"distance": 90}, b={"distance": 150}
        )
    assert (refused.value.status, refused.value.field) == (422, "slot")
    assert "groups:B2" in refused.value.message
    assert not Event.objects.filter(match_id="euro-ko-1-1").exists()


# -- Decisions ---------------------------------------------------------------------------


@pytest.fixture
def disputed(knockout_drawn) -> tuple[str, str]:
    """ko-1-1 started by A1 v B2, then B2 changed by a staff amendment: its slot disputed."""
    first_match_begun()
    played = names("euro-ko-1-1")
    amend(FLIPPED, staff=True)
    return played


def test_kept_the_match_stands_as_played_and_the_dispute_is_answered_once(disputed):
    decided = services.dispute_decide(
        competition_id="euro", slot="groups:B2", keep=True, reason="jury: result stands", by="chief"
    )

    assert decided["keep"] is True and decided["made"] is None
    folded = championship_at(Competition.objects.get(pk="euro")).championship
    assert folded.disputes() == []
    assert names("euro-ko-1-1") == disputed
    with pytest.raises(StateClash):
        services.dispute_decide(
            competition_id="euro", slot="groups:B2", keep=False, reason="again", by="chief"
        )


def test_voided_the_match_counts_nowhere_and_its_replacement_has_the_holders_as_amended(
    disputed,
):
    services.dispute_decide(
        competition_id="euro", slot="groups:B2", keep=False, reason="jury: replay it", by="chief"
    )

    voided = Match.objects.get(pk="euro-ko-1-1")
    replacement = Match.objects.get(pk="euro-ko-1-1-r2")
    assert voided.status == Match.Status.VOID
    assert names("euro-ko-1-1-r2")[1] == places("B")[1] != disputed[1]
    assert (replacement.stage_id, replacement.slot) == ("ko", "1-1")
    folded = championship_at(Competition.objects.get(pk="euro")).championship
    assert folded.disputes() == []
    first = folded.views()[1]["rounds"][0][0]
    assert (first["match"], first["replaces"]) == ("euro-ko-1-1-r2", ["euro-ko-1-1"])
    with pytest.raises(Refused) as refused:
        services.shot_record(match_id="euro-ko-1-1", expected_seq=1, by=BY, facts=CAROM_A)
    assert refused.value.field == "match"


def test_voiding_a_played_match_disputes_the_started_match_its_winner_fed(knockout_drawn):
    win("euro-ko-1-1", "A")
    win("euro-ko-1-2", "A")
    projector.catch_up()  # the final and the third-place match made
    services.lag_record(
        match_id="euro-ko-2-1", expected_seq=0, by=BY, a={"distance": 90}, b={"distance": 150}
    )
    amend(FLIPPED, staff=True)
    services.dispute_decide(
        competition_id="euro", slot="groups:B2", keep=False, reason="replay it", by="chief"
    )

    folded = championship_at(Competition.objects.get(pk="euro")).championship
    disputes = {dispute.slot: dispute for dispute in folded.disputes()}
    fed = disputes["W:ko-1-1"]  # the final: its player as played, undecided as amended
    assert (fed.match, fed.as_played, fed.as_amended) == ("euro-ko-2-1", "name:Rossi", None)
    assert disputes["groups:B1"].match == "euro-ko-1-2"  # the flip moved group B's first too


def test_a_match_replayed_to_another_end_after_a_retraction_moves_the_players_too(
    knockout_drawn,
):
    last = Event.objects.filter(match_id=FLIPPED).count()
    services.shot_retract(
        match_id=FLIPPED, expected_seq=last, by="jury", shot=last, reason="entered twice"
    )
    seq = last + 1
    seq = services.shot_record(match_id=FLIPPED, expected_seq=seq, by=BY, facts=QUIET).seq
    services.shot_record(match_id=FLIPPED, expected_seq=seq, by=BY, facts=CAROM_A)  # A wins

    now = places("B")
    assert now[1] != knockout_drawn[1]
    assert names("euro-ko-1-1")[1] == now[1]


def test_a_dispute_leaves_the_final_ranking_provisional_until_it_is_decided(knockout_drawn):
    win("euro-ko-1-1", "A")
    win("euro-ko-1-2", "A")
    projector.catch_up()
    win("euro-ko-2-1", "A")
    win("euro-ko-3rd", "A")

    def provisional() -> list[bool]:
        rows = championship_at(Competition.objects.get(pk="euro")).championship.ranking()
        return [row["provisional"] for row in rows[:4]]

    assert provisional() == [False] * 4
    amend(FLIPPED, staff=True)  # ko-1-1 and ko-1-2 were played with group B as it stood
    assert provisional() == [True] * 4
    for slot in ("groups:B1", "groups:B2"):
        services.dispute_decide(
            competition_id="euro", slot=slot, keep=True, reason="the results stand", by="chief"
        )
    assert provisional() == [False] * 4


@pytest.fixture
def both_semi_finals_disputed(knockout_drawn) -> None:
    """Both semi-finals begun, then group B's first two swapped by a staff amendment: the
    first semi-final's B2 as amended (Fernández) plays the second as its B1."""
    first_match_begun()
    services.lag_record(
        match_id="euro-ko-1-2", expected_seq=0, by=BY, a={"distance": 90}, b={"distance": 150}
    )
    amend(FLIPPED, staff=True)
    assert (names("euro-ko-1-1"), names("euro-ko-1-2")) == (
        ("Rossi", "Bianchi"),
        ("Fernández", "Marchetti"),
    )
    assert places("B")[:2] == ["Kovalenko", "Fernández"]


def semi_finals() -> list[tuple[str, str]]:
    """Return the players of each semi-final that counts: not void."""
    semis = Match.objects.filter(competition_id="euro", stage_id="ko", slot__in=["1-1", "1-2"])
    return [names(match.pk) for match in semis.exclude(status=Match.Status.VOID).order_by("slot")]


def test_a_replacement_waits_while_its_holder_as_amended_plays_a_match_still_disputed(
    both_semi_finals_disputed,
):
    decided = services.dispute_decide(
        competition_id="euro", slot="groups:B2", keep=False, reason="replay it", by="chief"
    )
    projector.catch_up()

    assert decided["made"] is None
    assert not Match.objects.filter(pk="euro-ko-1-1-r2").exists()
    assert semi_finals() == [("Fernández", "Marchetti")]


def test_voiding_both_semi_finals_replays_each_with_the_pairing_as_amended(
    both_semi_finals_disputed,
):
    for slot in ("groups:B2", "groups:B1"):
        services.dispute_decide(
            competition_id="euro", slot=slot, keep=False, reason="replay it", by="chief"
        )

    assert names("euro-ko-1-1-r2") == ("Rossi", "Fernández")
    assert names("euro-ko-1-2-r2") == ("Kovalenko", "Marchetti")
    for match_id in ("euro-ko-1-1-r2", "euro-ko-1-2-r2"):
        services.lag_record(
            match_id=match_id, expected_seq=0, by=BY, a={"distance": 90}, b={"distance": 150}
        )
    projector.catch_up()
    assert championship_at(Competition.objects.get(pk="euro")).championship.disputes() == []
    assert not Match.objects.filter(pk__endswith="-r3").exists()


def test_a_semi_final_kept_as_played_leaves_its_replaced_neighbour_the_next_player(
    both_semi_finals_disputed,
):
    services.dispute_decide(
        competition_id="euro", slot="groups:B2", keep=False, reason="replay it", by="chief"
    )
    services.dispute_decide(
        competition_id="euro", slot="groups:B1", keep=True, reason="it stands", by="chief"
    )

    assert semi_finals() == [("Rossi", "Kovalenko"), ("Fernández", "Marchetti")]
    services.lag_record(
        match_id="euro-ko-1-1-r2", expected_seq=0, by=BY, a={"distance": 90}, b={"distance": 150}
    )
    assert championship_at(Competition.objects.get(pk="euro")).championship.disputes() == []


def test_no_replacement_is_made_with_a_player_still_playing_on_from_its_place(db):
    """Group A's first goes on from a bye; ko-1-2's winner (Fernández) plays on in the
    semi-final; an amendment then changes group A's first three places."""
    championship(
        stages=[
            {"id": "groups", "kind": "groups", "groups": 2, "advance": 3},
            {"id": "ko", "kind": "knockout", "from": "groups"},
        ]
    )
    services.stage_draw(competition_id="euro", stage_id="groups", by="director")
    for match in Match.objects.filter(competition_id="euro", stage_id="groups"):
        win(match.pk, "B" if match.pk == "euro-groups-A2" else "A")
    services.stage_draw(competition_id="euro", stage_id="ko", by="director")
    win("euro-ko-1-2", "A")
    projector.catch_up()
    services.lag_record(
        match_id="euro-ko-2-1", expected_seq=0, by=BY, a={"distance": 90}, b={"distance": 150}
    )
    assert names("euro-ko-2-1") == ("Petrenko", "Fernández")
    amend("euro-groups-A2", staff=True)
    assert places("A")[:3] == ["Rossi", "Marchetti", "Petrenko"]

    services.dispute_decide(
        competition_id="euro", slot="groups:A3", keep=False, reason="replay it", by="chief"
    )
    projector.catch_up()
    # Fernández and Petrenko both play the semi-final as played: ko-1-2's replay waits.
    assert not Match.objects.filter(pk="euro-ko-1-2-r2").exists()
    services.dispute_decide(
        competition_id="euro", slot="W:ko-1-1", keep=False, reason="replay it", by="chief"
    )
    assert names("euro-ko-1-2-r2") == ("Fernández", "Petrenko")


def test_a_knockout_with_an_open_dispute_is_not_settled_until_it_is_decided(knockout_drawn):
    win("euro-ko-1-1", "A")
    win("euro-ko-1-2", "A")
    projector.catch_up()
    win("euro-ko-2-1", "A")
    win("euro-ko-3rd", "A")

    def settled() -> bool:
        folded = championship_at(Competition.objects.get(pk="euro")).championship
        return folded.views()[1]["settled"]

    assert settled()
    amend(FLIPPED, staff=True)
    assert not settled()
    for slot in ("groups:B1", "groups:B2"):
        services.dispute_decide(
            competition_id="euro", slot=slot, keep=True, reason="the results stand", by="chief"
        )
    assert settled()


def test_a_match_made_keeps_its_players_on_the_bracket_while_its_slot_is_open_again(
    knockout_drawn,
):
    last = Event.objects.filter(match_id=FLIPPED).count()
    services.shot_retract(
        match_id=FLIPPED, expected_seq=last, by="jury", shot=last, reason="entered twice"
    )

    folded = championship_at(Competition.objects.get(pk="euro")).championship
    stage = folded.views()[1]
    first = stage["rounds"][0][0]
    assert first["players"] == list(names("euro-ko-1-1"))  # as the schedule lists it
    lines = dressed(stage, Terms("ko", "knockout", rounds=2))["named_rounds"][0]["matches"][0]
    assert [line["text"] for line in lines["lines"]] == list(names("euro-ko-1-1"))
