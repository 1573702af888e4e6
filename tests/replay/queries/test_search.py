"""The archive's page of a search: its rows in order, a page at a time."""

from dataclasses import replace
from datetime import date

import pytest

from replay.models import MatchSummary
from replay.queries.search import PAGE_FIELDS, Search, page_of, summaries
from tests.support.archive import make_archive

PER_PAGE = 4
SEARCHES = [
    Search(),
    Search(competition="autumn"),
    Search(player="UA-101"),
    Search(player="IT-202"),  # the same shape as the one before, another player
    Search(player="club pl"),
    Search(player="marco"),
    Search(date_from=date(2026, 3, 3), date_to=date(2026, 3, 9)),
    Search(date_from=date(2026, 3, 5)),
    Search(result="finished"),
    Search(result="playing"),
    Search(result="decided"),
    Search(competition="cup", player="UA-101", date_to=date(2026, 3, 10), result="decided"),
]


@pytest.mark.parametrize("search", SEARCHES, ids=repr)
def test_the_pages_of_a_search_hold_its_rows_in_order_each_with_the_page_fields(db, search):
    make_archive(12)
    make_archive(5, "autumn", start=20)
    MatchSummary.objects.filter(match_id="cup-0004").update(date=None, needs_review=True)
    selected = list(summaries(search).values_list("match_id", flat=True))

    pages = [page_of(replace(search, page=page), PER_PAGE) for page in range(1, 7)]

    assert [row["match_id"] for rows, _more in pages for row in rows] == selected
    assert [more for _rows, more in pages] == [
        len(selected) > page * PER_PAGE for page in range(1, 7)
    ]
    assert pages[0][0], "each search finds rows"
    for rows, _more in pages:
        for row in rows:
            assert list(row) == list(PAGE_FIELDS)
            assert row["date"] is None or type(row["date"]) is date
            assert type(row["needs_review"]) is bool


def test_a_match_without_a_date_comes_first_as_the_newest(db):
    make_archive(3)
    MatchSummary.objects.filter(match_id="cup-0001").update(date=None)

    rows, more = page_of(Search())

    assert [row["match_id"] for row in rows] == ["cup-0001", "cup-0002", "cup-0000"]
    assert not more
