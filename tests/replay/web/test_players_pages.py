"""The players' directory, and two players side by side in their head-to-head."""

from __future__ import annotations

import pytest
from django.utils import timezone

from matches import services
from matches.models import Player
from tests.support.archive import make_archive


def names_on(response) -> list[str]:
    return [row["name"] for row in response.context["rows"]]


# -- The directory ----------------------------------------------------------------------


def test_the_directory_lists_every_player_by_name_each_linking_to_their_page(db, client):
    made = make_archive(10)

    response = client.get("/players/")

    assert response.status_code == 200
    assert names_on(response) == [
        "Club Player",
        "Marco Marchetti",
        "Olena Kovalenko",
        "Pablo Gómez",
    ]
    html = response.content.decode()
    assert 'href="/players/UA-101/"' in html and 'href="/players/IT-202/"' in html
    club = Player.objects.get(name="Club Player")
    assert f'href="/players/~{club.pk}/"' in html
    olena = next(row for row in response.context["rows"] if row["federation_id"] == "UA-101")
    assert olena["finished"] == sum(
        1
        for summary in made
        if summary.status == "finished"
        and "UA-101" in (summary.player_a.federation_id, summary.player_b.federation_id)
    )


@pytest.mark.parametrize(
    "text, found", [("kov", ["Olena Kovalenko"]), ("IT-2", ["Marco Marchetti"])]
)
def test_the_directory_finds_a_player_by_part_of_a_name_or_a_federation_id(db, client, text, found):
    make_archive(4)

    response = client.get("/players/", {"q": text})

    assert names_on(response) == found
    assert response.context["form"]["q"].value() == text


def test_a_search_that_finds_no_one_says_so(db, client):
    make_archive(4)

    html = client.get("/players/", {"q": "Nobody"}).content.decode()

    assert "No player’s name or federation id holds “Nobody”." in html


def test_a_search_too_long_is_named_and_the_whole_directory_shown(db, client):
    make_archive(4)

    response = client.get("/players/", {"q": "x" * 500, "page": "zero"})

    assert response.status_code == 200
    assert set(response.context["form"].errors) == {"q", "page"}
    assert len(names_on(response)) == 4
    assert 'role="alert">Player: ' in response.content.decode()


def test_the_directory_pages_its_players_fifty_at_a_time(db, client):
    services.competition_create(id="big", name="Big")
    for number in range(60):
        services.player_enter(
            competition_id="big", player={"name": f"Player {number:02d}"}, by="federation"
        )

    first = client.get("/players/")
    second = client.get("/players/", {"page": 2})

    assert len(names_on(first)) == 50 and first.context["next_page"] == 2
    assert names_on(second)[0] == "Player 50" and second.context["next_page"] is None


def test_the_directory_costs_one_query_whatever_its_players(db, client, django_assert_num_queries):
    make_archive(12)

    with django_assert_num_queries(1):
        client.get("/players/", {"q": "o"})


def test_the_directory_speaks_ukrainian(db, client):
    make_archive(2)

    html = client.get("/players/", headers={"accept-language": "uk"}).content.decode()

    assert "<h1>Гравці</h1>" in html and "Завершені зустрічі" in html


def test_the_breadcrumbs_players_on_a_players_page_leads_to_the_directory(db, client):
    make_archive(2)

    html = client.get("/players/UA-101/").content.decode()

    assert '› <a href="/players/">Players</a></nav>' in html


# -- Head to head -----------------------------------------------------------------------


def test_head_to_head_shows_both_players_side_by_side_over_finished_matches_only(db, client):
    made = make_archive(24)
    between = [
        s
        for s in made
        if {s.player_a.federation_id, s.player_b.federation_id} == {"UA-101", "IT-202"}
    ]
    finished = [s for s in between if s.status == "finished"]
    assert len(finished) < len(between)  # a match still to play is among them

    response = client.get("/players/UA-101/", {"versus": "IT-202"})

    olena, marco = response.context["sides"]
    assert (olena["name"], marco["name"]) == ("Olena Kovalenko", "Marco Marchetti")
    assert olena["totals"]["matches"] == marco["totals"]["matches"] == len(finished)

    def side(summary, federation_id):
        return "a" if summary.player_a.federation_id == federation_id else "b"

    for entry, federation_id in ((olena, "UA-101"), (marco, "IT-202")):
        totals = entry["totals"]
        assert totals["won"] == sum(s.winner.lower() == side(s, federation_id) for s in finished)
        assert totals["points"] == sum(
            getattr(s, f"points_{side(s, federation_id)}") for s in finished
        )
    assert olena["totals"]["won"] + marco["totals"]["won"] == len(finished)
    html = response.content.decode()
    assert f"{len(finished)} finished matches between them" in html
    assert html.count('class="side"><a href="/players/') == 2


def test_head_to_head_gives_each_players_rating_today(db, client, monkeypatch):
    from replay.web import players

    make_archive(8)
    ratings = {"Olena Kovalenko": 1612.4, "Marco Marchetti": 1433.0}

    def rated(player):
        rating = ratings[player.name]
        day = timezone.localdate()  # rated today: its deviation has not grown since
        return [{"day": day, "rating": rating, "deviation": 80.0, "volatility": 0.06, "matches": 3}]

    monkeypatch.setattr(players, "rating_history", rated)

    html = client.get("/players/UA-101/", {"versus": "IT-202"}).content.decode()

    table = html.split('class="head-to-head"', 1)[1].split("</table>", 1)[0]
    assert "1612 ± 80" in table and "1433 ± 80" in table
    assert table.index("1612") < table.index("Rating today") < table.index("1433")


def test_head_to_head_reads_in_ukrainian(db, client):
    make_archive(24)

    html = client.get(
        "/players/UA-101/", {"versus": "IT-202"}, headers={"accept-language": "uk"}
    ).content.decode()

    assert "завершені зустрічі між ними" in html or "завершених зустрічей між ними" in html
    assert "Виграні зустрічі" in html and "Рейтинг сьогодні" in html
