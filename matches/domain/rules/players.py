"""The two players of a match, "A" and "B" (section 2: they play strictly in turn)."""

from __future__ import annotations

PLAYERS = ("A", "B")


def other(player: str) -> str:
    """Return the other player."""
    return "B" if player == "A" else "A"
