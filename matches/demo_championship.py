"""The demo's championship in stages: two groups of four, then a knockout of four.

Loaded by `load_demo` whenever it is missing: the groups played to the end, the
knockout drawn, one semi-final finished and the other under way; and beside it an
undrawn copy with the same players and stages, for a director to try the draw.
The matches are simulated (`matches.domain.simulator`) and stored through the one write
path, as an imported record extends a stored match.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from matches import services
from matches.domain.simulator import DEFAULT_PLAYERS, simulate_match
from matches.models import Competition, Match
from matches.records import record_import

CHAMPIONSHIP = "demo-euro"
UNDRAWN = "demo-euro-draw"
BY = "demo-staff"
RULESET = {"target": 60, "best_of": 3}
STAGES = [
    {"id": "groups", "kind": "groups", "groups": 2, "advance": 2},
    {
        "id": "ko",
        "kind": "knockout",
        "from": "groups",
        "ruleset": {"best_of": 5},
        "third_place": True,
    },
]
FIRST_DAY = date(2026, 11, 27)


def championship_ensure(seed: int = 2026) -> list[str]:
    """Store the demo championships unless they are there; return the ids created."""
    created = []
    if not Competition.objects.filter(pk=CHAMPIONSHIP).exists():
        _entered(CHAMPIONSHIP, "Demo European Championship 2026")
        _played(seed)
        created.append(CHAMPIONSHIP)
    if not Competition.objects.filter(pk=UNDRAWN).exists():
        _entered(UNDRAWN, "Demo championship to draw")
        created.append(UNDRAWN)
    return created


def _entered(competition: str, name: str) -> None:
    services.competition_create(id=competition, name=name, ruleset=RULESET, stages=STAGES)
    for seed, player in enumerate(DEFAULT_PLAYERS, start=1):
        services.player_enter(competition_id=competition, player=player, seed=seed, by=BY)


def _played(seed: int) -> None:
    services.stage_draw(competition_id=CHAMPIONSHIP, stage_id="groups", by=BY, first_date=FIRST_DAY)
    for number, match in enumerate(_stage_matches("groups")):
        _play(match, seed + number)
    knockout_day = FIRST_DAY + timedelta(days=3)  # the day after the groups' three rounds
    services.stage_draw(competition_id=CHAMPIONSHIP, stage_id="ko", by=BY, first_date=knockout_day)
    first, second = _stage_matches("ko")
    _play(first, seed + 100)
    _play(second, seed + 101, share=0.5)  # under way


def _stage_matches(stage: str) -> list[Match]:
    return list(Match.objects.filter(competition_id=CHAMPIONSHIP, stage_id=stage).order_by("pk"))


def _play(match: Match, seed: int, share: float = 1.0) -> None:
    """Play a stored match by simulation: whole, or its first `share` of events."""
    record: dict[str, Any] = simulate_match(
        seed,
        ruleset=match.ruleset,
        players=[match.players["A"], match.players["B"]],
        match_id=match.pk,
        competition=match.competition_id,
        stage=match.stage,
        table="",
        day=match.date,
        forfeit_rate=0.0,
        amend_rate=0.0,
        retract_rate=0.0,
    )
    if share < 1.0:
        record["events"] = record["events"][: int(len(record["events"]) * share)]
    record_import(record, by=BY)
