"""A groups stage drawn from another's on the competition's page: a dispute of one of its
places is shown beside the place's matches, and a match waiting for its replacement's
players is listed without a link."""

from __future__ import annotations

from django.test import Client

from matches.models import Match
from replay.projections import projector
from tests.support import championship_shapes as shapes
from tests.support.browser import make_user
from tests.support.later_groups import second_stage_begun_then_group_b_flipped


def test_a_later_group_s_disputed_place_is_shown_beside_its_matches(
    client, db, projector_forgotten
):
    second_stage_begun_then_group_b_flipped()
    projector.catch_up()

    page = client.get("/competitions/open/")

    assert page.status_code == 200
    assert 'data-dispute="groups:B2"' in page.content.decode()


def test_a_later_group_s_voided_match_and_its_replacement_are_listed(
    client, db, projector_forgotten
):
    _, _, runner_up = second_stage_begun_then_group_b_flipped()
    shapes.decide("open", "groups:B2", keep=False)
    projector.catch_up()

    html = client.get("/competitions/open/").content.decode()

    assert f"/matches/{runner_up[0]}-r2/" in html
    assert Match.objects.get(pk=runner_up[0]).status == Match.Status.VOID


def test_a_later_group_s_replacement_waiting_for_its_player_is_listed_without_a_link(
    client, db, projector_forgotten
):
    _, _, runner_up = second_stage_begun_then_group_b_flipped(winner_begun=True)
    shapes.decide("open", "groups:B2", keep=False)  # its player as amended plays B1 still
    projector.catch_up()
    assert not Match.objects.filter(pk=f"{runner_up[0]}-r2").exists()

    page = client.get("/competitions/open/")

    assert page.status_code == 200
    assert f"/matches/{runner_up[0]}-r2/" not in page.content.decode()
    assert "waiting for its players" in page.content.decode()


def test_staff_decide_a_later_group_s_dispute_from_the_disputes_page(db, projector_forgotten):
    second_stage_begun_then_group_b_flipped()
    projector.catch_up()
    client = Client()
    client.force_login(make_user("chief", staff=True))

    page = client.get("/competitions/open/disputes/")
    history = client.get("/competitions/open/history/")

    assert page.status_code == 200 and 'data-slot="groups:B2"' in page.content.decode()
    assert "The group A match" in page.content.decode()
    assert history.status_code == 200


def test_the_history_says_a_later_group_s_moves_and_its_decision_in_group_words(
    client, db, projector_forgotten
):
    second_stage_begun_then_group_b_flipped()
    shapes.decide("open", "groups:B2", keep=False)
    projector.catch_up()

    html = client.get("/competitions/open/history/").content.decode()

    assert "in group A" in html
    assert "Decision on the group A match" in html
