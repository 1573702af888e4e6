"""State on demand: the fold of the stored events, as of any `seq`, amended or live."""

import json
from pathlib import Path

import pytest

from matches import selectors, services, store
from matches.domain.errors import NotFound, Refused
from matches.domain.fold import VIEWS, fold
from matches.records import record_import
from replay.projections.states import match_state
from tests.support.builders import BY, CAROM_A, QUIET, new_match, open_game, play
from tests.support.random_play import as_b

RECORD = Path(__file__).resolve().parents[2] / "fixtures" / "records" / "match.json"


def stored_fold(match, upto=None, view="amended"):
    return fold(match.header(), store.load_facts(match), upto=upto, view=view)


def test_match_state_equals_the_fold_of_the_stored_events_for_every_upto_and_view(db):
    record_import(json.loads(RECORD.read_text(encoding="utf-8")))
    match = selectors.match_get("example-1")

    for view in VIEWS:
        for upto in [None, *range(45)]:
            expected = stored_fold(match, upto, view)
            assert match_state(match, upto, view) == expected, (upto, view)
            assert match_state("example-1", upto, view) == expected, (upto, view)


def test_the_amendment_in_the_spec_example_flips_the_live_result(db):
    record_import(json.loads(RECORD.read_text(encoding="utf-8")))

    live = match_state("example-1", 43, "live")
    amended = match_state("example-1", 43)

    assert (live["winner"], live["games_won"]) == ("B", {"A": 1, "B": 2})
    assert (amended["winner"], amended["games_won"]) == ("A", {"A": 2, "B": 0})
    assert match_state("example-1") == match_state("example-1", 44, "live")


def test_match_state_refuses_an_upto_beyond_the_log_and_an_unknown_view(db):
    match = new_match()
    open_game(match.id)

    with pytest.raises(Refused) as beyond:
        match_state(match, 4)
    with pytest.raises(Refused) as view:
        match_state(match, 1, "tomorrow")

    assert (beyond.value.field, view.value.field) == ("upto", "view")


def test_an_unknown_match_is_refused_naming_its_id(db):
    with pytest.raises(NotFound) as unknown:
        match_state("no-such-match")

    assert (unknown.value.field, unknown.value.message) == ("id", "no match 'no-such-match'")


def test_the_head_state_follows_each_appended_event_and_correction(db):
    match = new_match()
    seq = open_game(match.id)
    assert match_state(match) == stored_fold(match)

    seq = play(match.id, seq, CAROM_A)
    assert match_state(match) == stored_fold(match)
    seq = play(match.id, seq, as_b(QUIET))
    assert match_state(match) == stored_fold(match)
    seq = services.ruling_amend(
        match_id=match.id, expected_seq=seq, by=BY, shot=4, facts=QUIET, reason="no carom"
    ).seq
    assert match_state(match) == stored_fold(match)
    assert match_state(match, 5) == stored_fold(match, 5)
    assert match_state(match, 5, "live") == stored_fold(match, 5, "live")
    services.shot_retract(match_id=match.id, expected_seq=seq, by=BY, shot=5, reason="twice")

    assert match_state(match) == stored_fold(match)
    assert match_state(match, 5) == stored_fold(match, 5)
    assert match_state(match)["shots"][-1]["retracted"]
