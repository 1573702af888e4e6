"""The final ranking after staff decided disputes: every entry has its place and where it
went out, provisional only while something it depends on is open; a final kept as played
ranks its champion, and a semi-final replayed after the final stood ranks the final's
loser second."""

from __future__ import annotations

from matches import services
from matches.models import Competition
from matches.services.championships import championship_at
from replay.projections import projector
from tests.support.builders import BY
from tests.support.corrections import FLIPPED, amend, knockout_drawn, names, places
from tests.support.league import win

__all__ = ["knockout_drawn"]  # the fixture, used by name


def ranking() -> list[dict]:
    return championship_at(Competition.objects.get(pk="euro")).championship.ranking()


def decide_every_dispute(keep: bool) -> None:
    folded = championship_at(Competition.objects.get(pk="euro")).championship
    for dispute in folded.disputes():
        services.dispute_decide(
            competition_id="euro", slot=dispute.slot, keep=keep, reason="jury", by="chief"
        )


def knockout_played() -> None:
    """Both semi-finals won by side B, then the final and the third-place match by A."""
    win("euro-ko-1-1", "B")
    win("euro-ko-1-2", "B")
    projector.catch_up()
    win("euro-ko-2-1", "A")
    win("euro-ko-3rd", "A")


def test_a_final_kept_as_played_after_its_semi_final_was_amended_ranks_its_champion(
    knockout_drawn,
):
    knockout_played()
    champion = names("euro-ko-2-1")[0]
    amend("euro-ko-1-1", staff=True)  # the first semi-final's other player now won it
    decide_every_dispute(keep=True)

    rows = ranking()
    assert rows[0]["player"] == champion
    assert (rows[0]["place"], rows[0]["out_in"]) == (1, None)
    assert (rows[1]["player"], rows[1]["out_in"]) == (names("euro-ko-2-1")[1], "ko:2")
    assert not any(row["provisional"] for row in rows)


def test_a_semi_final_replayed_after_the_final_stood_ranks_the_final_s_loser_second(
    knockout_drawn,
):
    knockout_played()
    final = names("euro-ko-2-1")
    amend(FLIPPED, staff=True)  # group B's first two swapped: both semi-finals disputed
    services.dispute_decide(
        competition_id="euro", slot="groups:B2", keep=False, reason="replay it", by="chief"
    )
    decide_every_dispute(keep=True)  # the other semi-final and the final stand
    projector.catch_up()
    win("euro-ko-1-1-r2", "B")  # the replay's winner is not the final's player
    decide_every_dispute(keep=True)

    rows = {row["player"]: row for row in ranking()}
    assert (rows[final[0]]["place"], rows[final[1]]["place"]) == (1, 2)
    assert rows[final[1]]["out_in"] == "ko:2"
    replay_winner = names("euro-ko-1-1-r2")[1]
    assert rows[replay_winner]["out_in"] == "ko:1"
    assert not any(row["provisional"] for row in rows.values())


def test_a_group_place_denied_by_a_kept_decision_is_out_in_its_group_for_good(knockout_drawn):
    services.lag_record(
        match_id="euro-ko-1-1", expected_seq=0, by=BY, a={"distance": 90}, b={"distance": 150}
    )
    played_b2 = names("euro-ko-1-1")[1]
    amend(FLIPPED, staff=True)
    denied = places("B")[1]  # second by the table now, but the semi-final began without him
    assert denied != played_b2
    decide_every_dispute(keep=True)
    rows = {row["player"]: row for row in ranking()}
    assert rows[denied]["out_in"] == "groups"
    assert rows[denied]["provisional"] is False
    assert len(rows) == 8 and all(row["place"] for row in rows.values())
