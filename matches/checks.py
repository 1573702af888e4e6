"""System checks of the write side: `manage.py check`, and every server start, run them."""

from __future__ import annotations

from typing import Any

from django.core.checks import Error, register
from django.db import DatabaseError, connections


@register()
def immutability_triggers(app_configs: Any = None, databases: Any = None, **kwargs: Any) -> list:
    """Fail when the database would let a stored event be changed or removed."""
    from matches.immutability import missing_triggers

    errors = []
    for alias in connections:
        connection = connections[alias]
        try:
            missing = missing_triggers(connection)
        except DatabaseError:
            continue  # no database to ask (not created yet): nothing stored to protect
        if missing:
            errors.append(
                Error(
                    "the events table lacks its immutability triggers: "
                    + ", ".join(sorted(missing)),
                    hint="run `python manage.py migrate`: until then a stored event can be changed",
                    id="matches.E001",
                )
            )
    return errors
