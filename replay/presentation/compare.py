"""An amended ruling beside the original: the same labelled lines for both, to compare."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from matches.domain.rules import receiver
from replay.presentation.drawing import ball_name
from replay.presentation.sentences import carom_in_words, foul_name

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
    "void": pgettext_lazy("a match's status", "void"),
}


def ruling_rows(
    ruling: Mapping[str, Any], player: str, names: Mapping[str, str]
) -> list[tuple[str, str]]:
    """Return a ruling as labelled lines, the same labels for every ruling."""
    to = receiver(player, ruling.get("scorer"), ruling.get("points"))
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


def contacts_in_words(facts: Mapping[str, Any]) -> str:
    """Return a shot's contacts in order: "white–yellow, white–red, red–pins (top)"."""
    words = []
    for contact in facts.get("contacts") or []:
        ball, hit = ball_name(contact.get("ball", "")), contact.get("hit")
        if hit == "cushion":
            said = f"{ball}–{_('cushion')}"
        elif hit == "pins":
            pins = ", ".join(str(PIN_NAMES.get(pin, pin)) for pin in contact.get("pins") or [])
            said = f"{ball}–{_('pins')} [{pins}]"
        elif hit == "off":
            said = f"{ball} {_('off the table')}"
        else:
            said = f"{ball}–{ball_name(str(hit))}"
        if contact.get("same_time"):
            said = _("%s at the same time") % (said,)
        words.append(said)
    return ", ".join(words) or _("none")


def rest_in_words(facts: Mapping[str, Any]) -> str:
    """Return where a shot's facts say the balls came to rest, in mm, or "—"."""
    rest = facts.get("rest") or {}
    return (
        " · ".join(
            f"{ball_name(ball)} ({rest[ball][0]:.0f}, {rest[ball][1]:.0f})"
            for ball in ("white", "yellow", "red")
            if rest.get(ball)
        )
        or "—"
    )


def facts_rows(facts: Mapping[str, Any]) -> list[tuple[str, str]]:
    """Return what a referee recorded of a shot as labelled lines: its contacts and rests."""
    return [(_("Contacts"), contacts_in_words(facts)), (_("Came to rest"), rest_in_words(facts))]


def rows_side_by_side(
    original: Mapping[str, Any],
    amended: Mapping[str, Any],
    player: str,
    names: Mapping[str, str],
    facts: tuple[Mapping[str, Any], Mapping[str, Any]] | None = None,
) -> list[dict[str, Any]]:
    """Return each line of two rulings side by side, marking those that differ.

    With the facts as recorded and as amended, their lines follow: an amendment that
    leaves the ruling as it was still shows what it changed.
    """
    before_rows = ruling_rows(original, player, names)
    after_rows = ruling_rows(amended, player, names)
    if facts is not None:
        before_rows += facts_rows(facts[0])
        after_rows += facts_rows(facts[1])
    return [
        {"label": label, "original": before, "amended": after, "differs": before != after}
        for (label, before), (_label, after) in zip(before_rows, after_rows, strict=True)
    ]
