"""The archive's search: the filters a visitor sets, checked, and the summaries they select.

Built on the archive summary read model (one row per match, kept by the projector),
so a page of results is a fixed number of queries however many matches are stored.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from typing import Any

from django import forms
from django.db.models import F, Q, QuerySet
from django.utils.translation import gettext_lazy as _

from matches.domain.notation import NOT_IN_AN_ID
from matches.models import Competition, Player
from replay.models import MatchSummary
from replay.queries.player_keys import KEY_LENGTH, federation_id_of, player_for_key

PER_PAGE = 50
# The most rows a CSV of a search holds: an archive export, not a database dump.
CSV_LIMIT = 100_000
RESULTS = (
    ("", _("any")),
    ("finished", _("finished")),
    ("playing", _("being played")),
    ("review", _("under review")),
    ("scheduled", _("not started")),
    ("decided", _("decided")),
)


class ArchiveFilter(forms.Form):
    """What the archive is searched by; every field is optional."""

    competition = forms.ChoiceField(label=_("Competition"), required=False)
    player = forms.CharField(
        label=_("Player"),
        required=False,
        max_length=KEY_LENGTH,  # a player page's key, as its link to the archive gives it
        help_text=_("a name, part of one, or a federation id"),
    )
    date_from = forms.DateField(
        label=_("From"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    date_to = forms.DateField(
        label=_("To"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    result = forms.ChoiceField(label=_("Result"), required=False, choices=RESULTS)
    page = forms.IntegerField(required=False, min_value=1, max_value=100_000)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        competitions = Competition.objects.order_by("-created_at", "id").values_list("id", "name")
        field = self.fields["competition"]
        assert isinstance(field, forms.ChoiceField)  # declared above: `fields` holds any field
        field.choices = [("", _("all")), *competitions]

    def clean(self) -> dict[str, Any]:
        super().clean()  # Form's: checks nothing more and returns `cleaned_data`
        cleaned = self.cleaned_data
        start, end = cleaned.get("date_from"), cleaned.get("date_to")
        if start and end and start > end:
            self.add_error("date_to", _("must be on or after the first date"))
        return cleaned


@dataclass(frozen=True)
class Search:
    """The filters as checked: what selects the rows, and which page of them."""

    competition: str = ""
    player: str = ""
    date_from: date | None = None
    date_to: date | None = None
    result: str = ""
    page: int = 1

    @classmethod
    def of(cls, form: ArchiveFilter) -> Search:
        """Return the search a bound form asks for; a field in error is left out."""
        if not form.is_bound:
            return cls()
        form.is_valid()
        data = {name: value for name, value in form.cleaned_data.items() if value}
        return cls(**data)


def summaries(search: Search) -> QuerySet[MatchSummary]:
    """Return the summaries a search selects, newest first (indexed by date)."""
    rows = MatchSummary.objects.all()
    if search.competition:
        rows = rows.filter(competition_id=search.competition)
    if search.player:
        rows = rows.filter(_player_filter(search.player))
    if search.date_from:
        rows = rows.filter(date__gte=search.date_from)
    if search.date_to:
        rows = rows.filter(date__lte=search.date_to)
    if search.result == "decided":
        rows = rows.exclude(winner="")
    elif search.result:
        rows = rows.filter(status=search.result)
    return rows.order_by(F("date").desc(nulls_first=True), "-match_id")


def _player_filter(text: str) -> Q:
    """Select a player's matches: the one a page's key or a federation id names, else by name."""
    text = text.strip()
    player = player_for_key(text)
    if player is None and federation_id_of(text) != text:  # else asked already
        player = _by_federation_id(text)
    if player is not None:
        return Q(player_a=player) | Q(player_b=player)
    return Q(player_a_name__icontains=text) | Q(player_b_name__icontains=text)


def _by_federation_id(text: str) -> Player | None:
    """Return the player whose federation id is the text as typed (`UA/7`), or None."""
    if re.search(f"[{NOT_IN_AN_ID}]", text):
        return None  # typed in a search box: no id the rule allows holds one, nor a NUL
    return Player.objects.filter(federation_id=text).first()


# What a page of the archive shows of each summary, read as values: a page is 51 rows of
# four tables, and making a model of each (a summary, its competition, both players) cost
# five times the query itself.
PAGE_FIELDS = (
    "match_id",
    "competition_id",
    "competition__name",
    "stage",
    "match__stage_id",
    "match__group",
    "match__slot",
    "date",
    "player_a_id",
    "player_a_name",
    "player_a__federation_id",
    "player_b_id",
    "player_b_name",
    "player_b__federation_id",
    "games_won_a",
    "games_won_b",
    "points_a",
    "points_b",
    "winner",
    "status",
    "needs_review",
    "amendments",
)


def page_of(search: Search, per_page: int = PER_PAGE) -> tuple[list[dict[str, Any]], bool]:
    """Return one page of a search's rows (PAGE_FIELDS of each summary) and whether another
    follows (no COUNT over all)."""
    start = (search.page - 1) * per_page
    found = list(summaries(search).values(*PAGE_FIELDS)[start : start + per_page + 1])
    return found[:per_page], len(found) > per_page
