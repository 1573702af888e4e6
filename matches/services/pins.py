"""A player's PIN, to sign a result off on the referee's console: issued by staff, shown once.

Staff issue a player a new PIN with `python manage.py player_pin KEY` or "Issue a new
PIN" on the player's page (`pin_issue`) and give it to the player in person: six digits
at random, shown that once and stored nowhere but as a digest keyed by the server's
secret key, so a copy of the database tells no one a PIN. The newest issued is the
player's PIN; the ones before are refused from then on. Each issue is kept, with who was
shown it and when.

A player never issued one keeps the PIN PINs were before: worked out from the player's
key (federation id, else name) and the secret key by an HMAC. Changing SECRET_KEY
changes every PIN, issued or not.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Mapping
from typing import Any

from django.conf import settings

from matches.domain.competition_log import player_key
from matches.domain.errors import Refused
from matches.models import USERNAME_LENGTH, PinShown, Player
from matches.services.competitions import check_text

DIGITS = 6


def player_pin(player: Mapping[str, Any]) -> str:
    """Return the PIN worked out for a player as a record names them (none issued yet)."""
    digest = hmac.new(
        settings.SECRET_KEY.encode(),
        f"carambole player pin\n{player_key(player)}".encode(),
        hashlib.sha256,
    ).digest()
    return f"{int.from_bytes(digest[:8], 'big') % 10**DIGITS:0{DIGITS}d}"


def pin_issue(*, player: Player, by: str) -> str:
    """Make a player a new PIN at random, refusing their old one; return it to show `by` once."""
    check_text(by, "by", USERNAME_LENGTH, required=True)
    pin = f"{secrets.randbelow(10**DIGITS):0{DIGITS}d}"
    PinShown.objects.create(player=player, shown_to=by, digest=_digest(player.pk, pin))
    return pin


def pin_matches(player: Mapping[str, Any], pin: Any) -> bool:
    """Return whether `pin` is the player's, compared in constant time."""
    # As bytes: compare_digest refuses text that is not ASCII, and a PIN typed is any text.
    given = pin.strip() if isinstance(pin, str) else None
    if given is None:
        return False
    issued = _newest_issued(player)
    if issued is None:
        expected, typed = player_pin(player).encode(), given.encode("utf-8", "surrogatepass")
    else:
        player_id, digest = issued
        expected, typed = digest.encode(), _digest(player_id, given).encode()
    return hmac.compare_digest(typed, expected)


def _newest_issued(player: Mapping[str, Any]) -> tuple[int, str] | None:
    """Return the player's id and the digest of their newest issued PIN, None if none is."""
    federation_id = player.get("federation_id")
    if federation_id:
        rows = PinShown.objects.filter(player__federation_id=federation_id)
    else:
        rows = PinShown.objects.filter(
            player__federation_id__isnull=True, player__name=player["name"]
        )
    newest = rows.filter(digest__isnull=False).order_by("-id").first()
    return None if newest is None else (newest.player_id, str(newest.digest))


def _digest(player_id: int, pin: str) -> str:
    """Return an issued PIN's digest: keyed by the secret key, and by the player."""
    message = f"carambole issued pin\n{player_id}\n{pin}".encode("utf-8", "surrogatepass")
    return hmac.new(settings.SECRET_KEY.encode(), message, hashlib.sha256).hexdigest()


class WrongPin(Refused):
    """A PIN that is not the player's: 403, and counted by the throttle (as a failed login)."""

    status = 403
