"""The match sheet drawn as a PDF: A4, the project's own fonts, the replay's QR code.

What the sheet says comes whole from `sheet.match_sheet`; this module only lays it out.
The fonts are DejaVu Sans from `replay/fonts` (Latin and Cyrillic), embedded as subsets;
the QR code is made by segno and opens the match's replay.

Any text prints: every text is drawn on one line of its own (a line break in a name or a
reason is a space), a character the font lacks is drawn as the replacement mark, and a
text longer than its cell's lines is cut with an ellipsis. A sheet prints at most
`SHEET_PAGES` pages; a longer match's sheet stops there and says where the whole record is.
"""

from __future__ import annotations

import io
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import cast

import segno
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from fpdf import FPDF, FontFace
from fpdf.enums import MethodReturnValue, TableBordersLayout, WrapMode, XPos, YPos

from replay.presentation.sheet import Correction, GameSheet, Line, Sheet

FONTS = Path(__file__).resolve().parent.parent / "fonts"
FAMILY = "DejaVu"
MARGIN = 15.0  # mm on every side
QR_SIZE = 34.0  # mm: a phone reads it from a printed page at arm's length
GREY = (235, 235, 235)
CORRECTED = FontFace(fill_color=(255, 244, 214))  # an amended, retracted or void line
HEADINGS = FontFace(emphasis="B", fill_color=GREY)
# Where a game's title goes only if this much of the page is left (mm): never alone at the foot.
KEEP_WITH_TITLE = 30.0
# The most pages a sheet prints: a best-of-9 match of 245 shots takes 7, one of about
# 1,200 events 20. The pages cost the time to draw them (a 3,600-event match took 58 pages
# and seconds of a core), and no one signs a longer sheet.
SHEET_PAGES = 20
HEADER_HEIGHT = 7.0  # mm: the running head of every page after the first, and its gap
# What the last page keeps below the tables (mm): the note of a sheet cut short, and
# "Checking this sheet" with the head hash and the replay's address.
CLOSING = 80.0
ELLIPSIS = "…"
REPLACEMENT = "\ufffd"  # what a character no font of the sheet has is drawn as
LINE_BREAKS = re.compile(r"[\t\n\v\f\r\x1c-\x1e\x85\u2028\u2029]+")
CONTROLS = re.compile(r"[\x00-\x08\x0e-\x1b\x1f\x7f-\x84\x86-\x9f]")
SURROGATES = re.compile(r"[\ud800-\udfff]")


SECTION_HEIGHT = 8.0  # mm: a section's title on its one line, and the gap above it


def one_line(text: str) -> str:
    """Return a text as the sheet writes it: each run of line breaks or tabs a space, no
    other control character, a lone surrogate as the replacement mark."""
    return SURROGATES.sub(REPLACEMENT, CONTROLS.sub("", LINE_BREAKS.sub(" ", text)))


def _missing(char: str) -> str:
    """Return what a character the font lacks is drawn as: nothing for an invisible one
    (a joiner, a direction mark), else the replacement mark."""
    return "" if unicodedata.category(char) == "Cf" else REPLACEMENT


class SheetDocument(FPDF):
    """An A4 page of the sheet with the match named at the head and foot of every page."""

    def __init__(self, sheet: Sheet, pages: int) -> None:
        super().__init__(orientation="P", unit="mm", format="A4")
        self.sheet = sheet
        self.page_limit = pages
        self.set_margins(MARGIN, MARGIN, MARGIN)
        self.set_auto_page_break(auto=True, margin=MARGIN + 5)
        self.add_font(FAMILY, "", str(FONTS / "DejaVuSans.ttf"))
        self.add_font(FAMILY, "B", str(FONTS / "DejaVuSans-Bold.ttf"))
        self._drawable: dict[tuple[str, str], str] = {}
        self._fits: dict[tuple[str, float, int, str, float], tuple[str, int]] = {}
        self.set_title(one_line(f"{_('Match sheet')}: {sheet.title}"))
        self.set_subject(sheet.match_id)
        self.set_creator("carambole")
        self.set_lang(get_language() or "en")

    def normalize_text(self, text: str) -> str:
        """Return a text as the current font draws it: on one line (`one_line`), each
        character the font lacks as the replacement mark, an invisible one left out."""
        font = self.current_font
        cmap = getattr(font, "cmap", None)
        if cmap is None:
            return super().normalize_text(one_line(text))
        key = (text, self.font_family + self.font_style)
        drawable = self._drawable.get(key)
        if drawable is None:
            drawable = "".join(
                char if ord(char) in cmap else _missing(char) for char in one_line(text)
            )
            self._drawable[key] = drawable
        return super().normalize_text(drawable)

    def fitted(self, text: str, width: float, most: int) -> tuple[str, int]:
        """Return a text cut with an ellipsis to at most `most` lines of a cell `width`
        wide, in the current font, and how many lines it takes."""
        key = (text, width, most, self.font_style, self.font_size_pt)
        fit = self._fits.get(key)
        if fit is None:
            fit = self._fit(one_line(text), width, most)
            self._fits[key] = fit
        return fit

    def _fit(self, text: str, width: float, most: int) -> tuple[str, int]:
        lines = self._lines(text, width)
        if lines <= most:
            return text, lines
        kept, over = 0, len(text)  # kept characters and an ellipsis fit; over do not
        while over - kept > 1:
            middle = (kept + over) // 2
            if self._lines(text[:middle].rstrip() + ELLIPSIS, width) <= most:
                kept = middle
            else:
                over = middle
        cut = text[:kept].rstrip() + ELLIPSIS
        return cut, self._lines(cut, width)

    def _lines(self, text: str, width: float) -> int:
        lines = self.multi_cell(width, 1, text, dry_run=True, output=MethodReturnValue.LINES)
        return max(len(cast(list[str], lines)), 1)

    def after_section(self) -> tuple[int, float]:
        """Return the page and height where a table would start after a section's title."""
        page, y = self.page_no(), self.get_y()
        if y > self.h - MARGIN - KEEP_WITH_TITLE:
            page, y = page + 1, self.t_margin + HEADER_HEIGHT
        return page, y + SECTION_HEIGHT

    def rows_that_fit(
        self, heights: Sequence[float], heading: float, start: tuple[int, float]
    ) -> int:
        """Return how many rows of a table starting at `start` (page, height) the sheet has
        room for: the table breaks pages as fpdf2 does, its heading again on each, and ends
        within the last page less the room kept for the closing part."""
        page, y = start
        trigger, top = self.page_break_trigger, self.t_margin + HEADER_HEIGHT
        floor = trigger - CLOSING
        if heights and y + heading + heights[0] > trigger:  # a heading is never left alone
            page, y = page + 1, top
        y += heading
        for count, height in enumerate(heights):
            if y + height > trigger:
                page, y = page + 1, top + heading
            y += height
            if page > self.page_limit or (page == self.page_limit and y > floor):
                return count
        return len(heights)

    def header(self) -> None:
        if self.page_no() == 1:
            return
        self.set_font(FAMILY, "", 8)
        self.set_text_color(90)
        line = f"{_('Match sheet')} · {self.sheet.title} · {self.sheet.match_id}"
        self.cell(0, 5, self.fitted(line, self.epw, 1)[0], new_x=XPos.LMARGIN, new_y=YPos.NEXT)
        self.set_text_color(0)
        self.ln(2)

    def footer(self) -> None:
        self.set_y(-MARGIN)
        self.set_font(FAMILY, "", 7)
        self.set_text_color(90)
        head = _("record head: event %(seq)s, hash %(hash)s") % {
            "seq": self.sheet.head_seq,
            "hash": self.sheet.head_hash[:16],
        }
        self.cell(0, 4, f"{self.sheet.match_id} · {head}", align="L")
        self.set_x(MARGIN)
        pages = _("page %(page)s of %(pages)s") % {
            "page": self.page_no(),
            "pages": "{nb}",
        }
        self.cell(0, 4, pages, align="R")
        self.set_text_color(0)


def sheet_pdf(sheet: Sheet, pages: int = SHEET_PAGES) -> bytes:
    """Return the match sheet as a PDF, in the active language, in at most `pages` pages."""
    pdf = SheetDocument(sheet, pages)
    pdf.add_page()
    _heading(pdf, sheet)
    _players(pdf, sheet)
    _signatures(pdf, sheet)
    printed = _games(pdf, sheet)
    if printed.seq == sheet.head_seq and sheet.corrections:
        printed = Printed(printed.seq, _corrections(pdf, sheet.corrections))
    if printed.seq < sheet.head_seq or printed.corrections < len(sheet.corrections):
        _cut_short(pdf, sheet, printed)
    _check(pdf, sheet)
    return bytes(pdf.output())


@dataclass(frozen=True)
class Printed:
    """How far a sheet printed the record: its events up to `seq`, so many corrections."""

    seq: int
    corrections: int = 0


def qr_png(url: str) -> bytes:
    """Return the QR code of an address as a PNG, black on white with its quiet zone."""
    buffer = io.BytesIO()
    segno.make(url, error="m").save(buffer, kind="png", scale=8, border=4)
    return buffer.getvalue()


def _heading(pdf: SheetDocument, sheet: Sheet) -> None:
    """Draw the title, the match's facts on the left and the replay's QR code on the right."""
    width = pdf.epw - QR_SIZE - 6
    top = pdf.get_y()
    pdf.set_font(FAMILY, "B", 16)
    pdf.multi_cell(width, 8, _("Match sheet"), new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.set_font(FAMILY, "B", 12)
    title = pdf.fitted(sheet.title, width, 3)[0]
    pdf.multi_cell(width, 6, title, align="L", new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.ln(2)
    pdf.set_font(FAMILY, "", 9)
    with pdf.table(
        col_widths=(28, width - 28),
        width=width,
        align="LEFT",
        first_row_as_headings=False,
        borders_layout=TableBordersLayout.HORIZONTAL_LINES,
        text_align=("LEFT", "LEFT"),
        line_height=4.6,
    ) as table:
        for label, value in sheet.facts:
            row = table.row()
            row.cell(label, style=FontFace(emphasis="B"))
            row.cell(pdf.fitted(value, width - 28, 4)[0])
    below_facts = pdf.get_y()
    left = pdf.w - MARGIN - QR_SIZE
    pdf.image(io.BytesIO(qr_png(sheet.replay_url)), x=left, y=top, w=QR_SIZE, h=QR_SIZE)
    pdf.set_xy(left, top + QR_SIZE)
    pdf.set_font(FAMILY, "B", 7)
    pdf.multi_cell(QR_SIZE, 3.2, _("Scan to open the replay"), align="C")
    pdf.set_x(left)
    pdf.set_font(FAMILY, "", 6)
    pdf.multi_cell(QR_SIZE, 2.8, sheet.replay_url, align="C", wrapmode=WrapMode.CHAR)
    pdf.set_xy(MARGIN, max(below_facts, pdf.get_y()) + 4)


def _players(pdf: SheetDocument, sheet: Sheet) -> None:
    """Draw both players and the result."""
    pdf.set_font(FAMILY, "", 9)
    with pdf.table(
        col_widths=(10, 78, 40, 26, 26),
        text_align=("CENTER", "LEFT", "LEFT", "LEFT", "CENTER"),
        headings_style=HEADINGS,
        line_height=5,
    ) as table:
        heading = table.row()
        for word in ("", _("Player"), _("Federation id"), _("Ball"), _("Games won")):
            heading.cell(word)
        for side in sheet.sides:
            row = table.row()
            row.cell(side.letter, style=FontFace(emphasis="B"))
            row.cell(pdf.fitted(side.name, 78, 4)[0])
            row.cell(pdf.fitted(side.federation_id, 40, 3)[0])
            row.cell(pdf.fitted(side.ball, 26, 2)[0])
            row.cell(str(side.games_won))
    pdf.ln(3)
    pdf.set_font(FAMILY, "B", 11)
    result = pdf.fitted(f"{_('Result')}: {sheet.result}", pdf.epw, 3)[0]
    pdf.multi_cell(0, 6, result, align="L", new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.set_font(FAMILY, "", 9)
    if sheet.signed:
        said = _("Confirmed by: %s") % "; ".join(sheet.signed)
        pdf.multi_cell(
            0, 5, pdf.fitted(said, pdf.epw, 6)[0], align="L", new_x=XPos.LMARGIN, new_y=YPos.NEXT
        )
    if sheet.unsigned:
        said = _("Not yet confirmed by: %s") % ", ".join(sheet.unsigned)
        pdf.multi_cell(
            0, 5, pdf.fitted(said, pdf.epw, 4)[0], align="L", new_x=XPos.LMARGIN, new_y=YPos.NEXT
        )
    pdf.ln(2)


SIGNING_ROOM = 14.0  # mm above each signature's line: room for a hand
SIGNATURE_GAP = 6.0  # mm between two signatures side by side


def _signatures(pdf: SheetDocument, sheet: Sheet) -> None:
    """Draw a line to sign for the referee and for each player, side by side, each named."""
    if not sheet.signatures:
        return
    _section(pdf, _("Signatures"))
    count = len(sheet.signatures)
    width = (pdf.epw - SIGNATURE_GAP * (count - 1)) / count
    top = pdf.get_y() + SIGNING_ROOM
    pdf.set_draw_color(0)
    pdf.set_line_width(0.3)
    below = top
    for index, (whose, name) in enumerate(sheet.signatures):
        left = MARGIN + index * (width + SIGNATURE_GAP)
        pdf.line(left, top, left + width, top)
        pdf.set_xy(left, top + 1)
        pdf.set_font(FAMILY, "B", 8)
        pdf.multi_cell(width, 4, whose, new_x=XPos.LEFT, new_y=YPos.NEXT)
        pdf.set_font(FAMILY, "", 8)
        pdf.multi_cell(
            width, 4, pdf.fitted(name, width, 3)[0], align="L", new_x=XPos.LEFT, new_y=YPos.NEXT
        )
        below = max(below, pdf.get_y())
    pdf.set_xy(MARGIN, below + 2)


def _section(pdf: SheetDocument, title: str) -> None:
    """Draw a section's title, on a new page if too little of this one is left for its table."""
    if pdf.get_y() > pdf.h - MARGIN - KEEP_WITH_TITLE:
        pdf.add_page()
    pdf.ln(2)
    pdf.set_font(FAMILY, "B", 11)
    title = pdf.fitted(title, pdf.epw, 1)[0]
    pdf.multi_cell(0, 6, title, new_x=XPos.LMARGIN, new_y=YPos.NEXT)


GAME_COLUMNS = (14, 42, 96, 14, 14)  # mm: No., player, ruling, A's score, B's score
GAME_LINE = 4.0  # mm: a line of a game's table
FINAL_LINE = 6.0  # mm: a line of a game's final score


def _games(pdf: SheetDocument, sheet: Sheet) -> Printed:
    """Draw each game while the sheet has room; return how far they were printed."""
    printed = 0
    for game in sheet.games:
        drawn, whole = _game(pdf, game, sheet)
        if drawn:
            printed = game.lines[drawn - 1].seq
        if not whole:
            return Printed(printed)
    return Printed(sheet.head_seq)


def _game(pdf: SheetDocument, game: GameSheet, sheet: Sheet) -> tuple[int, bool]:
    """Draw one game shot by shot (seq, player, the ruling, both scores after it) and its
    final score, as many lines as the sheet has room for; return how many it drew, and
    whether the whole game."""
    a, b = sheet.sides
    pdf.set_font(FAMILY, "B", 9)
    final, final_lines = pdf.fitted(
        _("Final score %(a)s–%(b)s. %(outcome)s")
        % {"a": game.score_a, "b": game.score_b, "outcome": game.outcome},
        pdf.epw,
        2,
    )
    pdf.set_font(FAMILY, "", 8)
    rows = [_game_row(pdf, line) for line in game.lines]
    heights = [lines * GAME_LINE for _row, lines in rows]
    heading = GAME_LINE if rows else 0.0
    fits = pdf.rows_that_fit([*heights, final_lines * FINAL_LINE], heading, pdf.after_section())
    if fits == 0:
        return 0, False
    drawn = min(fits, len(rows))
    _section(pdf, game.title)
    pdf.set_font(FAMILY, "", 8)
    if drawn:
        with pdf.table(
            col_widths=GAME_COLUMNS,
            text_align=("RIGHT", "LEFT", "LEFT", "RIGHT", "RIGHT"),
            headings_style=HEADINGS,
            line_height=GAME_LINE,
            repeat_headings=1,
        ) as table:
            heading_row = table.row()
            for word in (_("No."), _("Player"), _("Ruling"), a.letter, b.letter):
                heading_row.cell(word)
            for (cells, _lines), line in zip(rows[:drawn], game.lines, strict=False):
                row = table.row(style=CORRECTED if line.corrected else None)
                for cell in cells:
                    row.cell(cell)
    if fits <= len(rows):
        return drawn, False
    pdf.set_font(FAMILY, "B", 9)
    pdf.multi_cell(0, FINAL_LINE, final, align="L", new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    return drawn, True


def _game_row(pdf: SheetDocument, line: Line) -> tuple[list[str], int]:
    """Return a game line's cells as drawn, and the lines its tallest cell takes."""
    player, player_lines = pdf.fitted(line.player, GAME_COLUMNS[1], 2)
    what, what_lines = pdf.fitted(line.what, GAME_COLUMNS[2], 4)
    cells = [str(line.seq), player, what, str(line.score_a), str(line.score_b)]
    return cells, max(player_lines, what_lines)


CORRECTION_COLUMNS = (28, 46, 46, 60)  # mm: shot, as recorded, in force, by and when
CORRECTION_LINE = 3.8  # mm: a line of the corrections' table


def _corrections(pdf: SheetDocument, corrections: list[Correction]) -> int:
    """Draw every amendment and retraction the sheet has room for (the ruling before and
    after, who and when, and why on a line of its own); return how many it drew."""
    pdf.set_font(FAMILY, "", 7.5)
    rows = [_correction_rows(pdf, correction) for correction in corrections]
    heights = [lines * CORRECTION_LINE for pair in rows for _cells, lines in pair]
    fits = pdf.rows_that_fit(heights, CORRECTION_LINE, pdf.after_section()) // 2
    if fits == 0:
        return 0
    _section(pdf, _("Amendments and retractions"))
    pdf.set_font(FAMILY, "", 7.5)
    with pdf.table(
        col_widths=CORRECTION_COLUMNS,
        text_align="LEFT",
        headings_style=HEADINGS,
        line_height=CORRECTION_LINE,
        repeat_headings=1,
    ) as table:
        heading = table.row()
        for word in (_("Shot"), _("As recorded"), _("In force"), _("By, when")):
            heading.cell(word)
        for (main, _lines), (reason, _reason_lines) in rows[:fits]:
            row = table.row()
            for cell in main:
                row.cell(cell)
            table.row().cell(reason[0], colspan=len(CORRECTION_COLUMNS))
    return fits


def _correction_rows(
    pdf: SheetDocument, correction: Correction
) -> tuple[tuple[list[str], int], tuple[list[str], int]]:
    """Return a correction's two rows as drawn (who and what; why, the table's width
    wide), each with the lines it takes."""
    shot, widths = f"{correction.shot}: {correction.kind}", CORRECTION_COLUMNS
    by = _("%(by)s, event %(seq)s, %(at)s") % {
        "by": correction.by,
        "seq": correction.seq,
        "at": correction.at,
    }
    fits = [
        pdf.fitted(shot, widths[0], 3),
        pdf.fitted(correction.before, widths[1], 6),
        pdf.fitted(correction.after, widths[2], 6),
        pdf.fitted(by, widths[3], 4),
    ]
    reason, reason_lines = pdf.fitted(
        _("Reason: %(reason)s") % {"reason": correction.reason}, sum(widths), 12
    )
    main = ([text for text, _lines in fits], max(lines for _text, lines in fits))
    return main, ([reason], reason_lines)


def _cut_short(pdf: SheetDocument, sheet: Sheet, printed: Printed) -> None:
    """Say where a sheet that reached its last page stops, and where the whole record is."""
    pdf.ln(2)
    pdf.set_font(FAMILY, "B", 8.5)
    text = _(
        "This sheet prints at most %(pages)s pages and stops here: it shows the events up "
        "to %(seq)s of %(head)s, and %(shown)s of the %(all)s amendments and retractions. "
        "The whole record, every event and amendment with who and why, is in the archive: "
        "%(url)s"
    ) % {
        "pages": pdf.page_limit,
        "seq": printed.seq,
        "head": sheet.head_seq,
        "shown": printed.corrections,
        "all": len(sheet.corrections),
        "url": sheet.replay_url,
    }
    pdf.multi_cell(0, 4.5, text, new_x=XPos.LMARGIN, new_y=YPos.NEXT)


def _check(pdf: SheetDocument, sheet: Sheet) -> None:
    """Draw what ties the printed sheet to the archive: the record's head and the replay."""
    _section(pdf, _("Checking this sheet"))
    pdf.set_font(FAMILY, "", 8.5)
    text = _(
        "This sheet is printed from the match's record. Its last event, %(seq)s, has the "
        "hash below: the same hash in the archive's record means the same match, every "
        "event and amendment included. The QR code opens the replay."
    ) % {"seq": sheet.head_seq}
    pdf.multi_cell(0, 4.5, text, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.ln(1)
    pdf.set_font(FAMILY, "B", 8.5)
    pdf.multi_cell(0, 4.5, _("Head hash"), new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.set_font(FAMILY, "", 8.5)
    pdf.multi_cell(
        0, 4.5, sheet.head_hash, new_x=XPos.LMARGIN, new_y=YPos.NEXT, wrapmode=WrapMode.CHAR
    )
    pdf.set_font(FAMILY, "B", 8.5)
    pdf.multi_cell(0, 4.5, _("Replay"), new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.set_font(FAMILY, "", 8.5)
    pdf.multi_cell(
        0, 4.5, sheet.replay_url, new_x=XPos.LMARGIN, new_y=YPos.NEXT, wrapmode=WrapMode.CHAR
    )
