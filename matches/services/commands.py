"""One verb per kind of event: what a referee records, each through `event_record`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from matches.domain.errors import Refused, excerpt
from matches.domain.notation import SHOT_FACTS
from matches.domain.rules import INTERMISSION_MINUTES, PLAYERS
from matches.domain.state import RESULT_CONFIRMED
from matches.selectors import match_get
from matches.services.log import Recorded, event_record
from matches.services.pins import WrongPin, pin_matches


def _command(kind: str, **fields: Any) -> dict[str, Any]:
    return {"type": kind, **{k: v for k, v in fields.items() if v is not None}}


def _object(value: Any, field: str) -> dict[str, Any]:
    """Return a copy of an object a caller passed, or refuse it naming the field."""
    if not isinstance(value, Mapping):
        raise Refused("must be an object", field)
    return dict(value)


def _shot_facts(facts: Any) -> dict[str, Any]:
    """Return shot facts a caller passed; they may not say what the event is or who played."""
    given = _object(facts, "facts")
    for key in given:
        if key not in SHOT_FACTS:
            known = ", ".join(SHOT_FACTS)
            raise Refused(f"unknown field {excerpt(key)}; shot facts are {known}", "facts")
    return given


def lag_record(
    *,
    match_id: str,
    expected_seq: int,
    by: str,
    a: Mapping[str, Any] | None = None,
    b: Mapping[str, Any] | None = None,
    collision: bool | None = None,
    winner: str | None = None,
    idempotency_key: str | None = None,
) -> Recorded:
    """Record one lag: each player's distance and fault, or the winner (distances optional)."""
    event = _command(
        "lag",
        A=None if a is None else _object(a, "A"),
        B=None if b is None else _object(b, "B"),
        collision=collision,
        winner=winner,
    )
    return event_record(
        match_id=match_id,
        expected_seq=expected_seq,
        event=event,
        by=by,
        idempotency_key=idempotency_key,
    )


def game_start(
    *,
    match_id: str,
    expected_seq: int,
    by: str,
    game: int,
    breaker: str,
    idempotency_key: str | None = None,
) -> Recorded:
    """Start the next game with its breaker."""
    event = _command("game_started", game=game, breaker=breaker)
    return event_record(
        match_id=match_id,
        expected_seq=expected_seq,
        event=event,
        by=by,
        idempotency_key=idempotency_key,
    )


def ball_place(
    *,
    match_id: str,
    expected_seq: int,
    by: str,
    ball: str,
    pos: list[float],
    reason: str,
    idempotency_key: str | None = None,
) -> Recorded:
    """Record where the referee placed a ball (break, ball in hand, re-spot)."""
    event = _command("ball_placed", ball=ball, pos=pos, reason=reason)
    return event_record(
        match_id=match_id,
        expected_seq=expected_seq,
        event=event,
        by=by,
        idempotency_key=idempotency_key,
    )


def shot_record(
    *,
    match_id: str,
    expected_seq: int,
    by: str,
    facts: Mapping[str, Any],
    player: str | None = None,
    idempotency_key: str | None = None,
) -> Recorded:
    """Record a shot by whoever is due (or by `player`, who must be)."""
    event = _command("shot", player=player, **_shot_facts(facts))
    return event_record(
        match_id=match_id,
        expected_seq=expected_seq,
        event=event,
        by=by,
        idempotency_key=idempotency_key,
    )


def ruling_amend(
    *,
    match_id: str,
    expected_seq: int,
    by: str,
    shot: int,
    facts: Mapping[str, Any],
    reason: str,
    idempotency_key: str | None = None,
    staff: bool = False,
) -> Recorded:
    """Amend a shot with new facts and a reason; the original stays in the record."""
    event = _command("shot_amended", shot=shot, facts=_object(facts, "facts"), reason=reason)
    return event_record(
        match_id=match_id,
        expected_seq=expected_seq,
        event=event,
        by=by,
        idempotency_key=idempotency_key,
        staff=staff,
    )


def shot_retract(
    *,
    match_id: str,
    expected_seq: int,
    by: str,
    shot: int,
    reason: str,
    idempotency_key: str | None = None,
    staff: bool = False,
) -> Recorded:
    """Retract the latest shot, entered by mistake."""
    event = _command("shot_retracted", shot=shot, reason=reason)
    return event_record(
        match_id=match_id,
        expected_seq=expected_seq,
        event=event,
        by=by,
        idempotency_key=idempotency_key,
        staff=staff,
    )


def balls_respot(
    *,
    match_id: str,
    expected_seq: int,
    by: str,
    reason: str = "contact",
    idempotency_key: str | None = None,
) -> Recorded:
    """Record the re-spot of the three balls after a ball in contact."""
    event = _command("balls_respotted", reason=reason)
    return event_record(
        match_id=match_id,
        expected_seq=expected_seq,
        event=event,
        by=by,
        idempotency_key=idempotency_key,
    )


def foul_record(
    *,
    match_id: str,
    expected_seq: int,
    by: str,
    player: str,
    code: str,
    reason: str | None = None,
    idempotency_key: str | None = None,
) -> Recorded:
    """Record a foul committed outside a stroke."""
    event = _command("foul", player=player, code=code, reason=reason)
    return event_record(
        match_id=match_id,
        expected_seq=expected_seq,
        event=event,
        by=by,
        idempotency_key=idempotency_key,
    )


def intermission_record(
    *,
    match_id: str,
    expected_seq: int,
    by: str,
    minutes: float = INTERMISSION_MINUTES,
    idempotency_key: str | None = None,
) -> Recorded:
    """Record the pause before a deciding game."""
    event = _command("intermission", minutes=minutes)
    return event_record(
        match_id=match_id,
        expected_seq=expected_seq,
        event=event,
        by=by,
        idempotency_key=idempotency_key,
    )


def game_forfeit(
    *,
    match_id: str,
    expected_seq: int,
    by: str,
    player: str,
    reason: str,
    idempotency_key: str | None = None,
    staff: bool = False,
) -> Recorded:
    """Record that a player left without permission: he loses the open game."""
    event = _command("game_forfeited", player=player, reason=reason)
    return event_record(
        match_id=match_id,
        expected_seq=expected_seq,
        event=event,
        by=by,
        idempotency_key=idempotency_key,
        staff=staff,
    )


def match_forfeit(
    *,
    match_id: str,
    expected_seq: int,
    by: str,
    player: str,
    reason: str,
    idempotency_key: str | None = None,
    staff: bool = False,
) -> Recorded:
    """Record that a player refused to continue: he loses the match."""
    event = _command("match_forfeited", player=player, reason=reason)
    return event_record(
        match_id=match_id,
        expected_seq=expected_seq,
        event=event,
        by=by,
        idempotency_key=idempotency_key,
        staff=staff,
    )


def result_confirm(
    *,
    match_id: str,
    expected_seq: int,
    by: str,
    role: str,
    confirms: int,
    pin: str | None = None,
    idempotency_key: str | None = None,
) -> Recorded:
    """Record that the referee (`role` "referee") or a player ("A", "B": with their PIN,
    checked and never stored) confirms the result as it stands at event `confirms`."""
    event = _command(RESULT_CONFIRMED, role=role, confirms=confirms)
    if role in PLAYERS:
        players = match_get(match_id).players
        if not pin_matches(players[role], pin):
            raise WrongPin(f"wrong PIN for {players[role]['name']}", "pin")
    elif pin is not None:
        raise Refused("only a player confirms with a PIN", "pin")
    return event_record(
        match_id=match_id,
        expected_seq=expected_seq,
        event=event,
        by=by,
        idempotency_key=idempotency_key,
        pin_checked=role in PLAYERS,
    )
