"""An amended ruling beside the original: the same labelled lines for both, to compare."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from matches.rules import other
from replay.sentences import carom_in_words, foul_name

PIN_NAMES = {
    "center": gettext_lazy("red (centre)"),
    "top": gettext_lazy("top"),
    "bottom": gettext_lazy("bottom"),
    "left": gettext_lazy("left"),
    "right": gettext_lazy("right"),
}
STATUS_NAMES = {
    "scheduled": gettext_lazy("scheduled"),
    "lag": gettext_lazy("lag"),
    "playing": gettext_lazy("playing"),
    "finished": gettext_lazy("finished"),
    "review": gettext_lazy("under review"),
    "unreadable": gettext_lazy("unreadable"),
}


def receiver(ruling: Mapping[str, Any], player: str) -> str | None:
    """Return the player who receives a shot's points (None when it scores nothing)."""
    if not ruling.get("points") or ruling.get("scorer") is None:
        return None
    return player if ruling["scorer"] == "shooter" else other(player)


def ruling_rows(
    ruling: Mapping[str, Any], player: str, names: Mapping[str, str]
) -> list[tuple[str, str]]:
    """Return a ruling as labelled lines, the same labels for every ruling."""
    to = receiver(ruling, player)
    points = (
        _("%(points)s to %(name)s") % {"points": ruling["points"], "name": names.get(to, to)}
        if to
        else _("none")
    )
    pins = ", ".join(str(PIN_NAMES.get(pin, pin)) for pin in ruling.get("pins") or [])
    fouls = ", ".join(foul_name(code) for code in ruling.get("fouls") or [])
    return [
        (_("Points"), points),
        (_("Carom"), carom_in_words(ruling.get("carom")) or "—"),
        (_("Pins"), pins or "—"),
        (_("Fouls"), fouls or _("none")),
        (_("Ball in hand"), _("yes") if ruling.get("ball_in_hand") else _("no")),
    ]


def rows_side_by_side(
    original: Mapping[str, Any], amended: Mapping[str, Any], player: str, names: Mapping[str, str]
) -> list[dict[str, Any]]:
    """Return each line of two rulings side by side, marking those that differ."""
    return [
        {"label": label, "original": before, "amended": after, "differs": before != after}
        for (label, before), (_label, after) in zip(
            ruling_rows(original, player, names), ruling_rows(amended, player, names), strict=True
        )
    ]
