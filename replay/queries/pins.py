"""Who has been shown a player's PIN, and when: the page that shows it lists them."""

from __future__ import annotations

from matches.models import PinShown, Player


def pin_showings(player: Player, limit: int) -> list[PinShown]:
    """Return the latest showings of a player's PIN, the newest first."""
    return list(PinShown.objects.filter(player=player).order_by("-shown_at", "-id")[:limit])
