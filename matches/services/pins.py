"""A player's PIN, to sign a result off on the referee's console: checked, never stored.

A PIN is six digits worked out from the player's key (federation id, else name) and the
server's secret key (an HMAC): nothing to store, the same on every server process, and
no one can work it out without the secret. Staff read a player's PIN with
`python manage.py player_pin KEY` or on the player's page (`pin_show`: each showing is
kept, with who saw it and when) and give it to the player in person; changing
SECRET_KEY changes every PIN.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping
from typing import Any

from django.conf import settings

from matches.championship import player_key
from matches.errors import Refused
from matches.models import USERNAME_LENGTH, PinShown, Player
from matches.services.competitions import check_text

DIGITS = 6


def player_pin(player: Mapping[str, Any]) -> str:
    """Return the PIN of a player as a record names them."""
    digest = hmac.new(
        settings.SECRET_KEY.encode(),
        f"carambole player pin\n{player_key(player)}".encode(),
        hashlib.sha256,
    ).digest()
    return f"{int.from_bytes(digest[:8], 'big') % 10**DIGITS:0{DIGITS}d}"


def pin_show(*, player: Player, by: str) -> str:
    """Return a player's PIN to show to `by`, keeping that it was shown, to whom and when."""
    check_text(by, "by", USERNAME_LENGTH, required=True)
    PinShown.objects.create(player=player, shown_to=by)
    return player_pin(player.as_record())


def pin_matches(player: Mapping[str, Any], pin: Any) -> bool:
    """Return whether `pin` is the player's, compared in constant time."""
    # As bytes: compare_digest refuses text that is not ASCII, and a PIN typed is any text.
    given = pin.strip().encode("utf-8", "surrogatepass") if isinstance(pin, str) else None
    return given is not None and hmac.compare_digest(given, player_pin(player).encode())


class WrongPin(Refused):
    """A PIN that is not the player's: 403, and counted by the throttle (as a failed login)."""

    status = 403
