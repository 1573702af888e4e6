"""`Authorization: Token <key>`: the user of a token that is not revoked."""

from __future__ import annotations

from typing import Any

from rest_framework import authentication, exceptions

from replay.tokens import token_user


class TokenAuthentication(authentication.TokenAuthentication):
    """DRF's header parsing, carambole's tokens: looked up by the hash of the key."""

    keyword = "Token"

    def authenticate_credentials(self, key: str) -> tuple[Any, Any]:
        found = token_user(key)
        if found is None:
            raise exceptions.AuthenticationFailed("invalid or revoked token")
        user, token = found
        if not user.is_active:
            raise exceptions.AuthenticationFailed("the token's user is inactive")
        return user, token
