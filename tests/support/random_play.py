"""A match played at random: each kind of event recorded when it is legal, for the laws' tests."""

from __future__ import annotations

from typing import Any

from matches import services, store
from matches.domain.errors import Refused
from matches.domain.fold import fold
from matches.models import Match
from matches.services import Recorded
from tests.support.builders import BY, CAROM_A, MISS, QUIET

SHOTS: dict[str, dict[str, Any]] = {
    "quiet": QUIET,
    "carom": CAROM_A,
    "miss": MISS,
    "pins": {
        "contacts": [
            {"ball": "white", "hit": "yellow"},
            {"ball": "yellow", "hit": "pins", "pins": ["center"]},
        ]
    },
}
KINDS = ("shot", "amend", "retract", "next game", "wrong player")


def as_b(facts: dict[str, Any]) -> dict[str, Any]:
    """Return the same shot played with the yellow ball (B's)."""
    swap = {"white": "yellow", "yellow": "white"}
    return {
        "contacts": [
            {
                **contact,
                "ball": swap.get(contact["ball"], contact["ball"]),
                "hit": swap.get(contact["hit"], contact["hit"]),
            }
            for contact in facts["contacts"]
        ]
    }


def facts_for(player: str, shot: str) -> dict[str, Any]:
    return SHOTS[shot] if player == "A" else as_b(SHOTS[shot])


def act(match: Match, kind: str, pick: int = 0, shot: str = "quiet") -> Recorded | None:
    """Record what `kind` asks for (the `pick`th shot not retracted, played as `shot`) if it
    is legal now; return the answer, or None if it was not (the log stays as it was)."""
    head = store.head(match)[0]
    state = fold(match.header(), store.load_facts(match))
    shots = [s for s in state["shots"] if not s["retracted"]]
    due = state["next"]["player"] if state["next"] else None
    try:
        if kind == "shot" and due:
            return services.shot_record(
                match_id=match.id, expected_seq=head, by=BY, facts=facts_for(due, shot)
            )
        if kind == "wrong player" and due:
            other = {"A": "B", "B": "A"}[due]
            return services.shot_record(
                match_id=match.id, expected_seq=head, by=BY, facts=QUIET, player=other
            )
        if kind == "amend" and shots:
            target = shots[pick % len(shots)]
            return services.ruling_amend(
                match_id=match.id,
                expected_seq=head,
                by=BY,
                shot=target["seq"],
                facts=facts_for(target["player"], shot),
                reason="video review",
            )
        if kind == "retract" and shots:
            return services.shot_retract(
                match_id=match.id, expected_seq=head, by=BY, shot=shots[-1]["seq"], reason="typo"
            )
        if kind == "next game" and state["next"]:
            return services.game_start(
                match_id=match.id,
                expected_seq=head,
                by=BY,
                game=state["next"]["game"],
                breaker=state["next"]["player"],
            )
    except Refused:
        pass
    return None
