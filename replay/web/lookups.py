"""The one way a page finds what its address names, and answers when it cannot.

Every page gets its match, competition or player here; a `NotFound` (or an id no record can
have) becomes the page's 404, and a `Refused` read (a stored event corrupt or missing)
the page that says the match cannot be shown, naming the event.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from matches.domain.errors import NotFound, Refused
from matches.domain.notation import SLUG
from matches.models import Competition, Match, Player
from matches.selectors import competition_get, match_get
from replay.presentation.stage_words import Terms, match_place, terms_of_shapes
from replay.queries.championships import stage_shapes
from replay.queries.player_keys import player_for_key


def match_or_404(match_id: str) -> Match:
    """Return the match an id names, or answer 404."""
    if not SLUG.match(match_id):
        raise Http404(_("No such match"))  # a text that is no slug names no match
    try:
        return match_get(match_id)
    except NotFound:
        raise Http404(_("No such match")) from None


def competition_or_404(competition_id: str) -> Competition:
    """Return the competition an id names, or answer 404."""
    if not SLUG.match(competition_id):
        raise Http404(_("No such competition"))
    try:
        return competition_get(competition_id)
    except (NotFound, Refused):
        raise Http404(_("No such competition")) from None


def player_or_404(key: str) -> Player:
    """Return the player a page key names, or answer 404."""
    player = player_for_key(key)
    if player is None:
        raise Http404(_("No such player"))
    return player


def match_unreadable(
    request: HttpRequest, match: Match, error: Refused, notice: str = "", status: int = 200
) -> HttpResponse:
    """Say that a match cannot be shown, naming the stored event that is corrupt or missing."""
    names = {player: entry.get("name", player) for player, entry in match.players.items()}
    context = {
        "match": match,
        "names": names,
        "title": _("%(a)s v %(b)s") % {"a": names.get("A"), "b": names.get("B")},
        "notice": notice or _("This match cannot be shown: a stored event cannot be read."),
        "problem": str(error),
    }
    return render(request, "replay/match_unreadable.html", context, status=status)


def at_of(request: HttpRequest) -> int | None:
    """Return the version a page is asked as of (`?at=V`), None for now or for no number."""
    written = request.GET.get("at", "")
    if written.isascii() and written.isdigit() and len(written) < 19:
        return int(written)
    return None


def stage_places(
    matches: Iterable[tuple[str, str | None, str, str, str]],
    terms: dict[str, dict[str, Terms]] | None = None,
) -> dict[str, str]:
    """Return each stage match's place in its stage in the page's language, by match id,
    from (id, competition, stage id, group, slot): one reading of each competition's
    stages, however many of its matches a list shows. A match outside stages is left out.

    `terms`: each competition's stages' words read so far, by competition id, kept and
    added to, so that a list read in batches reads each competition once."""
    staged = [entry for entry in matches if entry[2] and entry[1]]
    terms = {} if terms is None else terms
    unread = {entry[1] for entry in staged if entry[1] not in terms}
    competitions = Competition.objects.in_bulk(unread) if unread else {}
    terms.update((key, terms_of_shapes(stage_shapes(found))) for key, found in competitions.items())
    return {
        match_id: match_place(terms[competition].get(stage_id), group, slot)
        for match_id, competition, stage_id, group, slot in staged
        if competition in terms
    }


def stage_label(match: Match) -> str:
    """Return a match's place in its competition's stages in the page's language ("Group
    stage · group B", "Knockout · Final"), else its free-text stage ("Round 3")."""
    if not match.stage_id:
        return match.stage
    terms = terms_of_shapes(stage_shapes(match.competition))
    return match_place(terms.get(match.stage_id), match.group, match.slot) or match.stage
