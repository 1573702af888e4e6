"""The archive and the players' pages, on the archive summary read model."""

from __future__ import annotations

import csv
import io
import re
from datetime import datetime

import pytest
from django.utils import timezone

from matches import services
from matches.domain.simulator import iter_competition
from matches.records import record_import
from replay.projections import projector
from replay.projections.states import match_state
from replay.queries.championships import stage_shapes
from tests.support.archive import PLAYERS, make_archive, summarise


def ids_on(response) -> list[str]:
    return [line["match"] for line in response.context["lines"]]


def csv_rows(response) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))


# -- The archive ------------------------------------------------------------------------


def test_the_archive_lists_the_newest_matches_first_each_linking_to_its_replay(db, client):
    made = make_archive(5)

    response = client.get("/archive/")

    assert response.status_code == 200
    assert ids_on(response) == [summary.match_id for summary in reversed(made)]
    html = response.content.decode()
    for summary in made:
        assert f'href="/matches/{summary.match_id}/replay/"' in html


def test_the_archive_pages_its_matches_without_counting_them_all(db, client):
    make_archive(120)

    first = client.get("/archive/")
    third = client.get("/archive/", {"page": 3})

    assert len(ids_on(first)) == 50 and first.context["next_page"] == 2
    assert ids_on(first)[0] == "cup-0119"
    assert len(ids_on(third)) == 20 and third.context["next_page"] is None
    assert third.context["previous_page"] == 2


@pytest.mark.parametrize("rows", [3, 50])
def test_a_page_of_the_archive_costs_the_same_queries_whatever_its_rows(
    db, client, django_assert_num_queries, rows
):
    make_archive(rows)

    # The competitions of the filter, the player a federation id names, the page's rows.
    with django_assert_num_queries(3):
        response = client.get("/archive/", {"result": "finished", "player": "UA-101"})

    assert response.status_code == 200


def test_the_archive_filters_by_competition(db, client):
    make_archive(6, "spring")
    make_archive(4, "autumn", start=10)

    response = client.get("/archive/", {"competition": "autumn"})

    assert sorted(ids_on(response)) == [f"autumn-{n:04d}" for n in range(10, 14)]


def test_the_archive_filters_by_a_players_federation_id_or_part_of_a_name(db, client):
    made = make_archive(12)
    plays = {
        s.match_id for s in made if "UA-101" in (s.player_a.federation_id, s.player_b.federation_id)
    }
    club = {s.match_id for s in made if "Club Player" in (s.player_a_name, s.player_b_name)}

    assert set(ids_on(client.get("/archive/", {"player": "UA-101"}))) == plays
    assert set(ids_on(client.get("/archive/", {"player": "club pl"}))) == club


def test_the_archive_filters_by_dates_inclusive(db, client):
    make_archive(10)

    response = client.get("/archive/", {"date_from": "2026-03-03", "date_to": "2026-03-05"})

    assert sorted(ids_on(response)) == ["cup-0002", "cup-0003", "cup-0004"]


@pytest.mark.parametrize(
    "result, statuses",
    [("finished", {"finished"}), ("playing", {"playing"}), ("scheduled", {"scheduled"})],
)
def test_the_archive_filters_by_result(db, client, result, statuses):
    make_archive(10)

    lines = client.get("/archive/", {"result": result}).context["lines"]

    assert lines and {line["status"] for line in lines} == statuses


def test_decided_matches_are_those_with_a_winner(db, client):
    made = make_archive(10)

    response = client.get("/archive/", {"result": "decided"})

    assert set(ids_on(response)) == {s.match_id for s in made if s.winner}


@pytest.mark.parametrize(
    "query, field",
    [
        ({"date_from": "yesterday"}, "date_from"),
        ({"date_from": "2026-03-05", "date_to": "2026-03-01"}, "date_to"),
        ({"page": "0"}, "page"),
        ({"competition": "no-such-cup"}, "competition"),
        ({"result": "maybe"}, "result"),
        ({"player": "x" * 601}, "player"),
    ],
)
def test_a_bad_filter_is_named_and_the_others_still_apply(db, client, query, field):
    make_archive(3)

    response = client.get("/archive/", query)

    assert response.status_code == 200
    assert field in response.context["form"].errors
    assert len(ids_on(response)) <= 3


def test_the_archive_search_downloads_as_csv_with_every_matching_row(db, client):
    made = make_archive(70)

    response = client.get("/archive/export.csv", {"result": "finished"})

    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    assert "carambole-archive.csv" in response["Content-Disposition"]
    rows = csv_rows(response)
    assert {row["match"] for row in rows} == {s.match_id for s in made if s.status == "finished"}
    first = next(s for s in made if s.match_id == rows[0]["match"])
    assert rows[0]["player_a"] == first.player_a_name
    assert int(rows[0]["points_a"]) == first.points_a


def test_the_archive_csv_opens_with_a_byte_order_mark_so_spreadsheets_keep_the_accents(db, client):
    make_archive(4)

    body = client.get("/archive/export.csv").content

    assert body.startswith(b"\xef\xbb\xbfmatch,")
    assert "Pablo Gómez" in body.decode("utf-8-sig")


def test_the_archive_csv_shows_names_ids_and_stages_that_look_like_formulas_as_text(db, client):
    services.competition_create(id="sheet-cup", name="=cmd|' /C calc'!A0")
    players = {
        "A": {"name": '=HYPERLINK("http://example.com")', "federation_id": "-2+3"},
        "B": {"name": "@SUM(A1:A9)", "federation_id": "=1+1"},
    }
    match = services.match_create(
        id="sheet-1", competition="sheet-cup", players=players, stage="+Final\r"
    )
    summarise(match, 0).save()

    (row,) = csv_rows(client.get("/archive/export.csv"))

    assert row["player_a"] == '\'=HYPERLINK("http://example.com")'
    assert row["player_a_id"] == "'-2+3"
    assert row["player_b"] == "'@SUM(A1:A9)"
    assert row["player_b_id"] == "'=1+1"
    assert row["stage"] == "'+Final\r"
    assert row["points_a"] == "100"
    assert row["match"] == "sheet-1"


@pytest.mark.parametrize(
    "language, place", [("en", "Group stage · group A"), ("uk", "Груповий етап · група A")]
)
def test_the_archive_csv_says_a_drawn_matchs_stage_in_words_and_the_day_it_was_played(
    db, client, projector_forgotten, language, place
):
    from tests.support.championships import championship
    from tests.support.league import win

    championship()
    services.stage_draw(competition_id="euro", stage_id="groups", by="director")
    win("euro-groups-A1", "A")
    projector.catch_up()

    answer = client.get("/archive/export.csv", headers={"accept-language": language})

    rows = {row["match"]: row for row in csv_rows(answer)}
    played = rows["euro-groups-A1"]
    assert played["stage"] == place
    assert played["date"] == timezone.localdate().isoformat()


def test_the_archive_csv_reads_a_competitions_stages_once_however_many_rows(
    db, client, projector_forgotten, monkeypatch
):
    from replay.web import archive, lookups
    from tests.support.championships import championship
    from tests.support.league import win

    championship()
    services.stage_draw(competition_id="euro", stage_id="groups", by="director")
    for match_id in ("euro-groups-A1", "euro-groups-A2", "euro-groups-B1", "euro-groups-B2"):
        win(match_id, "A")
    projector.catch_up()
    monkeypatch.setattr(archive, "CSV_BATCH", 2)  # rows written two at a time
    read = []
    monkeypatch.setattr(
        lookups, "stage_shapes", lambda found: read.append(found.pk) or stage_shapes(found)
    )

    rows = csv_rows(client.get("/archive/export.csv"))

    assert len(rows) == 4 and {row["stage"] for row in rows} == {
        "Group stage · group A",
        "Group stage · group B",
    }
    assert read == ["euro"]


def test_the_archive_csv_gives_a_dated_drawn_matchs_own_date(db, client, projector_forgotten):
    from tests.support.championships import championship
    from tests.support.league import win

    championship()
    services.stage_draw(
        competition_id="euro", stage_id="groups", by="director", first_date="2026-05-01"
    )
    win("euro-groups-A1", "A")
    projector.catch_up()

    rows = {row["match"]: row for row in csv_rows(client.get("/archive/export.csv"))}

    assert rows["euro-groups-A1"]["date"] == "2026-05-01"


def test_the_archive_link_to_its_csv_keeps_the_search(db, client):
    make_archive(2)

    html = client.get("/archive/", {"result": "finished"}).content.decode()

    assert 'href="/archive/export.csv?result=finished"' in html


@pytest.mark.parametrize("language, words", [("en", "Archive"), ("uk", "Архів")])
def test_the_archive_speaks_the_language_asked(db, client, language, words):
    make_archive(1)

    html = client.get("/archive/", headers={"accept-language": language}).content.decode()

    assert f"<h1>{words}</h1>" in html


@pytest.mark.parametrize("path", ["/", "/archive/", "/players/UA-101/", "/competitions/cup/"])
def test_english_dates_read_day_month_year_on_every_page(db, client, path):
    make_archive(3)

    html = client.get(path, headers={"accept-language": "en"}).content.decode()

    assert re.search(r">[123] Mar 2026<", html)
    assert not re.search(r"\b\d\d/\d\d/\d{4}\b", html)


@pytest.mark.parametrize("language, separator", [("en", " v "), ("uk", " — ")], ids=["en", "uk"])
@pytest.mark.parametrize("path", ["/", "/archive/", "/competitions/cup/"])
def test_every_page_puts_one_separator_between_two_players(db, client, path, language, separator):
    make_archive(3)

    html = client.get(path, headers={"accept-language": language}).content.decode()

    between = re.findall(r"</(?:a|span)>([^<]*)<(?:a|span)\b[^>]*>(?:Marco|Pablo|Club)", html)
    assert between and set(between) == {separator}


# -- A player's page --------------------------------------------------------------------


def test_a_players_page_counts_their_results_from_their_side_of_the_table(db, client):
    made = make_archive(20)
    mine = [s for s in made if "UA-101" in (s.player_a.federation_id, s.player_b.federation_id)]

    response = client.get("/players/UA-101/")

    assert response.status_code == 200
    totals = response.context["totals"]
    won = sum(
        1 for s in mine if s.winner and (s.winner == "A") == (s.player_a.federation_id == "UA-101")
    )
    assert totals["matches"] == len(mine)
    assert totals["won"] == won
    assert totals["lost"] == sum(1 for s in mine if s.winner) - won
    assert response.context["chart"] is not None
    assert '<svg viewBox="0 0 640 240" role="img"' in response.content.decode()


def test_a_players_average_is_the_points_of_all_their_shots_over_those_shots(db, client):
    made = make_archive(20)
    points = shots = 0
    for summary in made:
        for side in "ab":
            if getattr(summary, f"player_{side}").federation_id == "UA-101":
                points += getattr(summary, f"own_points_{side}")
                shots += getattr(summary, f"shots_{side}")

    totals = client.get("/players/UA-101/").context["totals"]

    assert shots and totals["average"] == round(points / shots, 3)


def test_the_form_chart_runs_by_date_with_an_undated_match_under_way_as_its_last_point(db, client):
    make_archive(8)
    under_way = services.match_create(
        id="cup-now", competition="cup", players={"A": PLAYERS[1], "B": PLAYERS[0]}
    )
    summary = summarise(under_way, 3)  # playing, no date
    summary.save()

    dots = client.get("/players/UA-101/").context["chart"]["dots"]

    assert dots[-1]["label"] == "Marco Marchetti"  # the undated match, its opponent alone
    days = [datetime.strptime(dot["label"][:11].strip(), "%d %b %Y") for dot in dots[:-1]]
    assert days == sorted(days) and len(days) >= 2


def test_the_form_charts_scale_is_written_with_a_decimal_comma_on_a_ukrainian_page(db, client):
    make_archive(8)

    html = client.get("/players/UA-101/", HTTP_ACCEPT_LANGUAGE="uk").content.decode()

    chart = html.split('class="chart form-chart"', 1)[1].split("</figure>", 1)[0]
    scale = re.findall(r'dominant-baseline="middle">([^<]*)</text>', chart)
    assert scale[0] == "0,0" and all("," in tick and "." not in tick for tick in scale), scale


def test_a_player_without_a_federation_id_has_a_stable_page_of_their_own(db, client):
    make_archive(8)
    html = client.get("/archive/", {"player": "Club"}).content.decode()
    link = html.split('href="/players/~', 1)[1].split('"', 1)[0]

    response = client.get(f"/players/~{link}")

    assert response.status_code == 200
    assert response.context["player"].name == "Club Player"


def test_head_to_head_shows_only_the_matches_of_the_two_players(db, client):
    made = make_archive(24)
    between = {
        s.match_id
        for s in made
        if {s.player_a.federation_id, s.player_b.federation_id} == {"UA-101", "IT-202"}
    }

    response = client.get("/players/UA-101/", {"versus": "IT-202"})

    assert {line["match"] for line in response.context["lines"]} == between
    assert response.context["versus"].name == "Marco Marchetti"


@pytest.mark.parametrize("rows", [4, 40])
def test_a_players_page_costs_the_same_queries_whatever_its_matches(
    db, client, django_assert_num_queries, rows
):
    make_archive(rows)

    # The player, the other player, their matches (with their joins), the ratings of each.
    with django_assert_num_queries(5):
        client.get("/players/UA-101/", {"versus": "IT-202"})


@pytest.mark.parametrize("key", ["XX-000", "id-999999", "id-x", "a%00b"])
def test_the_page_of_no_player_is_a_404(db, client, key):
    make_archive(1)

    assert client.get(f"/players/{key}/").status_code == 404


# -- On the projector's own summaries ---------------------------------------------------


def test_imported_matches_reach_the_archive_through_the_projector_with_their_results(db, client):
    records = list(iter_competition(11, 6, competition="real-cup"))
    for record in records:
        record_import(record, by="demo")
    projector.catch_up()

    response = client.get("/archive/", {"competition": "real-cup"})

    lines = {line["match"]: line for line in response.context["lines"]}
    assert set(lines) == {record["match"]["id"] for record in records}
    for match_id, line in lines.items():
        state = match_state(match_id)
        assert line["games_won"] == (state["games_won"]["A"], state["games_won"]["B"])
        assert line["status"] == state["status"]
    federation_id = records[0]["match"]["players"]["A"]["federation_id"]
    theirs = {
        r["match"]["id"]
        for r in records
        if federation_id in (p.get("federation_id") for p in r["match"]["players"].values())
    }
    assert set(ids_on(client.get("/archive/", {"player": federation_id}))) == theirs


def test_a_void_match_counts_in_no_players_totals(db, client, projector_forgotten):
    from matches.models import Match
    from replay.queries.player_keys import player_key
    from tests.support.corrections import FLIPPED, amend, drawn_with_a_flip_to_come
    from tests.support.league import win

    drawn_with_a_flip_to_come()
    projector.catch_up()
    semi = Match.objects.get(pk="euro-ko-1-1")
    page = f"/players/{player_key(semi.player_a.federation_id, semi.player_a_id)}/"
    before = client.get(page).context  # the groups alone: the semi-final not played yet
    win(semi.pk, "A")
    amend(FLIPPED, staff=True)  # group B's second place changes: the semi-final disputed
    services.dispute_decide(
        competition_id="euro", slot="groups:B2", keep=False, reason="replay it", by="chief"
    )
    projector.catch_up()

    after = client.get(page).context

    assert Match.objects.get(pk=semi.pk).status == Match.Status.VOID
    assert after["totals"] == before["totals"]
    assert len(after["chart"]["dots"]) == len(before["chart"]["dots"])
    assert semi.pk in [line["match"] for line in after["lines"]]  # listed, marked void
