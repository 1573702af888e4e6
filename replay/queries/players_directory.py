"""The players' directory: every player by name, searched by a name or a federation id, paged."""

from __future__ import annotations

from typing import Any

from django import forms
from django.db.models import Count, IntegerField, OuterRef, Q, Subquery
from django.db.models.functions import Coalesce, Lower
from django.utils.translation import gettext_lazy as _

from matches.models import NAME_LENGTH, Player
from replay.models import MatchSummary
from replay.queries.player_keys import player_key

PER_PAGE = 50


class PlayerSearch(forms.Form):
    """What the directory is searched by; both fields are optional."""

    q = forms.CharField(
        label=_("Player"),
        required=False,
        max_length=NAME_LENGTH,
        help_text=_("a name, part of one, or a federation id"),
    )
    page = forms.IntegerField(required=False, min_value=1, max_value=100_000)

    def wanted(self) -> tuple[str, int]:
        """Return the text searched and the page asked for; a field in error is left out."""
        if not self.is_bound:
            return "", 1
        self.is_valid()
        return (self.cleaned_data.get("q") or "").strip(), self.cleaned_data.get("page") or 1


def directory(text: str = "", page: int = 1) -> tuple[list[dict[str, Any]], bool]:
    """Return a page of players by name (those whose name or federation id holds `text`),
    each with the finished matches they played; and whether another page follows."""
    rows = Player.objects.all()
    if text:
        rows = rows.filter(Q(name__icontains=text) | Q(federation_id__icontains=text))
    start = (page - 1) * PER_PAGE
    found = list(
        rows.annotate(finished=_finished())
        .order_by(Lower("name"), "name", "pk")
        .values("pk", "name", "federation_id", "finished")[start : start + PER_PAGE + 1]
    )
    return [
        {
            "name": row["name"],
            "federation_id": row["federation_id"] or "",
            "key": player_key(row["federation_id"], row["pk"]),
            "finished": row["finished"],
        }
        for row in found[:PER_PAGE]
    ], len(found) > PER_PAGE


def _finished() -> Coalesce:
    """Count a player's finished matches, from either side of the table, in the one query."""
    finished = (
        MatchSummary.objects.filter(status="finished")
        .filter(Q(player_a=OuterRef("pk")) | Q(player_b=OuterRef("pk")))
        .order_by()
        .values("status")
        .annotate(count=Count("pk"))
        .values("count")
    )
    return Coalesce(Subquery(finished, output_field=IntegerField()), 0)
