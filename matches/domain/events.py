"""The kinds of match events, each in one place, and the parsing of events and records.

A kind is its name, its fields, the shape of what is written (`notation`), whether
it is legal in the match as it stands (`decide`), and what it changes (`transitions`):
a new kind of event is one more row of `KINDS`. Pure Python: no Django.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from matches.domain import decide, transitions
from matches.domain.errors import Refused
from matches.domain.header import Header, parse_header
from matches.domain.notation import (
    CONFIRMED,
    ENVELOPE,
    LONGEST,
    LONGEST_INTERMISSION,
    MAX_EVENTS,
    RECORD_FORMAT,
    SHOT_FACTS,
    check_envelope,
    check_json,
    expect_choice,
    expect_list,
    expect_number,
    expect_object,
    expect_text,
    expect_whole,
    parse_position,
    parse_shot,
    refuse_unknown_keys,
)
from matches.domain.rules import (
    BALLS,
    CALLED_FOULS,
    INTERMISSION_MINUTES,
    LAG_FAULTS,
    MAX_GAMES,
    PLACEMENT_REASONS,
    PLAYERS,
    TABLE_LENGTH,
)
from matches.domain.state import CONFIRMING_ROLES, RESULT_CONFIRMED, MatchState


@dataclass(frozen=True)
class EventKind:
    """One kind of event: its fields, and how it is parsed, decided and folded."""

    name: str
    fields: tuple[str, ...]
    shape: Callable[[Mapping[str, Any], Header], None]
    decide: Callable[[MatchState, dict[str, Any]], dict[str, Any]]
    evolve: Callable[[MatchState, Mapping[str, Any]], str | None]


# -- The shape of each kind, as written ----------------------------------------------


def _player(raw: Mapping[str, Any], key: str = "player", required: bool = True) -> str | None:
    if raw.get(key) is None and not required:
        return None
    return expect_choice(raw.get(key), PLAYERS, "player", key)


def _reason(raw: Mapping[str, Any], required: bool = True) -> None:
    expect_text(raw.get("reason"), "reason", required=required, longest=LONGEST["reason"])


def _lag_shape(raw: Mapping[str, Any], header: Header) -> None:
    # A referee who measured nothing gives the winner alone: then the distances are optional.
    winner = _player(raw, "winner", required=False)
    for player in PLAYERS:
        if winner is not None and player not in raw:
            continue
        result = expect_object(raw.get(player), player)
        refuse_unknown_keys(result, ("distance", "fault"), player)
        if winner is None or result.get("distance") is not None:
            # Where the ball came to rest, from the bottom cushion: somewhere along the table.
            expect_number(result.get("distance"), f"{player}.distance", 0, TABLE_LENGTH)
        if result.get("fault") is not None:
            expect_choice(result["fault"], LAG_FAULTS, "lag fault", f"{player}.fault")
    if "collision" in raw and not isinstance(raw["collision"], bool):
        raise Refused.because("not_boolean", "collision")


def _game_started_shape(raw: Mapping[str, Any], header: Header) -> None:
    expect_whole(raw.get("game"), "game", 1, MAX_GAMES)
    _player(raw, "breaker")


def _ball_placed_shape(raw: Mapping[str, Any], header: Header) -> None:
    expect_choice(raw.get("ball"), BALLS, "ball", "ball")
    parse_position(raw.get("pos"), "pos")
    expect_choice(raw.get("reason"), PLACEMENT_REASONS, "placement reason", "reason")


def _shot_shape(raw: Mapping[str, Any], header: Header) -> None:
    player = _player(raw, required=False)
    if player is not None:
        # Without a player, who is due (and so the cue ball) is known only to the fold.
        parse_shot({k: raw[k] for k in SHOT_FACTS if k in raw}, header.ball_of(player))


def _shot_amended_shape(raw: Mapping[str, Any], header: Header) -> None:
    expect_whole(raw.get("shot"), "shot", 1, MAX_EVENTS)
    # The facts are checked by the fold, which knows whose ball the shot was played with.
    expect_object(raw.get("facts"), "facts")
    _reason(raw)


def _shot_retracted_shape(raw: Mapping[str, Any], header: Header) -> None:
    expect_whole(raw.get("shot"), "shot", 1, MAX_EVENTS)
    _reason(raw)


def _balls_respotted_shape(raw: Mapping[str, Any], header: Header) -> None:
    _reason(raw, required=False)


def _foul_shape(raw: Mapping[str, Any], header: Header) -> None:
    _player(raw)
    expect_choice(raw.get("code"), CALLED_FOULS, "foul code", "code")
    _reason(raw, required=False)


def _intermission_shape(raw: Mapping[str, Any], header: Header) -> None:
    minutes = expect_number(
        raw.get("minutes", INTERMISSION_MINUTES), "minutes", 0, LONGEST_INTERMISSION
    )
    if minutes == 0:
        raise Refused(f"must be a number from 0 to {LONGEST_INTERMISSION}, not 0", "minutes")


def _forfeited_shape(raw: Mapping[str, Any], header: Header) -> None:
    _player(raw)
    _reason(raw, required=False)


def _result_confirmed_shape(raw: Mapping[str, Any], header: Header) -> None:
    expect_choice(raw.get("role"), CONFIRMING_ROLES, "role", "role")
    expect_whole(raw.get("confirms"), "confirms", 1, MAX_EVENTS)


# -- The kinds -------------------------------------------------------------------------

KINDS: dict[str, EventKind] = {
    kind.name: kind
    for kind in (
        EventKind(
            "lag", ("A", "B", "collision", "winner"), _lag_shape, decide.lag, transitions.lag
        ),
        EventKind(
            "game_started",
            ("game", "breaker"),
            _game_started_shape,
            decide.game_started,
            transitions.game_started,
        ),
        EventKind(
            "ball_placed",
            ("ball", "pos", "reason"),
            _ball_placed_shape,
            decide.ball_placed,
            transitions.ball_placed,
        ),
        EventKind("shot", ("player",) + SHOT_FACTS, _shot_shape, decide.shot, transitions.shot),
        EventKind(
            "shot_amended",
            ("shot", "facts", "reason"),
            _shot_amended_shape,
            decide.shot_amended,
            transitions.correction,
        ),
        EventKind(
            "shot_retracted",
            ("shot", "reason"),
            _shot_retracted_shape,
            decide.shot_retracted,
            transitions.correction,
        ),
        EventKind(
            "balls_respotted",
            ("reason",),
            _balls_respotted_shape,
            decide.in_game,
            transitions.balls_respotted,
        ),
        EventKind(
            "foul", ("player", "code", "reason"), _foul_shape, decide.in_game, transitions.foul
        ),
        EventKind(
            "intermission",
            ("minutes",),
            _intermission_shape,
            decide.before_the_end,
            transitions.intermission,
        ),
        EventKind(
            "game_forfeited",
            ("player", "reason"),
            _forfeited_shape,
            decide.in_game,
            transitions.game_forfeited,
        ),
        EventKind(
            "match_forfeited",
            ("player", "reason"),
            _forfeited_shape,
            decide.before_the_end,
            transitions.match_forfeited,
        ),
        EventKind(
            RESULT_CONFIRMED,
            ("role", "confirms"),
            _result_confirmed_shape,
            decide.result_confirmed,
            transitions.result_confirmed,
        ),
    )
}


# -- Events and records ------------------------------------------------------------------


@dataclass(frozen=True)
class Record:
    """A parsed match record: its header fields, its Header and its checked events."""

    match: dict[str, Any]
    header: Header
    events: list[dict[str, Any]]


def parse_record(obj: Any) -> Record:
    """Return a checked match record: the header and every event's shape (not its legality)."""
    obj = expect_object(obj, "")
    if obj.get("format") != RECORD_FORMAT:
        raise Refused(f"must be {RECORD_FORMAT!r}", "format")
    match, header = parse_header(obj.get("match"))
    written = expect_list(obj.get("events", []), "events")
    if len(written) > MAX_EVENTS:
        raise Refused(f"a match has at most {MAX_EVENTS} events", "events")
    events = [parse_event(raw, header, seq) for seq, raw in enumerate(written, start=1)]
    return Record(match=match, header=header, events=events)


def parse_event(written: Any, header: Header, seq: int) -> dict[str, Any]:
    """Return one event checked for shape, or raise naming its `seq` and field."""
    try:
        raw: dict[str, Any] = dict(expect_object(written, ""))
        check_json(raw, None)  # first: nothing below meets what a store cannot keep
        kind = KINDS[expect_choice(raw.get("type"), tuple(KINDS), "event type", "type")]
        if kind.name == "ball_placed" and "pos" not in raw and isinstance(raw.get("at"), list):
            # Older records wrote the position of a placement under "at".
            raw["pos"] = raw.pop("at")
        refuse_unknown_keys(raw, ("type",) + kind.fields + (CONFIRMED,) + ENVELOPE, "")
        check_envelope(raw, seq)
        kind.shape(raw, header)
    except Refused as error:
        raise error.at(seq) from None
    # The event as written: the hash chain covers it exactly, and the fold reads it so.
    return raw
