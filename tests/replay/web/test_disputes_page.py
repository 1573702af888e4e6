"""A dispute on the pages: marked on the bracket with who holds the place as amended, listed
for staff with the decision's form, and every change of the draw in the history."""

from __future__ import annotations

import pytest
from django.test import Client

from matches import services
from replay.projections import projector
from tests.support.browser import make_user
from tests.support.builders import BY
from tests.support.corrections import FLIPPED, amend, first_match_begun, knockout_drawn  # noqa: F401
from tests.support.league import win

pytestmark = pytest.mark.usefixtures("projector_forgotten")


@pytest.fixture
def disputed_and_caught_up(knockout_drawn):  # noqa: F811
    """ko-1-1 begun, then its B2 changed by a staff amendment; the projector caught up."""
    first_match_begun()
    amend(FLIPPED, staff=True)
    projector.catch_up()


def staff_client() -> Client:
    client = Client()
    client.force_login(make_user("chief", staff=True))
    return client


def test_the_bracket_marks_a_disputed_place_with_its_holder_as_amended(disputed_and_caught_up):
    html = Client().get("/competitions/euro/").content.decode()
    assert 'data-dispute="groups:B2"' in html
    assert "Disputed:" in html and "as amended, since version" in html
    uk = Client(HTTP_ACCEPT_LANGUAGE="uk").get("/competitions/euro/").content.decode()
    assert 'data-dispute="groups:B2"' in uk and "Disputed:" not in uk


def test_staff_see_the_open_disputes_with_a_decision_form_and_others_are_sent_to_log_in(
    disputed_and_caught_up,
):
    assert Client().get("/competitions/euro/disputes/").status_code == 302
    html = staff_client().get("/competitions/euro/disputes/").content.decode()
    assert 'data-slot="groups:B2"' in html and "form data-decision" in html
    assert "The semi-final " in html  # of a knockout of two rounds


def test_every_change_of_the_draw_is_a_sentence_of_its_history(disputed_and_caught_up):
    services.dispute_decide(
        competition_id="euro", slot="groups:B2", keep=True, reason="result stands", by="chief"
    )
    html = Client().get("/competitions/euro/history/").content.decode()
    assert "Decision on the semi-final" in html
    assert "the match stands as played (result stands)" in html
    assert "Group stage drawn" in html and "Knockout drawn" in html
    uk = Client(HTTP_ACCEPT_LANGUAGE="uk").get("/competitions/euro/history/").content.decode()
    assert "Груповий етап" in uk


def test_a_void_match_says_so_on_its_pages_and_its_console_records_nothing(disputed_and_caught_up):
    services.dispute_decide(
        competition_id="euro", slot="groups:B2", keep=False, reason="replay it", by="chief"
    )
    projector.catch_up()

    board = Client().get("/matches/euro-ko-1-1/").content.decode()
    console = staff_client().get("/referee/matches/euro-ko-1-1/")
    schedule = Client(HTTP_ACCEPT_LANGUAGE="uk").get("/competitions/euro/").content.decode()

    assert "Void: a decision on a dispute replaced this match" in board
    assert console.status_code == 410 and "nothing more can be recorded" in console.content.decode()
    assert "Анульовано" in schedule or "анульовано" in schedule


def test_a_disputed_third_place_match_is_called_so_never_the_final(knockout_drawn):  # noqa: F811
    win("euro-ko-1-1", "A")
    win("euro-ko-1-2", "A")
    projector.catch_up()
    for match_id in ("euro-ko-2-1", "euro-ko-3rd"):
        services.lag_record(
            match_id=match_id, expected_seq=0, by=BY, a={"distance": 90}, b={"distance": 150}
        )
    amend(FLIPPED, staff=True)
    services.dispute_decide(
        competition_id="euro", slot="groups:B2", keep=False, reason="replay it", by="chief"
    )
    projector.catch_up()

    html = staff_client().get("/competitions/euro/disputes/").content.decode()
    third = html.split('data-slot="L:ko-1-1"', 1)[1].split("</h2>", 1)[0]
    assert "The third-place match Bianchi v Marchetti" in third
    assert "The final Rossi v Fernández" in html
    services.dispute_decide(
        competition_id="euro", slot="L:ko-1-1", keep=True, reason="it stands", by="chief"
    )
    history = Client().get("/competitions/euro/history/").content.decode()
    assert "Decision on the third-place match Bianchi v Marchetti" in history
