"""When a match's console last said it was there: the hall's quiet tables are read from it."""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone

from replay.models import ConsoleActivity


def activity_note(match_id: str, at: datetime | None = None) -> datetime:
    """Keep the moment a console of the match was last heard (now by default); return it."""
    moment = at or timezone.now()
    ConsoleActivity.objects.update_or_create(match_id=match_id, defaults={"at": moment})
    return moment
