"""Downloads: a match's record, a competition's records as a zip, the record's JSON Schema."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _

from matches.domain.errors import Refused
from matches.record_schema import record_schema
from matches.records import (
    record_export,
)
from replay.queries.championships import ranking_get
from replay.queries.csv_cells import CsvWriter
from replay.queries.open_data import UnreadableRecord, competition_zip, download_json
from replay.queries.standings_reader import standings_get
from replay.web.lookups import at_of, competition_or_404, match_or_404, match_unreadable
from replay.web.rates import costly_read_as_of


def _no_record() -> str:
    """Return why a download of an unreadable match gives no record, in the active language."""
    return _("This match cannot be exported: a stored event cannot be read.")


def attachment(body: bytes, filename: str, content_type: str) -> HttpResponse:
    """Return a download: the browser saves it under `filename`."""
    response = HttpResponse(body, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def csv_download(filename: str) -> HttpResponse:
    """Return a CSV download to write rows into: UTF-8, opening with a byte-order mark.

    The mark is how spreadsheet programs (Excel first) know the file is UTF-8; without it
    they read Gómez as GÃ³mez. Programs that read CSV skip it (Python: `utf-8-sig`).
    """
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response.write("\ufeff")
    return response


def match_record(request: HttpRequest, match_id: str) -> HttpResponse:
    """Download a match's record (the notation, every event with seq, at, by and hash)."""
    match = match_or_404(match_id)
    try:
        record = record_export(match.id)
    except Refused as error:  # a corrupt or missing stored event: no record to give
        return match_unreadable(request, match, error, _no_record(), status=422)
    return attachment(download_json(record), f"{match.id}.carambole.json", "application/json")


def match_record_schema(request: HttpRequest) -> JsonResponse:
    """Serve the JSON Schema of a match record."""
    response = JsonResponse(record_schema(), json_dumps_params={"indent": 2})
    response["Content-Type"] = "application/schema+json"
    return response


STANDINGS_COLUMNS = (
    "rank",
    "player",
    "player_id",
    "played",
    "won",
    "lost",
    "match_points",
    "games_won",
    "games_lost",
    "points_for",
    "points_against",
    "average",
)


def standings_csv(request: HttpRequest, competition_id: str) -> HttpResponse:
    """Download a competition's standings table as CSV (its version in the file's name)."""
    standings = standings_get(competition_or_404(competition_id).pk)
    name = f"{standings['competition']}.standings.v{standings['version']}.csv"
    return table_csv(name, STANDINGS_COLUMNS, standings["rows"])


def table_csv(
    filename: str, columns: Sequence[str], rows: Iterable[Mapping[str, Any]]
) -> HttpResponse:
    """Return a CSV download of rows: a header of `columns`, then each row's values of them."""
    response = csv_download(filename)
    writer = CsvWriter(response)
    writer.writerow(columns)
    for row in rows:
        writer.writerow([row.get(key) for key in columns])
    return response


def competition_records(request: HttpRequest, competition_id: str) -> HttpResponse:
    """Download a competition as a zip: competition.json and every match's record."""
    competition = competition_or_404(competition_id)
    try:
        body = competition_zip(competition)
    except UnreadableRecord as unreadable:  # no zip with a record missing: name the match
        return match_unreadable(
            request, unreadable.match, unreadable.error, _no_record(), status=422
        )
    return attachment(body, f"{competition.id}.carambole.zip", "application/zip")


RANKING_COLUMNS = ["place", "player", "player_id", "seed", "out_in", "provisional"]


@costly_read_as_of
def ranking_csv(request: HttpRequest, competition_id: str) -> HttpResponse:
    """Download a competition's final ranking as CSV, as of `?at=V` (its version in the name)."""
    competition = competition_or_404(competition_id)
    if competition.stages is None:
        raise Http404("the competition has no stages: its standings are its ranking")
    ranking = ranking_get(competition.pk, at_of(request))
    name = f"{competition.pk}.ranking.v{ranking['version']}.csv"
    return table_csv(name, RANKING_COLUMNS, ranking["rows"])
