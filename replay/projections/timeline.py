"""A match shot by shot, for the replay page: every moment of it from one fold of the match.

The page steps through the log without asking the server again, so everything it
shows is computed here at once: the scoreboard after every event as amended (one
fold with every correction known beforehand) and, where it differs, as it was seen
live (each correction learnt when it was recorded: folded again only where a
correction was pending), each shot with its marks, and each amendment with who made
it, when and why.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from math import ceil
from typing import Any, NamedTuple

from matches import store
from matches.domain.fold import evolve
from matches.domain.header import Header
from matches.domain.readback import folding
from matches.domain.render import board, confirmed, render
from matches.domain.rules import DEFAULT_RULESET, Ruleset, is_big_shot
from matches.domain.state import CORRECTIONS, Corrections, MatchState
from matches.models import Match
from matches.store import ENVELOPE_KEYS, StoredEvent, fact_of


class Frames(NamedTuple):
    """The scoreboards of a match event by event, and where it stood after the last event."""

    amended: list[dict[str, Any]]  # before any event, then after each, as amended
    live: dict[int, dict[str, Any]]  # as seen live, by seq, only where it differs
    last: MatchState  # after the last event, as amended


def frames(header: Header, events: Sequence[Mapping[str, Any]]) -> Frames:
    """Return the scoreboards as amended and as seen live, from one fold of the whole match.

    As amended: one fold, every correction known from the start. As seen live, each
    correction is learnt when it was recorded; the match then differs from the match as
    amended only from the shot a correction names to the event before the correction
    (`live_spans`): there alone the boards are made again, from a copy of the amended fold
    kept just before the span (the same match there, its corrections as then known).
    """
    spans = live_spans(events)
    before = {first - 1 for first, _ in spans}
    state = MatchState(header, Corrections.of(events))
    amended = [board(state)]
    starts = {0: state.copy()} if 0 in before else {}
    for seq, event in enumerate(events, start=1):
        state = evolve(state, event)
        amended.append(board(state))
        if seq in before:
            starts[seq] = state.copy()
    noted = [(seq, e) for seq, e in enumerate(events, start=1) if e["type"] in CORRECTIONS]
    live: dict[int, dict[str, Any]] = {}
    for first, last in spans:
        # The corrections known live before the span: those recorded before it.
        known = Corrections()
        for seq, event in noted:
            if seq >= first:
                break
            known.note(seq, event)
        live.update(_seen_live(events, amended, starts[first - 1], known, first, last))
    return Frames(amended, live, state)


def live_spans(events: Sequence[Mapping[str, Any]]) -> list[tuple[int, int]]:
    """Return the (first, last) boards where the match as seen live may differ from it amended.

    From the shot each correction names to the event before it, spans that meet or touch
    merged: outside them, every correction of a shot folded so far is known as it is in
    the end, so every shot is ruled alike and the board is the same. Inside, the board
    before the span is outside them all.
    """
    named = sorted(
        (max(ceil(event["shot"]), 1), seq - 1)
        for seq, event in enumerate(events, start=1)
        if event["type"] in CORRECTIONS
    )
    spans: list[tuple[int, int]] = []
    for first, last in named:
        if first > last:
            continue  # names no shot before it: changes nothing live
        if spans and first <= spans[-1][1] + 1:
            spans[-1] = (spans[-1][0], max(spans[-1][1], last))
        else:
            spans.append((first, last))
    return spans


def _seen_live(
    events: Sequence[Mapping[str, Any]],
    amended: Sequence[dict[str, Any]],
    start: MatchState,
    corrections: Corrections,
    first: int,
    last: int,
) -> dict[int, dict[str, Any]]:
    """Return the boards of one span as seen live where they differ from `amended`, by seq.

    `start` is a copy of the amended fold just before the span, this function's to change:
    there the match as seen live is the same, and it goes on with the corrections known
    live then (`corrections`, which learns those recorded inside the span). A new
    correction changes the shot it names and what followed, nothing before, so the fold
    goes back to a copy of the state kept at the start of the span or of that shot's game,
    if later (a correction names a recent shot: a few events folded again). The games
    before such a copy are over and no shot of theirs is corrected: their score as first
    recorded, which the fold keeps once an amendment is known, is their score, kept or
    not. The amended fold keeps that score from event 1 if the match has an amendment at
    all; where none is known live yet, no shot before the span is amended either (the
    board before it is the same), so what it kept is the score, and a game that reached
    the target as first recorded reached it as played: it is decided.
    """
    start.corrections = corrections
    kept = [start]  # copies at the span's and at each game's start, the corrections known then
    # Kept as it is only if a correction inside the span may have to go back to it.
    inside = any(event["type"] in CORRECTIONS for event in events[first - 1 : last])
    state = start.copy() if inside else start
    seen: dict[int, dict[str, Any]] = {}
    for seq in range(first, last + 1):
        event = events[seq - 1]
        if event["type"] in CORRECTIONS and corrections.note(seq, event):
            while len(kept) > 1 and kept[-1].seq >= event["shot"]:
                kept.pop()  # its fold took in the shot corrected
            state = kept[-1].copy()
            for again in events[state.seq : seq]:
                if again["type"] == "game_started":
                    kept.append(state.copy())
                state = evolve(state, again)  # the correction itself is known: no refold
        else:
            if event["type"] == "game_started":
                kept.append(state.copy())
            state = evolve(state, event)
        shown = board(state)
        if shown != amended[seq]:
            seen[seq] = shown
    return seen


def marks(shot: Mapping[str, Any], ruleset: Ruleset = DEFAULT_RULESET) -> list[str]:
    """Return what the shot list marks on a shot: foul, carom, big, amended, retracted, void."""
    ruling = shot["ruling"]
    found = []
    if ruling["fouls"]:
        found.append("foul")
    if ruling["carom"]:
        found.append("carom")
    if is_big_shot(ruling["scorer"], ruling["points"], ruleset):
        found.append("big")
    for flag in ("amended", "retracted", "void"):
        if shot.get(flag):
            found.append(flag)
    return found


def match_timeline(match: Match) -> dict[str, Any]:
    """Return the whole replay of a match: its events, every frame, its shots and games."""
    logged = store.load_events(match)  # a row missing or no JSON object is refused
    header = match.header()
    # Without the envelope, which only the columns hold (a key of it in the data, put there
    # behind the store's back, is no fact); the data as it is when it holds none of it.
    facts = [
        entry.data if ENVELOPE_KEYS.isdisjoint(entry.data) else fact_of(entry.data)
        for entry in logged
    ]
    with folding():
        amended, live, final = frames(header, facts)
    return {
        "head": len(logged),
        "events": [
            {"seq": entry.seq, "at": entry.at, "by": entry.by, **fact}
            for entry, fact in zip(logged, facts, strict=True)
        ],
        "frames": amended,
        # Only where the match as seen live differs from the match as amended.
        "live": {str(seq): seen for seq, seen in live.items()},
        "shots": [
            _shot(shot, number, logged, header.ruleset)
            for number, shot in enumerate(final.shots, start=1)
        ],
        "games": _games(final, facts),
        "stats": render(final, detached=False)["stats"],
        "confirmed": confirmed(final),
    }


def _shot(
    shot: Mapping[str, Any], number: int, logged: Sequence[StoredEvent], ruleset: Ruleset
) -> dict[str, Any]:
    """Return a shot as the replay lists it, with its number (its place among the match's
    shots); `logged` is the match's log, event 1 first."""
    at = logged[shot["seq"] - 1].at
    entry = {**shot, "number": number, "at": at, "marks": marks(shot, ruleset)}
    if shot["amended"] or shot["retracted"]:
        for key in ("amended_by", "retracted_by"):
            if key in shot:
                correction = logged[shot[key] - 1]
                entry[key] = {"seq": correction.seq, "at": correction.at, "by": correction.by}
    return entry


def _games(state: MatchState, events: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Return each game with the seq of its start and of its last event."""
    starts = [seq for seq, event in enumerate(events, start=1) if event["type"] == "game_started"]
    games = []
    for index, game in enumerate(state.games):
        # A game a match forfeit credited has no event of its own: it starts at the forfeit.
        start = starts[index] if index < len(starts) else len(events)
        end = starts[index + 1] - 1 if index + 1 < len(starts) else len(events)
        games.append(
            {
                "game": game.number,
                "breaker": game.breaker,
                "start": start,
                "end": max(end, start),
                "score": dict(game.score),
                "winner": game.winner,
            }
        )
    return games
