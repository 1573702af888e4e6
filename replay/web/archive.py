"""The archive: every match, searched and paged; its search as CSV."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

from matches import store
from replay.presentation.compare import STATUS_NAMES
from replay.presentation.stage_words import Terms
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


# What a CSV row needs beyond its columns: where a stage match stands in its stage.
PLACE_FIELDS = ("match__stage_id", "match__group", "match__slot")
CSV_BATCH = 500  # rows read, placed and dated at once


def _csv_rows(search: Search) -> Iterator[tuple[Any, ...]]:
    fields = (*CSV_COLUMNS.values(), *PLACE_FIELDS)
    rows = summaries(search).values_list(*fields)[:CSV_LIMIT]
    terms: dict[str, dict[str, Terms]] = {}  # each competition's stages, read once
    batch: list[tuple[Any, ...]] = []
    for row in rows.iterator(chunk_size=2000):
        batch.append(row)
        if len(batch) == CSV_BATCH:
            yield from _in_words(batch, terms)
            batch = []
    yield from _in_words(batch, terms)


def _in_words(
    batch: Sequence[tuple[Any, ...]], terms: dict[str, dict[str, Terms]]
) -> Iterator[tuple[Any, ...]]:
    """Return rows as the pages say them: a stage match's place in its stage in the page's
    language, and an undated match on the day it was last played (as the ratings count it)."""
    columns = list(CSV_COLUMNS)
    match, competition, stage, date = (
        columns.index(name) for name in ("match", "competition", "stage", "date")
    )
    places = stage_places(
        ((row[match], row[competition], *row[len(columns) :]) for row in batch), terms
    )
    played = store.last_recorded([row[match] for row in batch if row[date] is None])
    for row in batch:
        cells = list(row[: len(columns)])
        cells[stage] = places.get(row[match], row[stage])
        if cells[date] is None and row[match] in played:
            cells[date] = timezone.localdate(played[row[match]])
        yield tuple(cells)


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
