"""Logins with an API token each, and a client that sends one: the API tests' callers."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rest_framework.test import APIClient

from replay.api.tokens import token_issue

REFEREE = "petrenko"


@dataclass(frozen=True)
class Login:
    """A user and one API token of theirs."""

    user: Any
    key: str

    @property
    def username(self) -> str:
        return self.user.get_username()


def login(username: str, staff: bool = False) -> Login:
    issued = token_issue(username, staff=staff)
    return Login(issued.token.user, issued.key)


def api(key: str | None = None, **kwargs: Any) -> APIClient:
    """Return a client that sends `Authorization: Token <key>` (none without a key)."""
    client = APIClient(**kwargs)
    if key is not None:
        client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client
