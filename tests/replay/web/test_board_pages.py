"""The live board and the stream overlay: every moment of a match said, in both languages."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from matches import services
from tests.support.builders import BY, CAROM_A, LOWER_HALF, MISS, QUIET, new_match, open_game, play
from tests.support.decided_early import decided_early

MATCH = "cup-a-1"
# Yellow on white, then on red: a kiss carom, 4 points for B (yellow).
CAROM_B = {"contacts": [{"ball": "yellow", "hit": "white"}, {"ball": "yellow", "hit": "red"}]}
# Yellow on white, white on red, red knocks the red pin alone: a ricochet and 8, 11 for B.
RICOCHET_B = {
    "contacts": [
        {"ball": "yellow", "hit": "white"},
        {"ball": "white", "hit": "red"},
        {"ball": "red", "hit": "pins", "pins": ["center"]},
    ],
    "rest": {"white": [300.0, 800.0], "yellow": [900.0, 600.0], "red": [710.0, 2300.0]},
}


def win_game_1() -> int:
    """Game 1 to A with one carom (target 4); return the seq."""
    return play(MATCH, open_game(MATCH), CAROM_A)


def win_game_2_for_b(seq: int) -> int:
    services.game_start(match_id=MATCH, expected_seq=seq, by=BY, game=2, breaker="B")
    services.ball_place(
        match_id=MATCH, expected_seq=seq + 1, by=BY, ball="yellow", pos=LOWER_HALF, reason="break"
    )
    return play(MATCH, seq + 2, CAROM_B)


def lag() -> None:
    new_match(MATCH)


def break_() -> None:
    new_match(MATCH)
    open_game(MATCH)


def playing() -> None:
    new_match(MATCH)
    play(MATCH, open_game(MATCH), QUIET)


def ball_in_hand() -> None:
    new_match(MATCH)
    play(MATCH, open_game(MATCH), MISS)


def between_games() -> None:
    new_match(MATCH, target=4)
    win_game_1()


def intermission() -> None:
    new_match(MATCH, target=4)
    seq = win_game_2_for_b(win_game_1())
    services.intermission_record(match_id=MATCH, expected_seq=seq, by=BY, minutes=5)


def under_review() -> None:
    new_match(MATCH, target=4)
    seq = win_game_1()
    services.ruling_amend(
        match_id=MATCH, expected_seq=seq, by=BY, shot=seq, facts=QUIET, reason="video review"
    )


def game_forfeited() -> None:
    new_match(MATCH)
    seq = play(MATCH, open_game(MATCH), QUIET)
    services.game_forfeit(match_id=MATCH, expected_seq=seq, by=BY, player="B", reason="left")


def match_forfeited() -> None:
    new_match(MATCH)
    seq = play(MATCH, open_game(MATCH), QUIET)
    services.match_forfeit(match_id=MATCH, expected_seq=seq, by=BY, player="B", reason="refused")


def finished() -> None:
    new_match(MATCH, target=4)
    seq = win_game_1()
    services.game_start(match_id=MATCH, expected_seq=seq, by=BY, game=2, breaker="B")
    services.ball_place(
        match_id=MATCH, expected_seq=seq + 1, by=BY, ball="yellow", pos=LOWER_HALF, reason="break"
    )
    seq = play(MATCH, seq + 2, QUIET)
    play(MATCH, seq, CAROM_A)


MOMENTS: dict[str, tuple[Callable[[], None], str, str]] = {
    "lag": (lag, "lag", "Lag: the players decide who breaks"),
    "break": (break_, "break", "Game 1: Olena Kovalenko breaks from the lower half"),
    "playing": (playing, "playing", "Marco Marchetti to play"),
    "ball in hand": (
        ball_in_hand,
        "playing",
        "Marco Marchetti to play, with ball in hand in either half",
    ),
    "between games": (
        between_games,
        "between",
        "Game 1 to Olena Kovalenko, 4–0. Next: game 2, Marco Marchetti breaks",
    ),
    "intermission": (intermission, "intermission", "Intermission before game 3"),
    "under review": (under_review, "review", "Under review"),
    "game forfeited": (game_forfeited, "forfeit", "Marco Marchetti forfeited"),
    "match forfeited": (
        match_forfeited,
        "forfeit",
        "Olena Kovalenko wins the match: Marco Marchetti forfeited",
    ),
    "finished": (finished, "finished", "Olena Kovalenko wins the match 2–0"),
}


def page(path: str, language: str = "en", **headers: str) -> str:
    client = Client(HTTP_ACCEPT_LANGUAGE=language, **headers)
    answer = client.get(path)
    assert answer.status_code == 200, answer.status_code
    return answer.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("moment", MOMENTS)
def test_the_board_shows_every_moment_of_a_match(moment):
    build, kind, words = MOMENTS[moment]
    build()
    html = page(f"/matches/{MATCH}/")
    assert f'data-moment="{kind}"' in html
    assert words in html
    assert 'data-testid="score-A"' in html and 'data-testid="games-B"' in html
    assert 'id="last-ruling"' in html and 'id="connection"' in html


@pytest.mark.django_db
@pytest.mark.parametrize("moment", MOMENTS)
def test_the_overlay_shows_every_moment_of_a_match(moment):
    build, kind, _ = MOMENTS[moment]
    build()
    html = page(f"/matches/{MATCH}/overlay/")
    assert f'data-moment="{kind}"' in html
    assert "Olena Kovalenko" in html and "Marco Marchetti" in html


@pytest.mark.django_db
def test_the_board_shows_the_score_the_last_ruling_and_the_shots_of_the_game():
    new_match(MATCH)
    seq = play(MATCH, open_game(MATCH), QUIET)
    play(MATCH, seq, RICOCHET_B)
    html = page(f"/matches/{MATCH}/")
    assert '<span class="score" data-testid="score-B"' in html
    assert 'data-testid="score-B" title="Score in this game">11</span>' in html
    assert "Ricochet and the red pin alone: 11 to Marco Marchetti" in html
    assert html.index("Ricochet and the red pin alone") < html.index("Valid shot, no points")
    # The balls where they lie, in mm; the red pin marked as fallen.
    assert 'data-ball="white" data-player="A" cx="300.0" cy="800.0"' in html
    assert 'data-pin="center" data-fallen="true"' in html


@pytest.mark.django_db
def test_a_ball_that_moved_without_a_rest_is_drawn_where_last_known_and_marked_unconfirmed():
    playing()  # white on yellow, no rest: both moved to a place nobody recorded
    html = page(f"/matches/{MATCH}/")
    assert 'class="ball" data-ball="red"' in html
    # White where it was placed for the break, yellow on the top spot: not confirmed.
    assert (
        'class="ball unconfirmed" data-ball="white" data-player="A" cx="700.0" cy="400.0"' in html
    )
    assert (
        'class="ball unconfirmed" data-ball="yellow" data-player="B" cx="710.0" cy="2740.0"' in html
    )
    assert html.count("last known position, not confirmed") == 4  # two titles, two legends
    assert "position unknown" not in html
    data = json.loads(html.split('type="application/json">')[1].split("</script>")[0])
    assert data["state"]["positions"]["white"] is None  # the state's contract is kept
    assert data["known"]["white"] == [700.0, 400.0]


@pytest.mark.django_db
def test_a_ball_in_hand_for_the_break_is_listed_and_not_drawn():
    new_match(MATCH)
    services.lag_record(
        match_id=MATCH, expected_seq=0, by=BY, a={"distance": 90}, b={"distance": 150}
    )
    services.game_start(match_id=MATCH, expected_seq=1, by=BY, game=1, breaker="A")
    html = page(f"/matches/{MATCH}/")
    assert 'data-ball="white"' not in html.split('class="balls"')[1].split("</g>")[0]
    assert html.count("position unknown") == 1


@pytest.mark.django_db
def test_the_board_gives_its_script_the_state_at_the_head():
    playing()
    html = page(f"/matches/{MATCH}/")
    start = html.index('<script id="board-data" type="application/json">') + len(
        '<script id="board-data" type="application/json">'
    )
    data = json.loads(html[start : html.index("</script>", start)])
    assert data["seq"] == 4
    assert data["names"] == {"A": "Olena Kovalenko", "B": "Marco Marchetti"}
    assert [shot["seq"] for shot in data["shots"]] == [4]
    assert data["state"]["next"]["player"] == "B"


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/matches/no-such-match/", "/matches/no-such-match/overlay/"])
def test_an_unknown_match_is_a_404_page(path):
    assert Client().get(path).status_code == 404


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/matches/%00x/", "/matches/..%2F/overlay/", "/matches/%C3%A9/"])
def test_an_id_that_is_no_slug_is_a_404_page_never_an_error(path):
    assert Client().get(path).status_code == 404


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("query", "style"),
    [("", "dark"), ("?style=dark", "dark"), ("?style=light", "light"), ("?style=pink", "dark")],
)
def test_the_overlay_takes_a_light_or_dark_style_and_falls_back_to_dark(query, style):
    playing()
    html = page(f"/matches/{MATCH}/overlay/{query}")
    assert f'class="overlay style-{style}"' in html


@pytest.mark.django_db
def test_the_board_in_ukrainian_from_the_browser():
    playing()
    html = page(f"/matches/{MATCH}/", "uk")
    assert '<html lang="uk">' in html
    assert "Грає Marco Marchetti" in html
    assert "Правильний удар, без очок" in html
    assert "останнє відоме положення, не підтверджено" in html


@pytest.mark.django_db
def test_the_board_in_ukrainian_from_the_language_cookie():
    between_games()
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "uk"
    html = client.get(f"/matches/{MATCH}/").content.decode()
    assert "Партія 1 — Olena Kovalenko, 4–0" in html
    assert "Карамболь: 4 на користь Olena Kovalenko" in html


@pytest.mark.django_db
def test_the_overlay_in_ukrainian():
    playing()
    html = page(f"/matches/{MATCH}/overlay/", "uk")
    assert "Грає Marco Marchetti" in html


@pytest.mark.django_db
def test_the_board_reads_the_same_number_of_queries_however_many_shots():
    def queries(shots: int) -> int:
        match_id = f"cup-q-{shots}"
        new_match(match_id)
        seq = open_game(match_id)
        for _ in range(shots):
            seq = play(match_id, seq, QUIET)
        client = Client()
        client.get(f"/matches/{match_id}/")  # the first read folds the match
        with CaptureQueriesContext(connection) as captured:
            assert client.get(f"/matches/{match_id}/").status_code == 200
        return len(captured.captured_queries)

    assert queries(2) == queries(30)


@pytest.mark.django_db
def test_the_404_page_of_an_unknown_match_is_a_page_of_the_site_in_its_language():
    answer = Client(HTTP_ACCEPT_LANGUAGE="uk").get("/matches/no-such-match/")
    assert answer.status_code == 404
    html = answer.content.decode()
    assert '<html lang="uk">' in html and "/matches/no-such-match/" in html


@pytest.mark.django_db
def test_a_match_decided_early_by_an_amendment_reads_right_on_the_first_paint():
    decided_early(MATCH)
    html = page(f"/matches/{MATCH}/")

    assert "Marco Marchetti wins the match 2–0" in html  # the winner's games first
    # The last game played, not the void one: no "Game 3 · 0 0" on the scoreboard.
    assert '<span id="game-number">Game 2</span>' in html
    assert 'data-testid="score-B" title="Score in this game">4</span>' in html
    void_row = html.split('<tr data-game="3"')[1].split("</tr>")[0]
    assert void_row.startswith(' class="void">') and "<td>—</td><td>—</td>" in void_row
    assert "void: the match was already decided" in void_row
    # Game 2's shots, each named by its number with who played it; the void one claims nothing.
    assert (
        '<span class="shot-seq">shot 4</span> '
        '<span class="shot-who">Olena Kovalenko</span> '
        '<span class="shot-what">Kiss carom (void: the game was already won)</span>'
    ) in html
    assert "4 to Olena Kovalenko" not in html
    last = html.split('id="last-ruling">')[1].split("</p>")[0]
    assert last == "Kiss carom (void: the game was already won)"

    overlay = page(f"/matches/{MATCH}/overlay/")
    assert 'id="rules">Game 2 · to 4</div>' in overlay
    assert "Marco Marchetti wins the match 2–0" in overlay
    assert "Last shot: no points" in overlay

    ukrainian = page(f"/matches/{MATCH}/", "uk")
    assert "Marco Marchetti перемагає в зустрічі 2–0" in ukrainian
    assert '<span class="shot-seq">удар 4</span>' in ukrainian
    assert "(анульовано: партію вже виграно)" in ukrainian


@pytest.mark.parametrize(
    ("username", "staff", "shown"),
    [("petrenko", False, True), ("federation", True, True), ("spectator", False, False)],
)
def test_the_board_links_the_console_for_whoever_may_record_the_match(
    client, db, username, staff, shown
):
    new_match(MATCH)
    services.login_ensure("petrenko")
    services.referee_assign(match_id=MATCH, username="petrenko", by="federation")
    client.force_login(services.login_ensure(username, staff=staff))

    page = client.get(f"/matches/{MATCH}/").content

    assert (f'href="/referee/matches/{MATCH}/"'.encode() in page) is shown


def test_the_board_links_no_console_for_a_visitor(client, db):
    new_match(MATCH)

    assert b"/referee/matches/" not in client.get(f"/matches/{MATCH}/").content


@pytest.mark.parametrize("language", ["en", "uk"])
def test_the_board_links_its_players_competition_replay_head_to_head_and_overlay(
    client, db, language
):
    new_match(MATCH)

    html = client.get(f"/matches/{MATCH}/", headers={"accept-language": language}).content
    page = html.decode()

    assert 'class="name" href="/players/UA-101/">Olena Kovalenko</a>' in page
    assert 'class="name" href="/players/IT-202/">Marco Marchetti</a>' in page
    assert 'href="/competitions/cup/"' in page
    assert f'href="/matches/{MATCH}/replay/"' in page
    assert 'href="/players/UA-101/?versus=IT-202"' in page
    assert f'href="/matches/{MATCH}/overlay/"' in page
    if language == "uk":
        assert "Особисті зустрічі" in page and "Рахунок для трансляції" in page


@pytest.mark.django_db
def test_the_board_numbers_shots_from_one_and_a_retraction_shifts_none():
    new_match(MATCH)
    first = play(MATCH, open_game(MATCH), QUIET)  # event 4, A's: shot 1
    second = play(MATCH, first, CAROM_B)  # event 5, B's: shot 2, entered by mistake
    services.shot_retract(
        match_id=MATCH, expected_seq=second, by=BY, shot=second, reason="entered twice"
    )
    play(MATCH, second + 1, QUIET)  # event 7, B's again: shot 3

    html = page(f"/matches/{MATCH}/")

    named = {
        seq: html.split(f'id="shot-{seq}"', 1)[1].split('class="shot-seq">', 1)[1].split("<")[0]
        for seq in (4, 5, 7)
    }
    assert named == {4: "shot 1", 5: "shot 2", 7: "shot 3"}
    assert '<span class="shot-seq">удар 1</span>' in page(f"/matches/{MATCH}/", "uk")
