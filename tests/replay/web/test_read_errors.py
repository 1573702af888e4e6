"""Whatever a competition's log holds, none of its pages answers 500: a draw its fold
cannot take is said in a notice, in both languages, above the last good state."""

from __future__ import annotations

import pytest
from django.test import Client

from matches import services
from replay.projections import projector, standings_writer
from tests.support.browser import make_user
from tests.support.championships import championship
from tests.support.league import league, win
from tests.support.wedged import unwedge, wedge

pytestmark = pytest.mark.usefixtures("projector_forgotten")

PAGES = [
    "/",
    "/competitions/",
    "/competitions/euro/",
    "/competitions/euro/hall/",
    "/competitions/euro/history/",
    "/competitions/euro/disputes/",
    "/competitions/euro/records.zip",
    "/competitions/euro/ranking.csv",
    "/matches/euro-groups-A1/",
    "/matches/euro-groups-A1/replay/",
    "/archive/?competition=euro",
]


@pytest.fixture
def one_group_match_won(db) -> None:
    """The euro's groups drawn, group A's first match won, the projector caught up."""
    championship()
    services.stage_draw(competition_id="euro", stage_id="groups", by="director")
    win("euro-groups-A1", "A")
    projector.catch_up()


def staff() -> Client:
    client = Client()
    client.force_login(make_user("chief", staff=True))
    return client


def page(path: str, client: Client | None = None, language: str = "en") -> str:
    answer = (client or Client()).get(path, HTTP_ACCEPT_LANGUAGE=language)
    assert answer.status_code == 200, (path, answer.status_code)
    return answer.content.decode("utf-8", "replace")


@pytest.mark.parametrize("met", [True, False], ids=["projector-met-it", "not-yet"])
def test_no_page_of_a_competition_whose_draw_cannot_be_folded_answers_500(one_group_match_won, met):
    wedge()
    if met:
        projector.catch_up()

    for path in PAGES:
        page(path, staff())


def test_the_competition_page_says_where_the_draw_stopped_and_shows_the_state_before(
    one_group_match_won,
):
    broken = wedge()
    projector.catch_up()

    html = page("/competitions/euro/")
    uk = page("/competitions/euro/", language="uk")

    assert f"The draw's read models stopped at event {broken}:" in html
    assert "<code>KeyError: &#x27;size&#x27;</code>" in html
    assert "Staff have been told; the pages show the state before it." in html
    assert 'data-group="A"' in html  # the groups as last written
    assert f"Показ жеребкування зупинився на події {broken}:" in uk
    assert "Персонал уже знає; сторінки показують стан до неї." in uk


def test_the_disputes_page_says_it_too_and_a_repaired_draw_says_nothing(one_group_match_won):
    broken = wedge()
    projector.catch_up()
    assert f"stopped at event {broken}" in page("/competitions/euro/disputes/", staff())

    unwedge()
    projector.catch_up()

    assert "data-read-error" not in page("/competitions/euro/")
    assert "data-read-error" not in page("/competitions/euro/disputes/", staff())


def test_the_page_as_of_a_version_the_fold_cannot_take_says_so(one_group_match_won):
    broken = wedge()

    html = page(f"/competitions/euro/?at={broken}")

    assert f"stopped at event {broken}" in html


def test_standings_the_projector_could_not_write_are_said_on_the_page(db, monkeypatch):
    played = league("cup")

    def unnamed(names, table, changes):
        raise LookupError("no names")

    monkeypatch.setattr(standings_writer, "_name", unnamed)
    win(played[0], "A")
    projector.catch_up()

    html = page("/competitions/cup/")

    assert 'data-read-error="standings"' in html and "The standings stopped at event" in html
