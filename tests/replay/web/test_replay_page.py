"""The replay page and its data: one fold of the match gives what a fold per seq would."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.db import connection
from django.test import Client

from matches import services
from matches.domain.fold import fold
from matches.domain.render import SCOREBOARD
from matches.domain.simulator import iter_competition, simulate_match
from matches.immutability import EVENTS_TABLE, triggers_lifted
from matches.records import record_import
from matches.selectors import match_get
from matches.store import load_facts
from replay.projections.timeline import match_timeline
from tests.support.builders import BY, QUIET, new_match, open_game, play
from tests.support.decided_early import AMENDED, VOID_GAME, VOID_IN_GAME, decided_early

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "matches"
GOLDEN = sorted(path for path in FIXTURES.glob("*.json") if ".expected" not in path.name)


def imported(path: Path) -> str:
    record = json.loads(path.read_text(encoding="utf-8"))
    return record_import(record, by="golden").match_id


def page(client: Client, url: str):
    response = client.get(url)
    assert response.status_code == 200, response.content[:500]
    return response


def embedded(response) -> tuple[dict, dict]:
    """Return the page's settings and the match's timeline, as the script reads them."""
    return response.context["page"], response.context["timeline"]


# -- The data: every frame, from one fold of the match -------------------------------------


@pytest.mark.parametrize("path", GOLDEN, ids=lambda path: path.stem)
def test_every_frame_is_the_state_a_fold_gives_at_that_seq_amended_and_live(db, path):
    match = match_get(imported(path))
    events, header = load_facts(match), match.header()

    timeline = match_timeline(match)

    assert len(timeline["frames"]) == len(events) + 1
    for seq in range(len(events) + 1):
        amended = fold(header, events, upto=seq, view="amended")
        live = fold(header, events, upto=seq, view="live")
        assert timeline["frames"][seq] == {key: amended[key] for key in SCOREBOARD}, seq
        seen = timeline["live"].get(str(seq), timeline["frames"][seq])
        assert seen == {key: live[key] for key in SCOREBOARD}, seq


def test_every_frame_of_simulated_matches_with_corrections_is_the_fold_at_that_seq(db):
    records = [
        record
        for record in iter_competition(2026, 15, competition="frames")
        if any(event["type"].startswith("shot_") for event in record["events"])
    ][:3]
    assert records
    for record in records:
        match = match_get(record_import(record, by="demo").match_id)
        events, header = load_facts(match), match.header()

        timeline = match_timeline(match)

        for seq in range(len(events) + 1):
            for view in ("amended", "live"):
                state = fold(header, events, upto=seq, view=view)
                shown = timeline["frames"][seq]
                if view == "live":
                    shown = timeline["live"].get(str(seq), shown)
                assert shown == {key: state[key] for key in SCOREBOARD}, (match.id, seq, view)


def test_a_shot_amended_later_names_who_amended_it_when_and_why_and_keeps_its_first_ruling(db):
    match = match_get(imported(FIXTURES / "amendment_void.json"))

    shots = match_timeline(match)["shots"]

    amended = [shot for shot in shots if shot["amended"]]
    assert amended
    for shot in amended:
        assert shot["original"] is not None
        assert "amended" in shot["marks"]
        assert set(shot["amended_by"]) == {"seq", "at", "by"}
        assert shot["amended_by"]["seq"] > shot["seq"]
        assert shot["reason"]


def test_the_shot_list_marks_fouls_caroms_and_big_shots(db):
    match = match_get(imported(FIXTURES / "spec_example.json"))

    shots = match_timeline(match)["shots"]

    for shot in shots:
        ruling = shot["ruling"]
        assert ("foul" in shot["marks"]) == bool(ruling["fouls"])
        assert ("carom" in shot["marks"]) == bool(ruling["carom"])
        big = ruling["scorer"] == "shooter" and ruling["points"] >= 8
        assert ("big" in shot["marks"]) == big


def test_a_big_shot_is_the_red_pin_alones_worth_or_more_under_the_matchs_own_ruleset(db):
    record = simulate_match(5, ruleset={"center_alone": 10})
    match = match_get(record_import(record, by="golden").match_id)

    rulings = [(shot["ruling"], shot["marks"]) for shot in match_timeline(match)["shots"]]

    for ruling, shot_marks in rulings:
        big = ruling["scorer"] == "shooter" and ruling["points"] >= 10
        assert ("big" in shot_marks) == big
    # Big under the rulebook's ruleset (8 or 9), not under this one.
    assert any(r["scorer"] == "shooter" and 8 <= r["points"] < 10 for r, _ in rulings)


def test_where_the_live_view_differs_is_listed_only_where_it_does(db):
    match = match_get(imported(FIXTURES / "plain_2_1.json"))

    assert match_timeline(match)["live"] == {}


# -- The page ---------------------------------------------------------------------------


def test_the_replay_page_embeds_the_whole_match_and_opens_at_the_first_shot(db, client):
    match_id = imported(FIXTURES / "spec_example.json")

    response = page(client, f"/matches/{match_id}/replay/")

    settings, timeline = embedded(response)
    assert settings["seq"] == timeline["shots"][0]["seq"]
    assert settings["view"] == "amended"
    html = response.content.decode()
    assert 'id="replay-timeline"' in html and 'id="replay-page"' in html
    # The page loads its entry; the modules it imports are not in the page.
    assert "replay/pages/replay.js" in html and "replay/table.js" not in html


def test_a_seq_in_the_address_opens_the_page_at_that_event_and_in_the_view_asked(db, client):
    match_id = imported(FIXTURES / "spec_example.json")

    settings, _ = embedded(page(client, f"/matches/{match_id}/replay/?seq=12&view=live"))

    assert (settings["seq"], settings["view"]) == (12, "live")


@pytest.mark.parametrize("seq", ["abc", "-1", "100000", "1.5", "\x00"])
def test_a_seq_that_names_no_event_is_said_so_and_the_page_opens_at_the_first_shot(db, client, seq):
    match_id = imported(FIXTURES / "spec_example.json")

    response = client.get(f"/matches/{match_id}/replay/", {"seq": seq})

    assert response.status_code == 200
    settings, timeline = embedded(response)
    assert settings["seq"] == timeline["shots"][0]["seq"]
    assert "seq:" in response.context["seq_problem"]


@pytest.mark.parametrize("match_id", ["no-such-match", "a%00b", "x" * 150])
def test_a_replay_of_no_match_is_a_404(db, client, match_id):
    assert client.get(f"/matches/{match_id}/replay/").status_code == 404


def test_the_amendments_are_shown_side_by_side_with_who_when_and_why_without_javascript(db, client):
    match_id = imported(FIXTURES / "amendment_void.json")
    timeline = match_timeline(match_get(match_id))
    amended = next(shot for shot in timeline["shots"] if shot["amended"])

    html = page(client, f"/matches/{match_id}/replay/").content.decode()

    assert f'id="amendment-{amended["seq"]}"' in html
    assert "Original (as seen live)" in html
    assert amended["amended_by"]["by"] in html
    assert amended["amended_by"]["at"] in html
    assert amended["reason"] in html


def test_each_game_has_a_score_chart_drawn_by_the_server_with_markers(db, client):
    match_id = imported(FIXTURES / "retraction_respot_fouls.json")
    timeline = match_timeline(match_get(match_id))

    response = page(client, f"/matches/{match_id}/replay/")

    charts = response.context["charts"]
    assert [chart["game"] for chart in charts] == [game["game"] for game in timeline["games"]]
    html = response.content.decode()
    assert html.count('<figure class="chart score-chart"') == len(charts)
    assert '<polyline class="line player-A"' in html
    fouled = [shot["seq"] for shot in timeline["shots"] if shot["ruling"]["fouls"]]
    markers = {marker["seq"] for chart in charts for marker in chart["markers"]}
    assert set(fouled) <= markers


def test_the_player_summary_gives_points_average_caroms_pins_and_fouls(db, client):
    match_id = imported(FIXTURES / "spec_example.json")
    stats = match_timeline(match_get(match_id))["stats"]

    summary = page(client, f"/matches/{match_id}/replay/").context["summary"]

    for line in summary:
        counted = stats[line["player"]]
        assert line["points"] == counted["points"]
        assert line["average"] == counted["average"]
        assert line["caroms"] == sum(counted["caroms"].values())
        assert line["pins"] == sum(counted["pins"].values())
        assert line["fouls"] == counted["fouls"]


def test_the_replay_page_costs_the_same_few_queries_however_long_the_match(
    db, client, django_assert_max_num_queries
):
    short, long = None, None
    for record in iter_competition(7, 6, competition="queries"):
        match_id = record_import(record, by="demo").match_id
        size = len(record["events"])
        if short is None or size < short[1]:
            short = (match_id, size)
        if long is None or size > long[1]:
            long = (match_id, size)
    assert long[1] > 2 * short[1]

    for match_id, _ in (short, long):
        with django_assert_max_num_queries(4):
            page(client, f"/matches/{match_id}/replay/")


@pytest.mark.parametrize("language, words", [("en", "Amendments"), ("uk", "Виправлення")])
def test_the_replay_page_speaks_the_language_asked(db, client, language, words):
    match_id = imported(FIXTURES / "spec_example.json")

    html = client.get(
        f"/matches/{match_id}/replay/", headers={"accept-language": language}
    ).content.decode()

    assert words in html


def test_the_charts_keep_their_coordinates_unlocalised_in_ukrainian(db, client):
    match_id = imported(FIXTURES / "spec_example.json")

    html = client.get(
        f"/matches/{match_id}/replay/", headers={"accept-language": "uk"}
    ).content.decode()

    # A decimal comma would break the SVG: "212,0" is no coordinate.
    chart = html[html.index('<figure class="chart score-chart"') :]
    assert re.search(r' y="\d+\.\d"', chart)
    assert not re.search(r' (?:x|y|cx|cy)="\d+,\d', chart)


def test_a_match_with_no_event_yet_replays_as_an_empty_table(db, client):
    new_match("cup-later", "cup")

    response = page(client, "/matches/cup-later/replay/")

    settings, timeline = embedded(response)
    assert (settings["seq"], timeline["head"], timeline["shots"]) == (0, 0, [])
    assert "No shot recorded yet." in response.content.decode()


def test_a_match_with_a_corrupt_stored_row_says_so_instead_of_failing(db, client):
    match = new_match("cup-broken", "cup")
    play(match.id, open_game(match.id))
    with triggers_lifted(), connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {EVENTS_TABLE} SET data = %s WHERE match_id = %s AND seq = 4",
            ['{"type": "shot", "contacts": [', match.id],
        )

    response = page(client, "/matches/cup-broken/replay/")

    assert "seq 4, data: the stored event cannot be read" in response.content.decode()


def test_the_replay_links_each_players_page_by_their_stable_id(db, client):
    match = new_match("cup-names", "cup")
    club = services.match_create(
        id="cup-club", competition="cup", players={"A": {"name": "Ann"}, "B": {"name": "Bo"}}
    )

    first = page(client, f"/matches/{match.id}/replay/").content.decode()
    second = page(client, f"/matches/{club.id}/replay/").content.decode()

    assert 'href="/players/UA-101/"' in first and 'href="/players/IT-202/"' in first
    assert f'href="/players/~{club.player_a_id}/"' in second
    assert client.get(f"/players/~{club.player_b_id}/").status_code == 200


def test_a_match_decided_early_by_an_amendment_shows_its_void_game_and_shots_as_void(db, client):
    decided_early("cup-early")

    response = page(client, "/matches/cup-early/replay/")

    html = response.content.decode()
    result = html.split('<p class="result">')[1].split("</p>")[0]
    assert result.count('class="game-score"') == 2  # game 3 is not listed as played
    assert ">Game 3 (void)</option>" in html
    # Each shot named by its number (its place among the shots: seq 4 is the first) and
    # game; a void one says why, and claims no points.
    lines = {line["seq"]: line for line in response.context["shot_lines"]}
    assert lines[4]["shot"] == "shot 1 (game 1)"
    assert '<span class="shot-seq">shot 6 (game 3)</span>' in html
    for seq in VOID_GAME:
        assert lines[seq]["summary"].endswith("(void: the match was already decided)")
    assert lines[13]["summary"] == "Kiss carom (void: the match was already decided)"
    assert lines[VOID_IN_GAME]["summary"] == "Kiss carom (void: the game was already won)"
    (void_chart,) = [chart for chart in response.context["charts"] if chart["game"] == 3]
    assert void_chart["void"] and [line["points"] for line in void_chart["lines"]] == ["", ""]
    # The amended shot by its number, and beside it the event its link and the API name.
    assert (
        f'<a href="?seq={AMENDED}">Shot 3 (game 2) · Marco Marchetti</a> '
        f'<small class="shot-event">event {AMENDED}</small>'
    ) in html
    ukrainian = client.get("/matches/cup-early/replay/", headers={"accept-language": "uk"})
    assert '<span class="shot-seq">удар 6 (партія 3)</span>' in ukrainian.content.decode()
    assert "(анульовано: зустріч уже вирішено)" in ukrainian.content.decode()


def test_an_amendment_that_keeps_the_ruling_shows_the_facts_it_changed(db, client):
    match = new_match("cup-rest", "cup")
    seq = play(match.id, open_game(match.id), QUIET)
    rest = {**QUIET, "rest": {"white": [300.0, 800.0]}}
    services.ruling_amend(
        match_id=match.id, expected_seq=seq, by=BY, shot=seq, facts=rest, reason="white's rest"
    )

    (change,) = page(client, "/matches/cup-rest/replay/").context["amendments"]

    changed = [
        (row["label"], row["original"], row["amended"]) for row in change["rows"] if row["differs"]
    ]
    assert changed == [("Came to rest", "—", "white (300, 800)")]
    contacts = next(row for row in change["rows"] if row["label"] == "Contacts")
    assert contacts["original"] == contacts["amended"] == "white–yellow"
