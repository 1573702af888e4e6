"""The standings' topic (`/ws/competitions/{id}/`): each new version of a competition's
standings and, in stages, of its stages and ranking.

Every message is `{"type": "standings", "version": v, "standings": {...}}`; a competition
in stages also has `{"type": "stages", "version": v, "stages": [...], "ranking": {...},
"error": null}` (the shapes of `GET …/stages` and `…/ranking`; `error` theirs: why the
stages stop at `v`). A viewer is sent each on joining unless the `?version=` it gives
is as new, then each whose version grows. A version is the global id of the last event
it counts: it never goes back.

One read per new version per server process, however many watch (`hub.SnapshotFeed`):
the projector's `standings_committed` tells the hub; its clock reads them every
`LIVE_HEAD_SECONDS` too.
"""

from __future__ import annotations

import json
from typing import Any

from replay.live.hub import Part, Snapshot
from replay.queries.championships import stages_and_ranking
from replay.queries.standings_reader import standings_get


def standings_message(standings: dict[str, Any]) -> str:
    return json.dumps(
        {"type": "standings", "version": standings["version"], "standings": standings},
        ensure_ascii=False,
    )


def stages_message(stages: dict[str, Any], ranking: dict[str, Any]) -> str:
    return json.dumps(
        {
            "type": "stages",
            "version": stages["version"],
            "stages": stages["stages"],
            "ranking": ranking,
            "error": stages.get("error"),
        },
        ensure_ascii=False,
    )


class StandingsSnapshots:
    """A competition's standings (and stages), read at each new version (in the hub's thread)."""

    def __init__(self, competition_id: str) -> None:
        self.competition_id = competition_id
        self.parts: dict[str, Part] = {}  # by message type: the newest of each read

    def read(self) -> Snapshot | None:
        """Read the latest versions; return them if one grew since the last read."""
        standings = standings_get(self.competition_id)
        latest = {"standings": Part(standings_message(standings), standings["version"])}
        staged = stages_and_ranking(self.competition_id)
        if staged is not None:
            stages, ranking = staged
            latest["stages"] = Part(stages_message(stages, ranking), stages["version"])
        grown = {kind: part for kind, part in latest.items() if self._newer(kind, part)}
        if self.parts and not grown:
            return None
        self.parts.update(grown)
        return Snapshot(tuple(self.parts.values()), tuple(part.text for part in grown.values()))

    def _newer(self, kind: str, part: Part) -> bool:
        before = self.parts.get(kind)
        return before is None or (part.version or 0) > (before.version or 0)
