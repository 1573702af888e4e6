"""The replay's scoreboards as seen live: each correction learnt when it was recorded.

They are made only where the match as seen live may differ from the match as amended
(from a corrected shot to its correction), from a copy of the amended fold kept before
and going back to a copy of the state kept at the start of the corrected shot's game
instead of folding the match again from its start; they must be those of the plain fold,
every correction learnt at its event and the match folded again from event 1, wherever
they differ from the amended ones, and the amended ones those of each event's fold.
"""

from __future__ import annotations

from hypothesis import given

from matches.domain.fold import decide, evolve, state_after
from matches.domain.readback import folding
from matches.domain.render import board, render
from matches.domain.state import Corrections, MatchState
from replay.projections.timeline import frames, live_spans
from tests.support.builders import CAROM_A, MISS
from tests.support.legal_logs import PROPERTY, header_for, legal_logs


def differences(header, events):
    """What `frames` must return as seen live: the plain live boards where they differ, by seq."""
    amended = amended_from_the_start(header, events)
    plain = refolded_from_the_start(header, events)[0]
    return amended, {seq: shown for seq, shown in enumerate(plain) if shown != amended[seq]}


def amended_from_the_start(header, events):
    """The frames as amended the plain way: each event's state folded from event 1."""
    corrections = Corrections.of(events)
    return [board(state_after(header, events[:seq], corrections)) for seq in range(len(events) + 1)]


def refolded_from_the_start(header, events):
    """The frames as seen live the plain way: `evolve` folds from event 1 at each correction."""
    state = MatchState(header)
    shown = [board(state)]
    for event in events:
        state = evolve(state, event)
        shown.append(board(state))
    return shown, state


def logged(header, *events):
    """Return events as the log stores them, each decided in the match as it stands."""
    state, stored = MatchState(header), []
    for event in events:
        checked = decide(state, event)
        state = evolve(state, checked)
        stored.append(checked)
    return stored


def test_amending_the_shot_that_won_a_game_once_the_next_began_is_seen_live_from_that_shot():
    header = header_for({"target": 4, "best_of": 3})
    events = logged(
        header,
        {"type": "game_started", "game": 1, "breaker": "A"},
        {"type": "shot", **CAROM_A},  # seq 2: 4 points, the game won
        {"type": "game_started", "game": 2, "breaker": "B"},
        {"type": "shot_amended", "shot": 2, "facts": MISS, "reason": "no carom"},
    )
    with folding():
        amended, expected = differences(header, events)
        shown = frames(header, events)

    assert (shown.amended, shown.live) == (amended, expected)
    assert live_spans(events) == [(2, 3)]
    assert shown.live[3]["games"][0]["winner"] == "A"  # as recorded, until the amendment
    assert amended[3]["games"][0]["winner"] is None


@PROPERTY
@given(log=legal_logs())
def test_the_live_boards_equal_those_of_the_match_folded_again_at_each_correction(log):
    header, events = log
    with folding():
        amended, expected = differences(header, events)
        shown = frames(header, events)

    assert (shown.amended, shown.live) == (amended, expected)
    spans = live_spans(events)
    assert all(any(first <= seq <= last for first, last in spans) for seq in expected)
    assert render(shown.last) == render(state_after(header, events))


@PROPERTY
@given(log=legal_logs())
def test_a_copy_folds_on_as_the_fold_from_the_start_and_leaves_what_it_copies_as_it_was(log):
    header, events = log
    half = len(events) // 2
    state = MatchState(header)
    for event in events[:half]:
        state = evolve(state, event)
    before = render(state)

    twin = state.copy()
    for event in events[half:]:
        twin = evolve(twin, event)

    assert render(twin) == render(refolded_from_the_start(header, events)[1])
    assert render(state) == before
