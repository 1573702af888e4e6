"""System checks of the write side: `manage.py check`, and every server start, run them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.apps import AppConfig
from django.core.checks import CheckMessage, Error, register
from django.db import DatabaseError, connections

# What puts the triggers back; without --skip-checks this very check would stop it.
REPAIR = "python manage.py migrate --skip-checks"


@register()
def immutability_triggers(
    app_configs: Sequence[AppConfig] | None = None,
    databases: Sequence[str] | None = None,
    **kwargs: Any,
) -> list[CheckMessage]:
    """Fail when the database would let a stored event be changed or removed."""
    from matches.immutability import faults_in_words, trigger_faults

    errors: list[CheckMessage] = []
    for alias in connections:
        connection = connections[alias]
        try:
            faults = trigger_faults(connection)
        except DatabaseError:
            continue  # no database to ask (not created yet): nothing stored to protect
        if faults:
            errors.append(
                Error(
                    faults_in_words(faults),
                    hint=f"run `{REPAIR}`, which puts them back in force: until then a "
                    "stored event can be changed",
                    id="matches.E001",
                )
            )
    return errors
