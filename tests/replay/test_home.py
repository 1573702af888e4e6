"""The home page: what is live now, the latest results, the competitions under way."""

from __future__ import annotations

import pytest

from tests.replay.test_archive_pages import make_archive
from tests.store.plays import new_match, open_game, play


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
    competitions = list(response.context["competitions"])
    assert [c.id for c in competitions] == ["cup"]
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
