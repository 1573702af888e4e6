"""The match sheet as drawn: any text prints, and a sheet keeps to its pages.

The sheets here are made by hand, no database: a match of as many lines as a test needs,
with whatever names and reasons it gives, read back with pypdf as a person reads it.
"""

from __future__ import annotations

import io
import re

import pytest
from django.utils import translation
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pypdf import PdfReader

from replay.presentation.sheet import Correction, GameSheet, Line, Sheet, Side
from replay.presentation.sheet_pdf import (
    ELLIPSIS,
    FAMILY,
    REPLACEMENT,
    SHEET_PAGES,
    SheetDocument,
    one_line,
    sheet_pdf,
)

REPLAY = "http://testserver/matches/drawn-1/replay/"
HASH = "ab" * 32


def a_sheet(
    lines: int = 40,
    name: str = "Olena Kovalenko",
    referee: str = "Stanislav Bianchi",
    reason: str = "video review",
    corrections: int = 2,
) -> Sheet:
    """Return the sheet of a match of one game of `lines` lines, named and reasoned as given."""
    drawn = [
        Line(seq, name if seq % 2 else "Marco Marchetti", f"{seq % 5} white pins", seq, seq // 2)
        for seq in range(1, lines + 1)
    ]
    fixed = [
        Correction(f"shot {n}", "amended", "valid", "foul", "bianchi", "2026-02-06", n, reason)
        for n in range(1, corrections + 1)
    ]
    return Sheet(
        match_id="drawn-1",
        title=f"{name} v Marco Marchetti",
        facts=[("Competition", "Cup"), ("Referee", referee), ("Table", "7")],
        sides=(
            Side("A", name, "UA-101", "white", 1),
            Side("B", "Marco Marchetti", "IT-7", "yellow", 0),
        ),
        games=[GameSheet(1, f"Game 1: {name} breaks", drawn, lines, lines // 2, f"Won by {name}")],
        corrections=fixed,
        result=f"{name} wins the match, 1 game to 0",
        head_seq=lines + corrections,
        head_hash=HASH,
        replay_url=REPLAY,
        signatures=[("Referee", referee), ("Player A", name), ("Player B", "Marco Marchetti")],
    )


def pages_of(pdf: bytes) -> list[str]:
    """Return each page's text, its lines joined by spaces."""
    return [
        re.sub(r"\s+", " ", page.extract_text() or "") for page in PdfReader(io.BytesIO(pdf)).pages
    ]


def drawn(sheet: Sheet, pages: int = SHEET_PAGES) -> list[str]:
    with translation.override("en"):
        return pages_of(sheet_pdf(sheet, pages))


def test_every_line_break_prints_as_a_space_and_no_other_control_character_prints():
    assert one_line("Olena\nKovalenko") == "Olena Kovalenko"
    assert one_line("Olena\r\n\tKovalenko\u2028\u2029x") == "Olena Kovalenko x"
    assert one_line("Ol\x00e\x07na\x7f\x9b") == "Olena"
    assert one_line("lone \ud800 surrogate") == f"lone {REPLACEMENT} surrogate"


def test_a_line_break_in_a_name_a_referee_or_a_reason_prints_as_a_space():
    sheet = a_sheet(name="Olena\nKovalenko", referee="Stanislav\r\nBianchi", reason="seen\nit")

    text = " ".join(drawn(sheet))

    assert "Olena Kovalenko" in text and "Stanislav Bianchi" in text
    assert "Reason: seen it" in text


def test_a_character_the_font_lacks_prints_as_the_replacement_mark_and_the_rest_as_written():
    text = " ".join(drawn(a_sheet(name="Lee 🎱 𠀀 漢 Kovalenko")))

    assert f"Lee {REPLACEMENT} {REPLACEMENT} {REPLACEMENT} Kovalenko" in text


def test_an_invisible_character_the_font_lacks_is_left_out():
    text = " ".join(drawn(a_sheet(name="Olena\u2066 Kovalenko")))

    assert "Olena Kovalenko" in text and REPLACEMENT not in text


def test_a_text_longer_than_its_lines_is_cut_with_an_ellipsis_and_a_short_one_is_kept():
    pdf = SheetDocument(a_sheet(), SHEET_PAGES)
    pdf.add_page()
    pdf.set_font(FAMILY, "", 8)

    cut, lines = pdf.fitted("Kovalenko " * 40, 42, 2)
    kept, one = pdf.fitted("Olena Kovalenko", 42, 2)
    pdf.output()  # done with its fonts

    assert lines == 2 and cut.endswith(ELLIPSIS) and cut.startswith("Kovalenko Kovalenko")
    assert (kept, one) == ("Olena Kovalenko", 1)


def test_a_reason_of_a_thousand_characters_prints_whole_on_the_line_below_its_correction():
    reason = " ".join(f"w{n:03d}" for n in range(200))[:1000]

    text = " ".join(drawn(a_sheet(reason=reason)))

    assert f"Reason: {reason}" in text


def test_a_sheet_that_fits_its_pages_prints_every_line_and_says_nothing_of_a_cut():
    pages = drawn(a_sheet(lines=120))
    text = " ".join(pages)

    assert "stops here" not in text
    assert "Won by Olena Kovalenko" in text and "Reason: video review" in text
    assert pages[-1].count("Head hash") == 1


@pytest.mark.parametrize("limit", [2, 3, 5])
def test_a_sheet_longer_than_its_pages_fills_them_and_its_last_says_where_the_record_is(limit):
    sheet = a_sheet(lines=1500, name="Olena Kovalenko " * 12)

    pages = drawn(sheet, limit)

    assert len(pages) == limit
    last = pages[-1]
    printed = int(re.search(r"the events up to (\d+) of 1502", last).group(1))
    assert f"{printed} " in last and f"{printed + 1} " not in " ".join(pages)
    assert "and 0 of the 2 amendments and retractions" in last
    assert f"is in the archive: {REPLAY}" in last
    assert "Head hash" in last and HASH in last


def test_a_sheet_whose_corrections_run_past_its_pages_prints_those_it_has_room_for():
    sheet = a_sheet(lines=10, corrections=300, reason="seen on video " * 20)

    last = drawn(sheet, 3)[-1]

    shown = int(re.search(r"and (\d+) of the 300 amendments and retractions", last).group(1))
    assert 0 < shown < 300
    assert "the events up to 310 of 310" in last


# Any characters at all (surrogates and controls too), or many line breaks and rare letters.
ANY_TEXT = st.text(st.characters(codec=None, exclude_categories=()), max_size=300)
BREAKS_AND_RARE = st.text(st.sampled_from("Kowalenko \n\r\t\x00\x85\u2028🎱𠀀漢ÅÄ"), max_size=1000)
texts = ANY_TEXT | BREAKS_AND_RARE


@settings(
    max_examples=max(10, settings.default.max_examples // 20),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(name=texts, referee=texts, reason=texts)
def test_any_name_referee_and_reason_print_within_the_sheets_pages(name, referee, reason):
    sheet = a_sheet(lines=30, name=name[:200], referee=referee[:200], reason=reason[:1000])

    pages = drawn(sheet, 3)

    assert 1 <= len(pages) <= 3
    assert "drawn-1" in pages[0] and HASH in pages[-1]
