"""The demo as a new user meets it: what `load_demo` prints is enough to watch and to referee."""

from __future__ import annotations

import re
from io import StringIO

import pytest
from django.core.management import call_command
from selenium.webdriver.common.by import By

from matches.models import Match
from matches.selectors import events_after
from tests.support.browser import log_in_with_password, submit_login, wait_until
from tests.support.pages import (
    ball_at,
    board_seq,
    connection,
    console_ready,
    pending,
    record_shot,
    score,
    seqs_seen,
    watch_seq,
)

OUTAGE_WAIT_S = 40.0  # the console retries after 1, 2, 4, 8 s...: back within this


@pytest.fixture
def printed(served) -> dict[str, str]:
    """Load the demo as `make run` does, and read its pages and logins off what it prints."""
    out = StringIO()
    call_command("load_demo", matches=1, demo_logins=True, address=served.url, stdout=out)
    text = out.getvalue()
    pages = dict(re.findall(r"^  (live board|console|overlay) +(\S+)$", text, re.M))
    logins = re.findall(r"^  (demo-\w+) / (\S+)  \(", text, re.M)
    return {**pages, **{f"{name}:password": password for name, password in logins}}


@pytest.mark.journey  # the demo loaded and served as `make run` does
def test_the_printed_referee_login_records_on_the_printed_console_and_the_board_follows(
    served, printed, browsers
):
    board, console = browsers(), browsers()
    board.get(printed["live board"])
    wait_until(board, lambda d: connection(d) == "live", "the board live")
    assert (score(board, "A"), score(board, "B")) == ("15", "4")
    console.get(printed["console"])
    assert "/login/?next=" in console.current_url
    submit_login(console, "demo-referee", printed["demo-referee:password"])
    assert console.current_url == printed["console"]
    console_ready(console, 7)

    # A: white on yellow, yellow on red (a ricochet, 3); white comes back to the bottom.
    record_shot(console, ["yellow", "red"], rest={"white": (700, 300)})
    console_ready(console, 8)
    wait_until(board, lambda d: score(d, "A") == "18", "A's 18 on the board")
    assert ball_at(board, "white") == pytest.approx((700, 300), abs=15)

    # The README's offline story: stop the server, record on, `make run` again.
    watch_seq(board)
    served.stop()
    record_shot(console, ["white", "pin:right"])  # B: yellow on white, white knocks a pin: 2
    record_shot(console, ["yellow"])  # A: white on yellow, nothing more
    wait_until(console, lambda d: pending(d) == 2, "both shots waiting")
    call_command("load_demo", matches=1, demo_logins=True, address=served.url, stdout=StringIO())
    served.start()

    wait_until(board, lambda d: board_seq(d) == 10, "the board at seq 10", timeout=OUTAGE_WAIT_S)
    wait_until(console, lambda d: pending(d) == 0, "the queue sent")
    assert (score(board, "A"), score(board, "B")) == ("18", "6")
    assert sorted(set(seqs_seen(board))) == seqs_seen(board)
    shots = events_after(Match.objects.get(pk="demo-live-1"), after=7)
    assert [(shot["seq"], shot["player"]) for shot in shots] == [(8, "A"), (9, "B"), (10, "A")]


@pytest.mark.journey  # the demo loaded and served as `make run` does
def test_the_printed_staff_login_opens_the_console_and_the_overlay_shows_the_score(
    served, printed, browsers
):
    staff, stream = browsers(), browsers(size=(1920, 1080))
    log_in_with_password(staff, served, "demo-staff", printed["demo-staff:password"])
    staff.get(printed["console"])
    console_ready(staff, 7)

    stream.get(printed["overlay"])

    wait_until(stream, lambda d: connection(d) == "live", "the overlay live")
    assert (score(stream, "A"), score(stream, "B")) == ("15", "4")
    assert "Olena Kovalenko" in stream.find_element(By.ID, "overlay").text
