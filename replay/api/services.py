"""What one API call does with more than one service: each whole or not at all."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils.text import slugify

from matches import services
from matches.errors import Refused
from matches.models import Competition, Match


def competition_open(
    *, id: str | None = None, name: str | None = None, ruleset: Mapping[str, Any] | None = None
) -> Competition:
    """Create a competition; without an id, one is made from its name."""
    if id is None:
        id = f"{slugify(name or '')[:80] or 'competition'}-{uuid.uuid4().hex[:6]}"
    return services.competition_create(id=id, name=name, ruleset=ruleset)


def match_open(*, referee: str | None = None, by: str, **fields: Any) -> Match:
    """Create a match and assign the login that may record it, or store nothing."""
    with transaction.atomic():
        match = services.match_create(**fields)
        if referee is not None:
            try:
                services.referee_assign(match_id=match.id, username=referee, by=by)
            except Refused as error:
                # The body names the login `referee`; the service calls it `username`.
                field = "referee" if error.field == "username" else error.field
                raise Refused(error.message, field) from None
    return match
