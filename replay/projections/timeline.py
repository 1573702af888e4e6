"""A match shot by shot, for the replay page: every moment of it from one fold per view.

The page steps through the log without asking the server again, so everything it
shows is computed here at once: the scoreboard after every event as amended (one
fold with every correction known beforehand) and, where it differs, as it was seen
live (one fold that learns each correction when it was recorded), each shot with
its marks, and each amendment with who made it, when and why.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from matches import store
from matches.fold import evolve
from matches.header import Header
from matches.models import Match
from matches.readback import folding
from matches.render import board, render
from matches.rules import DEFAULT_RULESET, Ruleset, is_big_shot
from matches.state import CORRECTIONS, Corrections, MatchState
from matches.store import StoredEvent, fact_of


def frames(
    header: Header, events: Sequence[Mapping[str, Any]]
) -> tuple[list[dict[str, Any]], MatchState]:
    """Return the scoreboard before any event and after each one as amended, and the last state.

    One fold, every correction known from the start.
    """
    state = MatchState(header, Corrections.of(events))
    shown = [board(state)]
    for event in events:
        state = evolve(state, event)
        shown.append(board(state))
    return shown, state


def seen_live(
    header: Header, events: Sequence[Mapping[str, Any]], amended: Sequence[dict[str, Any]]
) -> dict[int, dict[str, Any]]:
    """Return the scoreboards as seen live where they differ from `amended`, by `seq`.

    Live, each correction is learnt when it was recorded. Before the first shot a
    correction names, and from the last correction on, the match as seen live is the
    match as amended: only the boards between are made. A new correction changes the
    shot it names and what followed, nothing before, so the fold goes back to a copy of
    the state kept at the start of that shot's game (a correction names a recent shot: a
    few events folded again, not the whole match). The games before such a copy are over
    and no shot of theirs is corrected: their score as first recorded, which the fold
    keeps once an amendment is known, is their score, kept or not.
    """
    named = [
        (seq, event["shot"])
        for seq, event in enumerate(events, start=1)
        if event["type"] in CORRECTIONS
    ]
    if not named:
        return {}
    first, last = min(shot for _, shot in named), max(seq for seq, _ in named)
    corrections = Corrections()
    state = MatchState(header, corrections)
    kept: list[MatchState] = []  # a copy at each game's start, the corrections known then
    seen: dict[int, dict[str, Any]] = {}
    for seq, event in enumerate(events[:last], start=1):
        if event["type"] in CORRECTIONS and corrections.note(seq, event):
            while kept and kept[-1].seq >= event["shot"]:
                kept.pop()  # its fold took in the shot corrected
            state = kept[-1].copy() if kept else MatchState(header, corrections)
            for again in events[state.seq : seq]:
                if again["type"] == "game_started":
                    kept.append(state.copy())
                state = evolve(state, again)  # the correction itself is known: no refold
        else:
            if event["type"] == "game_started":
                kept.append(state.copy())
            state = evolve(state, event)
        if first <= seq < last:
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
    facts = [fact_of(entry.data) for entry in logged]
    with folding():
        amended, final = frames(header, facts)
        live = seen_live(header, facts, amended)
    by_seq = {entry.seq: entry for entry in logged}
    return {
        "head": len(logged),
        "events": [
            {"seq": entry.seq, "at": entry.at, "by": entry.by, **fact}
            for entry, fact in zip(logged, facts, strict=True)
        ],
        "frames": amended,
        # Only where the match as seen live differs from the match as amended.
        "live": {str(seq): seen for seq, seen in live.items()},
        "shots": [_shot(shot, by_seq, header.ruleset) for shot in final.shots],
        "games": _games(final, facts),
        "stats": render(final, detached=False)["stats"],
    }


def _shot(
    shot: Mapping[str, Any], by_seq: Mapping[int, StoredEvent], ruleset: Ruleset
) -> dict[str, Any]:
    entry = {**shot, "at": by_seq[shot["seq"]].at, "marks": marks(shot, ruleset)}
    for key in ("amended_by", "retracted_by"):
        if key in shot:
            correction = by_seq[shot[key]]
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
