"""Dates on the pages: one form per language, whichever format a template asks for."""

from datetime import date, datetime

import pytest
from django.utils import translation
from django.utils.formats import date_format

DAY = date(2026, 3, 9)
MOMENT = datetime(2026, 3, 9, 14, 3)


@pytest.mark.parametrize(
    ("language", "day", "moment"),
    [("uk", "09.03.2026", "09.03.2026, 14:03"), ("en", "9 Mar 2026", "9 Mar 2026, 14:03")],
)
def test_a_day_is_written_one_way_on_a_page_whichever_format_is_asked(language, day, moment):
    with translation.override(language):
        assert {date_format(DAY, "DATE_FORMAT"), date_format(DAY, "SHORT_DATE_FORMAT")} == {day}
        assert {
            date_format(MOMENT, "DATETIME_FORMAT"),
            date_format(MOMENT, "SHORT_DATETIME_FORMAT"),
        } == {moment}
