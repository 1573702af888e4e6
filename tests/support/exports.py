"""For the exports' tests: a database emptied as on another carambole, and names a
spreadsheet would run as formulas."""

from __future__ import annotations

from django.contrib.auth import get_user_model

from matches.immutability import triggers_lifted
from matches.models import Competition, Event, Match, Player


def empty_the_database() -> None:
    """Remove every match, as on another carambole (test-only: the triggers are lifted)."""
    with triggers_lifted():
        Event.objects.all().delete()
        Match.objects.all().delete()
        Player.objects.all().delete()
        Competition.objects.all().delete()
        get_user_model().objects.all().delete()


# Names a spreadsheet would run as formulas, each with a federation id that would be too.
FORMULAS = [
    {"name": '=HYPERLINK("http://example.com","win")', "federation_id": "+380-1"},
    {"name": "-1+2", "federation_id": "@SUM(A1:A9)"},
    {"name": "\tTab", "federation_id": "-CR"},  # an id holds no tab or CR (the rule)
]
