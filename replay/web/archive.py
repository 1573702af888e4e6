"""The archive: every match, searched and paged; its search as CSV."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from replay.presentation.compare import STATUS_NAMES
from replay.queries.csv_cells import CsvWriter
from replay.queries.player_keys import player_key
from replay.queries.search import CSV_LIMIT, ArchiveFilter, Search, page_of, summaries
from replay.web.exports import csv_download
from replay.web.lookups import stage_places

# Each column of the archive's CSV and the summary field it is read from.
CSV_COLUMNS = {
    "match": "match_id",
    "competition": "competition_id",
    "stage": "stage",
    "date": "date",
    "player_a": "player_a_name",
    "player_a_id": "player_a__federation_id",
    "player_b": "player_b_name",
    "player_b_id": "player_b__federation_id",
    "status": "status",
    "games_won_a": "games_won_a",
    "games_won_b": "games_won_b",
    "points_a": "points_a",
    "points_b": "points_b",
    "average_a": "average_a",
    "average_b": "average_b",
    "winner": "winner",
    "needs_review": "needs_review",
    "amendments": "amendments",
    "retractions": "retractions",
}


def line(summary: Mapping[str, Any]) -> dict[str, Any]:
    """Return one row of the archive as the page shows it (a row of `page_of`)."""
    return {
        "match": summary["match_id"],
        "competition": {"id": summary["competition_id"], "name": summary["competition__name"]},
        "stage": summary["stage"],
        "date": summary["date"],
        "players": [
            {
                "side": side,
                "name": summary[f"player_{side.lower()}_name"],
                "key": player_key(
                    summary[f"player_{side.lower()}__federation_id"],
                    summary[f"player_{side.lower()}_id"],
                ),
            }
            for side in "AB"
        ],
        "games_won": (summary["games_won_a"], summary["games_won_b"]),
        "points": (summary["points_a"], summary["points_b"]),
        "winner": summary["winner"],
        "status": summary["status"],
        "status_name": STATUS_NAMES.get(summary["status"], summary["status"]),
        "needs_review": summary["needs_review"],
        "amendments": summary["amendments"],
    }


def archive(request: HttpRequest) -> HttpResponse:
    """List the archive's matches, filtered by competition, player, date and result."""
    form = ArchiveFilter(request.GET or None)
    search = Search.of(form)
    rows, more = page_of(search)
    places = stage_places(
        (
            row["match_id"],
            row["competition_id"],
            row["match__stage_id"],
            row["match__group"],
            row["match__slot"],
        )
        for row in rows
    )
    query = request.GET.copy()
    query.pop("page", None)
    context = {
        "form": form,
        "lines": [
            {**line(row), "stage": places.get(row["match_id"], row["stage"])} for row in rows
        ],
        "page": search.page,
        "previous_page": search.page - 1 if search.page > 1 else None,
        "next_page": search.page + 1 if more else None,
        "query": query.urlencode(),
    }
    return render(request, "replay/archive.html", context)


def _csv_rows(search: Search) -> Iterator[tuple[Any, ...]]:
    rows = summaries(search).values_list(*CSV_COLUMNS.values())[:CSV_LIMIT]
    yield from rows.iterator(chunk_size=2000)


def archive_csv(request: HttpRequest) -> HttpResponse:
    """Download the archive's search (every page of it) as CSV."""
    search = Search.of(ArchiveFilter(request.GET or None))
    # Written whole, not streamed: the ASGI server would have to drive a sync iterator.
    response = csv_download("carambole-archive.csv")
    writer = CsvWriter(response)
    writer.writerow(list(CSV_COLUMNS))
    for row in _csv_rows(search):
        writer.writerow(row)
    return response
