"""API tokens: issued to a user, looked up by the hash of the key, revoked by staff.

A key carries 256 random bits, so one SHA-256 of it is as good as a slow password
hash and lets a request find its token with one indexed lookup.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from matches import services
from matches.domain.errors import NotFound, excerpt
from replay.models import PREFIX_LENGTH, ApiToken

# What `secrets.token_urlsafe` writes: anything else names no token.
KEY_CHARACTERS = re.compile(r"^[A-Za-z0-9_-]+\Z")


def digest_of(key: str) -> str:
    """Return what is stored of a key: its SHA-256, hex."""
    return hashlib.sha256(key.encode()).hexdigest()


@dataclass(frozen=True)
class Issued:
    """A new token and its key, which is shown once and never stored."""

    token: ApiToken
    key: str


def token_issue(username: str, *, staff: bool = False) -> Issued:
    """Give a login one more token, creating the login if needed (staff if asked).

    The login's other tokens stay valid. All or nothing: a username Django would not
    accept is refused, naming `username`, and stores no login.
    """
    with transaction.atomic():
        user = services.login_ensure(username, staff=staff)
        for _ in range(5):
            key = _new_key()
            try:
                with transaction.atomic():
                    token = ApiToken.objects.create(
                        user=user, prefix=key[:PREFIX_LENGTH], digest=digest_of(key)
                    )
            except IntegrityError:  # the same prefix drawn twice: draw again
                continue
            return Issued(token, key)
        raise RuntimeError("could not draw a token prefix not in use")


def _new_key() -> str:
    """Return 256 random bits as URL-safe text that never starts with "-".

    A key is often passed on a command line (`revoke_token KEY`, `curl -H`), where a
    leading dash would read as an option.
    """
    while True:
        key = secrets.token_urlsafe(32)
        if not key.startswith("-"):
            return key


def token_user(key: str) -> tuple[Any, ApiToken] | None:
    """Return the user and token a key stands for, or None if none or revoked."""
    try:
        # Every request with a token asks this: one indexed row, no ordering to compile.
        token = ApiToken.objects.select_related("user").get(
            digest=digest_of(key), revoked_at__isnull=True
        )
    except ApiToken.DoesNotExist:
        return None
    return token.user, token


def token_revoke(prefix: str, *, by: str) -> ApiToken:
    """Revoke the token a prefix (or a whole key) names; revoking it again changes nothing."""
    if not isinstance(prefix, str) or not KEY_CHARACTERS.match(prefix):
        raise NotFound(f"no token {excerpt(prefix)}", "prefix")
    prefix = prefix[:PREFIX_LENGTH]
    token = ApiToken.objects.select_related("user").filter(prefix=prefix).first()
    if token is None:
        raise NotFound(f"no token {excerpt(prefix)}", "prefix")
    if token.revoked_at is None:
        token.revoked_at = timezone.now()
        token.revoked_by = by
        token.save(update_fields=["revoked_at", "revoked_by"])
    return token


def tokens_of(username: str | None = None) -> list[ApiToken]:
    """Return the tokens not revoked, of one user or of everyone."""
    tokens = ApiToken.objects.select_related("user").filter(revoked_at__isnull=True)
    if username is not None and "\x00" in username:
        return []  # no username holds one, and PostgreSQL cannot even be asked
    if username is not None:
        tokens = tokens.filter(user__username=username)
    return list(tokens)
