"""The open-data page: the latest exports of the whole archive, to download and check;
staff write today's from it."""

from __future__ import annotations

import logging
from pathlib import Path

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from matches.domain.errors import Refused
from replay.queries.open_data import latest_exports, left_out_line, open_data_write

logger = logging.getLogger(__name__)


def open_data_page(request: HttpRequest) -> HttpResponse:
    """List the open-data zips written by export_open_data, the newest first."""
    exports = latest_exports(Path(settings.OPEN_DATA_DIR))
    return render(
        request,
        "replay/open_data.html",
        {
            "latest": exports[0] if exports else None,
            "older": exports[1:],
            "staff": request.user.is_authenticated and request.user.is_staff,
        },
    )


@require_POST
def open_data_export(request: HttpRequest) -> HttpResponse:
    """Write today's export, as export_open_data does (staff), and say what was written."""
    if not request.user.is_authenticated:
        return redirect_to_login(reverse("replay:open-data"))
    if not request.user.is_staff:
        raise PermissionDenied(_("Only staff write the open data."))
    try:
        written = open_data_write(Path(settings.OPEN_DATA_DIR), timezone.localdate())
    except Refused as error:
        messages.error(request, _("Nothing written: %(error)s") % {"error": error})
    else:
        logger.info("open data %s written by %s", written.path.name, request.user.get_username())
        for entry in written.left_out:
            logger.warning("open data %s: %s", written.path.name, left_out_line(entry))
        messages.success(
            request,
            _(
                "Written: %(name)s. Competitions: %(competitions)s, matches: %(matches)s, "
                "players: %(players)s."
            )
            % {
                "name": written.path.name,
                "competitions": written.competitions,
                "matches": written.matches,
                "players": written.players,
            },
        )
    return redirect("replay:open-data")


def open_data_file(request: HttpRequest, name: str) -> FileResponse:
    """Download one export (or its .sha256): only a file the listing names."""
    directory = Path(settings.OPEN_DATA_DIR)
    listed = {entry["name"] for entry in latest_exports(directory)}
    zip_name = name.removesuffix(".sha256")
    if zip_name not in listed:
        raise Http404(_("No such export"))
    return FileResponse((directory / name).open("rb"), as_attachment=True, filename=name)
