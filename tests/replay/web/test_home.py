"""The home page: what is live now, the latest results, the competitions under way."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.staticfiles import finders

from matches import services
from tests.support.archive import make_archive
from tests.support.builders import BY, CAROM_A, new_match, open_game, play


def test_the_home_page_shows_a_match_under_way_with_links_to_watch_and_replay_it(db, client):
    match = new_match("cup-live-1", "cup")
    play(match.id, open_game(match.id))

    response = client.get("/")

    assert response.status_code == 200
    assert [line.match.id for line in response.context["live"]] == ["cup-live-1"]
    html = response.content.decode()
    assert 'href="/matches/cup-live-1/"' in html
    assert 'href="/matches/cup-live-1/replay/"' in html


def test_the_home_page_lists_recent_results_newest_first_and_competitions_on(db, client):
    made = make_archive(14)

    response = client.get("/")

    results = [line.match_id for line in response.context["results"]]
    finished = [s.match_id for s in sorted(made, key=lambda s: s.date, reverse=True)]
    assert results == [m for m in finished if m in set(results)][: len(results)]
    assert results and all(line.status == "finished" for line in response.context["results"])
    competitions = response.context["competitions"]
    assert [line["competition"].id for line in competitions] == ["cup"]
    assert 'href="/competitions/cup/records.zip"' in response.content.decode()


@pytest.mark.parametrize("rows", [2, 30])
def test_the_home_page_costs_the_same_queries_however_many_matches_are_stored(
    db, client, django_assert_num_queries, rows
):
    make_archive(rows)

    # Live matches, recent results, competitions.
    with django_assert_num_queries(3):
        client.get("/")


def test_every_page_has_the_navigation_to_the_archive_and_a_skip_link(db, client):
    html = client.get("/archive/").content.decode()

    assert 'href="/archive/"' in html
    assert 'class="skip-link" href="#content"' in html
    assert 'id="content"' in html


@pytest.mark.parametrize(
    "language, words", [("en", "Recent results"), ("uk", "Останні результати")]
)
def test_the_home_page_speaks_the_language_asked(db, client, language, words):
    html = client.get("/", headers={"accept-language": language}).content.decode()

    assert words in html


def test_the_public_home_page_has_no_command_line_tools_and_no_admin_link(db, client):
    html = client.get("/").content.decode()

    assert "Command-line tools" not in html and "manage.py judge" not in html
    assert 'href="/admin/"' not in html


def test_staff_with_rights_in_the_admin_see_it_in_the_navigation(db, client, django_user_model):
    client.force_login(django_user_model.objects.create_superuser("federation"))

    assert 'href="/admin/"' in client.get("/").content.decode()


def test_staff_without_a_right_in_the_admin_are_not_shown_it(db, client, django_user_model):
    client.force_login(django_user_model.objects.create_user("director", is_staff=True))

    assert 'href="/admin/"' not in client.get("/").content.decode()


def test_the_home_pages_title_speaks_ukrainian(db, client):
    html = client.get("/", headers={"accept-language": "uk"}).content.decode()

    assert "<title>carambole — більярд «п'ять фішок»</title>" in html


def test_every_page_links_the_projects_own_icon(db, client):
    html = client.get("/archive/").content.decode()

    assert '<link rel="icon" href="/static/replay/favicon.svg" type="image/svg+xml">' in html
    icon = finders.find("replay/favicon.svg")
    assert icon and Path(icon).read_text().startswith("<svg")


def live_now(client) -> list[dict]:
    answer = client.get("/live.json")
    assert answer.status_code == 200 and answer["Content-Type"] == "application/json"
    return answer.json()["matches"]


def test_live_now_answers_each_match_under_way_with_its_card_until_it_is_finished(db, client):
    assert live_now(client) == []
    match = new_match("cup-live-1", "cup")
    seq = play(match.id, open_game(match.id), CAROM_A)

    [line] = live_now(client)

    assert line["id"] == "cup-live-1" and line["seq"] == seq
    assert 'data-match="cup-live-1"' in line["html"] and "4:0" in line["html"]
    services.match_forfeit(match_id=match.id, expected_seq=seq, by=BY, player="B", reason="left")
    assert live_now(client) == []


def test_a_competition_in_stages_is_offered_by_its_final_ranking_not_a_round_robins_table(db):
    from django.test import Client

    from tests.support.championships import championship

    championship()
    services.stage_draw(competition_id="euro", stage_id="groups", by="director")

    html = Client().get("/").content.decode()

    assert 'href="/competitions/euro/ranking.csv"' in html
    assert 'href="/competitions/euro/standings.csv"' not in html
