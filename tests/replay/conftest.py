"""Logins, tokens and a match with its assigned referee, for the API tests."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from rest_framework.test import APIClient

from matches import services
from replay.api.tokens import token_issue
from tests.store.plays import new_match

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


@pytest.fixture
def staff(db) -> Login:
    return login("federation", staff=True)


@pytest.fixture
def referee(db) -> Login:
    return login(REFEREE)


@pytest.fixture
def stranger(db) -> Login:
    """A login assigned to no match."""
    return login("spectator")


@pytest.fixture
def match(referee):
    """The match of the schema's examples (A white, B yellow), that `referee` may record."""
    created = new_match("cup-2026-a-3", "cup-2026")
    services.referee_assign(match_id=created.id, username=REFEREE, by="federation")
    return created
