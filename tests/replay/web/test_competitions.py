"""The competitions' pages: standings, results, schedule and what changed, in two languages."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import translation

from matches.models import Match
from replay.presentation.standings_words import place
from replay.projections import projector
from tests.support.league import flip, league, win

# Each starts and ends with no fold or table kept from another test's database.
pytestmark = pytest.mark.usefixtures("projector_forgotten")


@pytest.fixture
def flipped(db):
    cup = league()
    seq = win(cup[0], "B")
    projector.catch_up()
    flip(cup[0], seq, by="petrenko")
    projector.catch_up()
    return Match.objects.get(pk=cup[0])


def page(path: str, language: str = "en") -> str:
    answer = Client(HTTP_ACCEPT_LANGUAGE=language).get(path)
    assert answer.status_code == 200
    return answer.content.decode()


def test_the_list_links_each_competition(flipped):
    html = page("/competitions/")
    assert 'href="/competitions/cup/"' in html and "Cup" in html


def test_the_competition_page_explains_the_flip_in_a_sentence(flipped):
    a, b = flipped.players["A"]["name"], flipped.players["B"]["name"]

    html = page("/competitions/cup/")

    # The shot as every page names it, why it was amended, the result now and before.
    assert (
        f"Amendment to shot 1 (game 1) of {a} v {b}, by petrenko “video review: white touched "
        f"the red”: {a} now wins 1–0 (before: {b} 1–0)"
    ) in html
    assert "1st" in html and "→" in html


def test_the_history_links_the_replay_at_the_amended_shot(flipped):
    html = page("/competitions/cup/history/")
    assert f'href="/matches/{flipped.pk}/replay/?seq=4"' in html


def test_the_competition_page_shows_standings_results_schedule_and_links(flipped):
    html = page("/competitions/cup/")

    assert 'data-competition="cup"' in html and "/static/replay/pages/competition.js" in html
    assert f'href="/matches/{flipped.pk}/"' in html
    assert f'href="/matches/{flipped.pk}/replay/"' in html
    assert html.count("<tr data-player=") == 2  # the two players of the one started match
    assert "▲1" in html


def test_the_competition_page_speaks_ukrainian(flipped):
    html = page("/competitions/cup/", "uk")

    assert '<html lang="uk">' in html
    assert "Виправлено рішення: удар 1 (партія 1)" in html
    assert "(раніше: " in html
    assert "Турнірна таблиця" in html


def test_the_history_is_a_page_of_the_site_whose_list_the_competition_page_takes(flipped):
    html = page("/competitions/cup/history/")

    assert "<html" in html and '<nav class="site"' in html and "<title>What changed: Cup" in html
    listed = html.split("<div data-history>", 1)[1]
    assert listed.lstrip().startswith('<ol class="history">') and "now wins 1–0" in listed
    assert 'href="/competitions/cup/"' in html
    competition = page("/competitions/cup/")
    assert 'data-history-url="/competitions/cup/history/"' in competition


def test_the_standings_name_match_points_apart_from_the_points_scored(flipped):
    html = page("/competitions/cup/")

    head = html.split("<thead>", 1)[1].split("</thead>", 1)[0]
    assert 'title="Match points: 2 for a win">Match points</th>' in head
    assert 'title="Points scored – conceded, in every game">Points</th>' in head
    assert "Match points: 2 for a win" in html.split('<p class="legend">', 1)[1]


def test_a_finished_match_is_offered_as_a_replay_not_as_live(flipped):
    html = page("/competitions/cup/")

    row = html.split(f'<tr data-match="{flipped.pk}">', 1)[1].split("</tr>", 1)[0]
    assert "finished" in row and "Live board" not in row
    assert f'href="/matches/{flipped.pk}/replay/"' in row


def test_an_unknown_competition_is_a_404(db):
    assert Client().get("/competitions/nope/").status_code == 404


def test_a_match_scheduled_a_moment_ago_is_in_the_schedule(flipped):
    html = page("/competitions/cup/")
    assert html.count('href="/matches/cup-r') >= 6  # every match of the round robin


@pytest.mark.parametrize(
    ("language", "ranks", "words"),
    [
        (
            "en",
            [1, 2, 3, 4, 11, 12, 13, 21, 22, 101],
            "1st 2nd 3rd 4th 11th 12th 13th 21st 22nd 101st",
        ),
        (
            "uk",
            [1, 2, 3, 4, 7, 11, 20, 21, 40, 43],
            "1-ше 2-ге 3-тє 4-те 7-ме 11-те 20-те 21-ше 40-ве 43-тє",
        ),
    ],
)
def test_a_place_is_an_ordinal_of_the_page_language(language, ranks, words):
    with translation.override(language):
        assert " ".join(place(rank) for rank in ranks) == words


def test_staff_see_the_forms_to_manage_the_competition_and_others_do_not(flipped):
    from django.contrib.auth import get_user_model

    staff = get_user_model().objects.create_user("federation", is_staff=True)
    client = Client()
    assert 'id="staff"' not in client.get("/competitions/cup/").content.decode()

    client.force_login(staff)
    html = client.get("/competitions/cup/").content.decode()

    assert 'id="staff"' in html and "/static/replay/pages/competition.js" in html
    assert 'name="csrfmiddlewaretoken"' in html


def test_a_stage_match_is_placed_in_its_stage_in_the_page_s_language_on_every_list(db):
    from matches import services
    from tests.support.championships import championship

    championship()
    services.stage_draw(competition_id="euro", stage_id="groups", by="director")
    win("euro-groups-A1", "A")
    projector.catch_up()

    for path in ("/", "/archive/", "/competitions/euro/"):
        assert "Group stage · group A" in page(path), path
        assert "Груповий етап · група A" in page(path, "uk"), path
        assert "groups A round 1" not in page(path, "uk"), path


def test_the_list_of_competitions_counts_each_match_once(flipped):
    finished = Match.objects.filter(competition_id="cup", status="finished").count()
    total = Match.objects.filter(competition_id="cup").count()
    scheduled = total - finished

    assert f"Matches: {total} — 0 live, {finished} finished, {scheduled} scheduled" in page(
        "/competitions/"
    )


def test_the_home_page_and_the_list_count_matches_one_way_less_voids(db):
    from matches import services
    from tests.support.builders import open_game, play
    from tests.support.corrections import FLIPPED, amend, drawn_with_a_flip_to_come

    drawn_with_a_flip_to_come()  # the groups played, the knockout drawn
    win("euro-ko-1-1", "A")
    amend(FLIPPED, staff=True)  # the semi-final played disputed: voided below, replayed
    services.dispute_decide(
        competition_id="euro", slot="groups:B2", keep=False, reason="replay it", by="chief"
    )
    play("euro-ko-1-2", open_game("euro-ko-1-2"))  # the other semi-final under way
    projector.catch_up()
    matches = Match.objects.filter(competition_id="euro")
    counted = matches.exclude(status="void")
    live = counted.filter(status__in=["playing", "review"]).count()
    finished = counted.filter(status="finished").count()
    said = (
        f"Matches: {counted.count()} — {live} live, {finished} finished, "
        f"{counted.count() - live - finished} scheduled"
    )

    assert matches.filter(status="void").count() == 1 and live == 1
    assert said in page("/") and said in page("/competitions/")
    assert "Зустрічей: " in page("/", "uk")


def test_a_competition_in_stages_shows_its_ranking_and_groups_and_no_round_robin_table(db):
    from matches import services
    from tests.support.championships import championship

    championship()
    services.stage_draw(competition_id="euro", stage_id="groups", by="director")
    win("euro-groups-A1", "A")
    projector.catch_up()

    html = page("/competitions/euro/")

    assert 'id="ranking"' in html and 'class="group card"' in html
    assert 'class="matches standings"' not in html and "Standings (CSV)" not in html
    assert 'id="standings"' in html  # what follows the competition live stays
    # Nor the round robin's history of places, and no template's note shown as text.
    assert "data-history>" not in html and 'id="draw-history"' in html
    assert "{#" not in html and "#}" not in html


def test_a_round_robin_without_stages_keeps_its_standings_table(flipped):
    html = page("/competitions/cup/")

    assert 'class="matches standings"' in html and 'id="ranking"' not in html
    assert "data-history>" in html


def test_the_match_for_third_place_has_a_column_of_its_own_after_the_final(db):
    from matches import services
    from tests.support.championships import championship

    championship()
    services.stage_draw(competition_id="euro", stage_id="groups", by="director")
    for match in Match.objects.filter(competition_id="euro", stage_id="groups"):
        win(match.pk, "A")
    services.stage_draw(competition_id="euro", stage_id="ko", by="director")
    projector.catch_up()

    html = page("/competitions/euro/")

    final = html.split('aria-label="Final" data-round="2"', 1)[1].split("</section>", 1)[0]
    third = html.split('aria-label="Third-place match" data-round="3"', 1)[1]
    assert 'data-slot="2-1"' in final and 'data-slot="3rd"' not in final
    assert 'data-slot="3rd"' in third.split("</section>", 1)[0]
    assert '<button type="button" data-round="3">Third-place match</button>' in html
