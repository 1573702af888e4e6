"""Tables of the read side: the API tokens programs authenticate with."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from matches.models import USERNAME_LENGTH

PREFIX_LENGTH = 8


class ApiToken(models.Model):
    """A key a program sends as `Authorization: Token <key>`; only its SHA-256 is kept.

    A user may hold several (a tablet and a hall scoreboard, one each). Revoking one
    keeps its row, with who revoked it and when; the key itself is never stored.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    # The key's first characters: they name a token in lists and revocations, and prove nothing.
    prefix = models.CharField(max_length=PREFIX_LENGTH, unique=True)
    digest = models.CharField(max_length=64, unique=True, help_text="SHA-256 of the key, hex")
    created_at = models.DateTimeField(default=timezone.now)
    revoked_at = models.DateTimeField(null=True, blank=True)
    revoked_by = models.CharField(max_length=USERNAME_LENGTH, blank=True)

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        state = "revoked" if self.revoked_at else "valid"
        return f"{self.prefix}… of {self.user} ({state})"

    @property
    def revoked(self) -> bool:
        return self.revoked_at is not None
