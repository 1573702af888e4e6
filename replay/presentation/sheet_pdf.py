"""The match sheet drawn as a PDF: A4, the project's own fonts, the replay's QR code.

What the sheet says comes whole from `sheet.match_sheet`; this module only lays it out.
The fonts are DejaVu Sans from `replay/fonts` (Latin and Cyrillic), embedded as subsets;
the QR code is made by segno and opens the match's replay.
"""

from __future__ import annotations

import io
from pathlib import Path

import segno
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from fpdf import FPDF, FontFace
from fpdf.enums import TableBordersLayout, WrapMode, XPos, YPos

from replay.presentation.sheet import Correction, GameSheet, Sheet

FONTS = Path(__file__).resolve().parent.parent / "fonts"
FAMILY = "DejaVu"
MARGIN = 15.0  # mm on every side
QR_SIZE = 34.0  # mm: a phone reads it from a printed page at arm's length
GREY = (235, 235, 235)
CORRECTED = FontFace(fill_color=(255, 244, 214))  # an amended, retracted or void line
HEADINGS = FontFace(emphasis="B", fill_color=GREY)
# Where a game's title goes only if this much of the page is left (mm): never alone at the foot.
KEEP_WITH_TITLE = 30.0


class SheetDocument(FPDF):
    """An A4 page of the sheet with the match named at the head and foot of every page."""

    def __init__(self, sheet: Sheet) -> None:
        super().__init__(orientation="P", unit="mm", format="A4")
        self.sheet = sheet
        self.set_margins(MARGIN, MARGIN, MARGIN)
        self.set_auto_page_break(auto=True, margin=MARGIN + 5)
        self.add_font(FAMILY, "", str(FONTS / "DejaVuSans.ttf"))
        self.add_font(FAMILY, "B", str(FONTS / "DejaVuSans-Bold.ttf"))
        self.set_title(f"{_('Match sheet')}: {sheet.title}")
        self.set_subject(sheet.match_id)
        self.set_creator("carambole")
        self.set_lang(get_language() or "en")

    def header(self) -> None:
        if self.page_no() == 1:
            return
        self.set_font(FAMILY, "", 8)
        self.set_text_color(90)
        line = f"{_('Match sheet')} · {self.sheet.title} · {self.sheet.match_id}"
        self.cell(0, 5, line, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
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


def sheet_pdf(sheet: Sheet) -> bytes:
    """Return the match sheet as a PDF, in the active language."""
    pdf = SheetDocument(sheet)
    pdf.add_page()
    _heading(pdf, sheet)
    _players(pdf, sheet)
    _signatures(pdf, sheet)
    for game in sheet.games:
        _game(pdf, game, sheet)
    if sheet.corrections:
        _corrections(pdf, sheet.corrections)
    _check(pdf, sheet)
    return bytes(pdf.output())


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
    pdf.multi_cell(width, 6, sheet.title, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
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
            row.cell(value)
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
            row.cell(side.name)
            row.cell(side.federation_id)
            row.cell(side.ball)
            row.cell(str(side.games_won))
    pdf.ln(3)
    pdf.set_font(FAMILY, "B", 11)
    pdf.multi_cell(0, 6, f"{_('Result')}: {sheet.result}", new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.set_font(FAMILY, "", 9)
    if sheet.signed:
        said = _("Confirmed by: %s") % "; ".join(sheet.signed)
        pdf.multi_cell(0, 5, said, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    if sheet.unsigned:
        said = _("Not yet confirmed by: %s") % ", ".join(sheet.unsigned)
        pdf.multi_cell(0, 5, said, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
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
        pdf.multi_cell(width, 4, name, new_x=XPos.LEFT, new_y=YPos.NEXT)
        below = max(below, pdf.get_y())
    pdf.set_xy(MARGIN, below + 2)


def _section(pdf: SheetDocument, title: str) -> None:
    """Draw a section's title, on a new page if too little of this one is left for its table."""
    if pdf.get_y() > pdf.h - MARGIN - KEEP_WITH_TITLE:
        pdf.add_page()
    pdf.ln(2)
    pdf.set_font(FAMILY, "B", 11)
    pdf.multi_cell(0, 6, title, new_x=XPos.LMARGIN, new_y=YPos.NEXT)


def _game(pdf: SheetDocument, game: GameSheet, sheet: Sheet) -> None:
    """Draw one game shot by shot: seq, player, the ruling, both scores after it."""
    _section(pdf, game.title)
    pdf.set_font(FAMILY, "", 8)
    a, b = sheet.sides
    if game.lines:
        with pdf.table(
            col_widths=(14, 42, 96, 14, 14),
            text_align=("RIGHT", "LEFT", "LEFT", "RIGHT", "RIGHT"),
            headings_style=HEADINGS,
            line_height=4,
            repeat_headings=1,
        ) as table:
            heading = table.row()
            for word in (_("No."), _("Player"), _("Ruling"), a.letter, b.letter):
                heading.cell(word)
            for line in game.lines:
                style = CORRECTED if line.corrected else None
                row = table.row(style=style)
                row.cell(str(line.seq))
                row.cell(line.player)
                row.cell(line.what)
                row.cell(str(line.score_a))
                row.cell(str(line.score_b))
    pdf.set_font(FAMILY, "B", 9)
    final = _("Final score %(a)s–%(b)s. %(outcome)s") % {
        "a": game.score_a,
        "b": game.score_b,
        "outcome": game.outcome,
    }
    pdf.multi_cell(0, 6, final, new_x=XPos.LMARGIN, new_y=YPos.NEXT)


def _corrections(pdf: SheetDocument, corrections: list[Correction]) -> None:
    """Draw every amendment and retraction: the ruling before and after, who and why."""
    _section(pdf, _("Amendments and retractions"))
    pdf.set_font(FAMILY, "", 7.5)
    with pdf.table(
        col_widths=(22, 42, 42, 34, 40),
        text_align="LEFT",
        headings_style=HEADINGS,
        line_height=3.8,
        repeat_headings=1,
    ) as table:
        heading = table.row()
        for word in (_("Shot"), _("As recorded"), _("In force"), _("By, when"), _("Reason")):
            heading.cell(word)
        for correction in corrections:
            row = table.row()
            row.cell(f"{correction.shot}: {correction.kind}")
            row.cell(correction.before)
            row.cell(correction.after)
            row.cell(
                _("%(by)s\nevent %(seq)s, %(at)s")
                % {"by": correction.by, "seq": correction.seq, "at": correction.at}
            )
            row.cell(correction.reason)


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
