"""The hall's topic (`/ws/competitions/{id}/hall/`): the hall, whole or the cards that changed.

A viewer is sent `{"type": "hall", ...}` when it joins (the hall as `GET
/api/competitions/{id}/tables` reads it) and whenever the tables or the matches waiting
for one change; when only some cards change (an event of a table's match, a match
called, a console heard), `{"type": "table", "now": ..., "version": v, "card": {...}}`
for each, its card's `version` new. The hall's `version` is the global id of the last
event of the competition's log and its matches' (0 before any): it never goes back. A
viewer that reconnects is sent the whole hall whatever `?version=` it gives: the hall
also shows what no event records (the consoles heard, the server's clock).

One read per change per server process, however many watch (`hub.SnapshotFeed`): a
commit of one of its matches, a change of its tables and a console heard tell the hub;
its clock reads the hall every `LIVE_HEAD_SECONDS` too.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from replay.live.hub import Part, Snapshot
from replay.queries.hall import hall_get


def hall_message(hall: dict[str, Any]) -> str:
    return json.dumps({"type": "hall", **hall}, ensure_ascii=False)


def table_message(hall: dict[str, Any], card: dict[str, Any]) -> str:
    return json.dumps(
        {"type": "table", "now": hall["now"], "version": hall["version"], "card": card},
        ensure_ascii=False,
    )


@dataclass(frozen=True)
class Encoded:
    """One read of a hall, encoded: its outline (the tables and the matches waiting, which
    a change of sends the whole hall), the whole hall, each card by table."""

    outline: str
    whole: str
    cards: dict[str, tuple[str, str]]  # table -> (its version, its message)


def encoded(hall: dict[str, Any]) -> Encoded:
    cards = {card["table"]: (card["version"], table_message(hall, card)) for card in hall["tables"]}
    outline = json.dumps(
        [[card["table"] for card in hall["tables"]], hall["waiting"]], ensure_ascii=False
    )
    return Encoded(outline, hall_message(hall), cards)


class HallSnapshots:
    """A competition's hall, read again at each change (in the hub's thread)."""

    def __init__(self, competition_id: str) -> None:
        self.competition_id = competition_id
        self.last: Encoded | None = None

    def read(self) -> Snapshot:
        """Read the hall: whole to a viewer that joins, and as what changed since the last
        read (nothing when no card did: its clock alone moved)."""
        now = encoded(hall_get(self.competition_id))
        before, self.last = self.last, now
        if before is None or before.outline != now.outline:
            changed: tuple[str, ...] = (now.whole,)
        else:
            changed = tuple(
                message
                for table, (version, message) in now.cards.items()
                if before.cards[table][0] != version
            )
        return Snapshot((Part(now.whole),), changed)
