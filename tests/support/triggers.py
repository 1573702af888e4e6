"""The events table's row trigger on each database, the one a test takes out of force."""

from __future__ import annotations

from matches.immutability import EVENTS_TABLE

# The triggers of each database, and the one a test takes out of force.
ROW_TRIGGER = {"sqlite": f"{EVENTS_TABLE}_no_update", "postgresql": f"{EVENTS_TABLE}_immutable"}
