"""CSV as carambole writes it, served or in open data: no cell a spreadsheet would compute."""

from __future__ import annotations

import csv
from collections.abc import Iterable
from typing import Any

# What a spreadsheet reads as the start of a formula when a text cell opens with it (OWASP).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: Any) -> Any:
    """Return a value as a CSV cell: text a spreadsheet would compute is shown as text.

    A leading `'` tells a spreadsheet that the rest is text, so a name such as
    `=HYPERLINK(...)` or `-1+2` is shown as written and never run. Numbers are written as
    numbers, a negative one too: only text is ever read as a formula. None is empty.
    """
    if value is None:
        return ""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return f"'{value}"
    return value


class CsvWriter:
    """Rows into a CSV file, each cell through `csv_cell`: the one way carambole writes CSV.

    `lineterminator` is the csv module's: a download ends its lines as spreadsheets do
    (CRLF, the default), open data as its other files do ("\\n").
    """

    def __init__(self, out: Any, lineterminator: str = "\r\n") -> None:
        self.writer = csv.writer(out, lineterminator=lineterminator)

    def writerow(self, row: Iterable[Any]) -> None:
        self.writer.writerow([csv_cell(value) for value in row])
