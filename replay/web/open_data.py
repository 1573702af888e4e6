"""The open-data page: the latest exports of the whole archive, to download and check."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from replay.queries.open_data import latest_exports


def open_data_page(request: HttpRequest) -> HttpResponse:
    """List the open-data zips written by export_open_data, the newest first."""
    exports = latest_exports(Path(settings.OPEN_DATA_DIR))
    return render(
        request,
        "replay/open_data.html",
        {"latest": exports[0] if exports else None, "older": exports[1:]},
    )


def open_data_file(request: HttpRequest, name: str) -> FileResponse:
    """Download one export (or its .sha256): only a file the listing names."""
    directory = Path(settings.OPEN_DATA_DIR)
    listed = {entry["name"] for entry in latest_exports(directory)}
    zip_name = name.removesuffix(".sha256")
    if zip_name not in listed:
        raise Http404(_("No such export"))
    return FileResponse((directory / name).open("rb"), as_attachment=True, filename=name)
