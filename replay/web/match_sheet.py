"""The official match sheet of a finished match, as a PDF in English or Ukrainian.

A sheet is drawn once per head of its record (and language, and address of the replay)
and served from the read cache after: a sheet of 20 pages takes seconds of a core.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from matches import store
from matches.domain.errors import Refused
from matches.models import Match
from replay.presentation.sheet import NotFinished, is_finished, match_sheet
from replay.presentation.sheet_pdf import SHEET_PAGES, sheet_pdf
from replay.queries.read_cache import cached, read_key
from replay.web.lookups import match_or_404, match_unreadable, stage_label
from replay.web.rates import costly_read

LANGUAGES = tuple(code for code, _name in settings.LANGUAGES)
# How long a drawn sheet stays in the read cache: its key changes with what it prints,
# so this bounds only the cache's size.
SHEET_SECONDS = 600


def sheet_language(request: HttpRequest) -> str | None:
    """Return the sheet's language: `?lang=`, else the request's; None for one not served."""
    asked = request.GET.get("lang")
    if asked is None or asked == "":
        return translation.get_language() or settings.LANGUAGE_CODE
    return asked if asked in LANGUAGES else None


@costly_read
def match_sheet_pdf(request: HttpRequest, match_id: str) -> HttpResponse:
    """Serve a finished match's sheet (`?lang=uk|en`), refusing a match still being played."""
    match = match_or_404(match_id)
    language = sheet_language(request)
    if language is None:
        return _refusal(
            request,
            match,
            _("lang: must be one of %(languages)s") % {"languages": ", ".join(LANGUAGES)},
            400,
        )
    if not is_finished(match):
        return _not_finished(request, match)
    replay_url = request.build_absolute_uri(reverse("replay:replay", args=[match.id]))
    head, head_hash = store.head(match)
    stage = stage_label(match)
    key = sheet_key(match, head_hash, stage, language, replay_url)
    try:
        body = cached(key, lambda: _drawn(match, head, stage, language, replay_url), SHEET_SECONDS)
    except Refused as error:  # a corrupt or missing stored event: no sheet to print
        notice = _("This match cannot be printed: a stored event cannot be read.")
        return match_unreadable(request, match, error, notice, status=422)
    except NotFinished:  # its record, folded, has no winner: as a match being played
        return _not_finished(request, match)
    response = HttpResponse(body, content_type="application/pdf")
    name = f"{match.id}.sheet.{language}.pdf"
    response["Content-Disposition"] = f'inline; filename="{name}"'
    response["Content-Language"] = language
    return response


def sheet_key(match: Match, head_hash: str, stage: str, language: str, replay_url: str) -> str:
    """Return the read cache's key of a match's sheet: its record's head and everything
    else the sheet prints (the match's facts, its stage, the language, the replay's
    address), so that a new event, or a new referee or table, draws it anew."""
    return read_key(
        "sheet",
        match.pk,
        head_hash,
        stage,
        language,
        replay_url,
        match.competition.name,
        match.table,
        match.date,
        match.referee_name,
        match.referee_username,
        match.players,
        match.ball_a,
        match.ball_b,
        match.ruleset,
        SHEET_PAGES,
    )


def _drawn(match: Match, head: int, stage: str, language: str, replay_url: str) -> bytes:
    """Draw the sheet of a match's record up to its event `head`, in `language`."""
    logged = store.load_events(match, limit=head)
    with translation.override(language):
        return sheet_pdf(match_sheet(match, logged, stage, replay_url))


def _not_finished(request: HttpRequest, match: Match) -> HttpResponse:
    """Answer 409: a match still being played (or under review) has no sheet yet."""
    return _refusal(request, match, _("This match has no sheet yet: it is not finished."), 409)


def _refusal(request: HttpRequest, match: Match, sentence: str, status: int) -> HttpResponse:
    """Answer with a page that says in one sentence why there is no sheet."""
    names = {player: entry.get("name", player) for player, entry in match.players.items()}
    context = {
        "match": match,
        "title": _("%(a)s v %(b)s") % {"a": names.get("A"), "b": names.get("B")},
        "sentence": sentence,
    }
    return render(request, "replay/sheet_refused.html", context, status=status)
