"""Ids for new competitions and matches when the caller names none: each a slug, each new."""

from __future__ import annotations

import uuid

from django.utils.text import slugify

from matches.models import Match

# A match id is a slug of at most 100 characters: room for a "-N" after a wanted id.
WANTED_LENGTH = 90


def competition_id_new(name: str | None) -> str:
    """Return an id for a new competition: its name as a slug, and six random hex digits."""
    return f"{slugify(name or '')[:80] or 'competition'}-{uuid.uuid4().hex[:6]}"


def match_id_new(competition: str) -> str:
    """Return an id for a new match of a competition: its id and eight random hex digits."""
    return f"{competition}-{uuid.uuid4().hex[:8]}"


def match_id_free(wanted: str) -> str:
    """Return a match id from `wanted` that no match has yet (`wanted-2`, `-3`, ... if taken)."""
    base = wanted[:WANTED_LENGTH]
    candidate, number = base, 1
    while Match.objects.filter(pk=candidate).exists():
        number += 1
        candidate = f"{base}-{number}"
    return candidate
