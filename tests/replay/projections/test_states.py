"""State on demand: the cached states and snapshots always equal the fold of the stored events."""

import json
from pathlib import Path

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matches import selectors, services, store
from matches.errors import NotFound, Refused
from matches.fold import VIEWS, fold
from matches.records import record_import
from replay.projections.states import forget, match_state
from tests.support import random_play
from tests.support.caches import answered_alike
from tests.support.cast import BY, CAROM_A, QUIET, new_match, open_game, play
from tests.support.random_play import SHOTS, as_b

RECORD = Path(__file__).resolve().parents[2] / "fixtures" / "records" / "match.json"


@pytest.fixture(autouse=True)
def _no_snapshots_from_other_tests():
    forget()
    yield
    forget()


def stored_fold(match, upto=None, view="amended"):
    return fold(match.header(), store.load_facts(match), upto=upto, view=view)


def test_match_state_equals_the_fold_of_the_stored_events_for_every_upto_and_view(db):
    record_import(json.loads(RECORD.read_text(encoding="utf-8")))
    match = selectors.match_get("example-1")

    for view in VIEWS:
        for upto in [None, *range(45)]:
            expected = stored_fold(match, upto, view)
            cached = answered_alike(lambda upto=upto, view=view: match_state(match, upto, view))
            assert cached == expected, (upto, view)
            assert match_state("example-1", upto, view, cached=False) == expected, (upto, view)


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


def test_the_header_read_alone_is_the_models_and_an_unknown_match_is_refused_alike(db):
    record_import(json.loads(RECORD.read_text(encoding="utf-8")))
    match = new_match("cup-header-1", target=30, best_of=5)

    for match_id in ("example-1", match.id):
        assert selectors.match_header(match_id) == selectors.match_get(match_id).header()
    with pytest.raises(NotFound) as alone:
        selectors.match_header("no-such-match")
    with pytest.raises(NotFound) as model:
        selectors.match_get("no-such-match")
    with pytest.raises(NotFound) as uncached:
        match_state("no-such-match", cached=False)

    refusals = [(error.value.field, error.value.message) for error in (alone, model, uncached)]
    assert refusals == [("id", "no match 'no-such-match'")] * 3


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


def test_state_after_a_rollback_and_a_different_log_is_that_of_the_restored_log(db):
    """A restored database may hold another log of the same length: no cached state survives."""
    match = new_match()
    seq = open_game(match.id)
    seq = play(match.id, seq, CAROM_A)

    with transaction.atomic():
        play(match.id, seq, as_b(QUIET))
        services.shot_record(match_id=match.id, expected_seq=seq + 1, by=BY, facts=CAROM_A)
        for view in VIEWS:
            for upto in (None, 4, 5, 6):
                match_state(match, upto, view)
        transaction.set_rollback(True)

    # The same number of events as before the rollback, but other shots.
    play(match.id, seq, as_b(CAROM_A))
    play(match.id, seq + 1, QUIET)

    for view in VIEWS:
        for upto in (None, 4, 5, 6):
            assert match_state(match, upto, view) == stored_fold(match, upto, view), (upto, view)


def test_state_after_a_rollback_to_a_shorter_log_is_that_of_the_shorter_log(db):
    match = new_match()
    seq = open_game(match.id)

    with transaction.atomic():
        play(match.id, play(match.id, seq), QUIET)
        assert match_state(match)["seq"] == 5
        transaction.set_rollback(True)

    assert match_state(match) == stored_fold(match)
    assert match_state(match)["seq"] == 3


# -- The law: cached and uncached states never differ ---------------------------------------

actions = st.lists(
    st.one_of(
        st.tuples(st.just("shot"), st.sampled_from(sorted(SHOTS))),
        st.tuples(st.just("amend"), st.integers(0, 20), st.sampled_from(sorted(SHOTS))),
        st.tuples(st.just("retract")),
        st.tuples(st.just("next game")),
        st.tuples(st.just("look"), st.floats(0, 1), st.sampled_from(VIEWS)),
    ),
    max_size=25,
)


def act(match, action):
    """Record what an action asks for, if it is legal now; a look records nothing."""
    kind = action[0]
    if kind == "shot":
        random_play.act(match, "shot", shot=action[1])
    elif kind == "amend":
        random_play.act(match, "amend", action[1], action[2])
    elif kind in ("retract", "next game"):
        random_play.act(match, kind)


@settings(
    # Each example is a database round trip: a tenth of the profile's examples (tests/conftest.py).
    max_examples=max(1, settings.default.max_examples // 10),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(script=actions)
def test_cached_and_uncached_states_never_differ_while_events_are_appended(db, script):
    # Every example restores the database (a rollback) and reuses the match id, without
    # forget(): the snapshots must notice that the log is another one.
    with transaction.atomic():
        match = new_match(target=8, best_of=3)
        open_game(match.id)
        for action in script:
            act(match, action)
            head = store.head(match)[0]
            ups = [None, head] + ([round(action[1] * head)] if action[0] == "look" else [])
            views = [action[2]] if action[0] == "look" else VIEWS
            for upto in ups:
                for view in views:
                    cached = match_state(match, upto, view)
                    assert cached == match_state(match, upto, view, cached=False), (upto, view)
        head = store.head(match)[0]
        for upto in range(head + 1):
            for view in VIEWS:
                assert match_state(match, upto, view) == stored_fold(match, upto, view)
        transaction.set_rollback(True)
