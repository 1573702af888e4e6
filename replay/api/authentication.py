"""`Authorization: Token <key>`: the user of a token that is not revoked; failures throttled."""

from __future__ import annotations

from typing import Any

from rest_framework import authentication, exceptions, status
from rest_framework.request import Request

from carambole import throttle
from replay.api.tokens import token_user


class TooManyTokenFailures(exceptions.APIException):
    """An address past its limit of failed tokens: 429, with Retry-After (DRF sets it)."""

    status_code = status.HTTP_429_TOO_MANY_REQUESTS
    default_code = "throttled"

    def __init__(self, wait: int) -> None:
        super().__init__(f"too many invalid tokens from this address: try again in {wait} s")
        self.wait = wait


class TokenAuthentication(authentication.TokenAuthentication):
    """DRF's header parsing, carambole's tokens: looked up by the hash of the key.

    A failed token (unknown, revoked, malformed) counts against its address; past the
    limit the answer is 429 instead of 401. A valid token is never refused for its
    address: one tablet with a revoked token must not stop a hall's others recording.
    """

    keyword = "Token"

    def authenticate(self, request: Request) -> tuple[Any, Any] | None:
        try:
            return super().authenticate(request)
        except exceptions.AuthenticationFailed:
            try:
                throttle.attempt_or_pass((throttle.TOKEN_ADDRESS, throttle.address_of(request)))
            except throttle.TooManyAttempts as refused:
                raise TooManyTokenFailures(refused.retry_after) from None
            raise

    def authenticate_credentials(self, key: str) -> tuple[Any, Any]:
        found = token_user(key)
        if found is None:
            raise exceptions.AuthenticationFailed("invalid or revoked token")
        user, token = found
        if not user.is_active:
            raise exceptions.AuthenticationFailed("the token's user is inactive")
        return user, token
