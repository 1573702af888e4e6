"""The cache of the matches folded by the process that records them: always the fold of the log."""

import copy
from contextlib import contextmanager

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matches import services, store
from matches.domain.errors import Refused
from matches.domain.fold import fold
from matches.domain.render import SCOREBOARD, render
from matches.services import running
from tests.support.builders import BY, CAROM_A, QUIET, new_match, open_game, play
from tests.support.random_play import KINDS, SHOTS, act, as_b


def stored_fold(match):
    return fold(match.header(), store.load_facts(match))


def board_of(state):
    return {key: state[key] for key in SCOREBOARD}


@contextmanager
def appended_elsewhere(match_id):
    """Append as another process would: this one's cached state stays as it was before."""
    before = copy.deepcopy(running.STATES.get(match_id))
    yield
    if before is not None:
        running.STATES.set(match_id, before)


def cached_state(match_id):
    found = running.STATES.get(match_id)
    return None if found is None else render(found.state)


def test_a_committed_append_caches_the_match_folded_to_its_new_head(
    db, django_capture_on_commit_callbacks
):
    match = new_match()
    with django_capture_on_commit_callbacks(execute=True):
        seq = open_game(match.id)
        play(match.id, seq, CAROM_A)

    assert cached_state(match.id) == stored_fold(match)
    assert cached_state(match.id)["seq"] == 4


def test_a_rolled_back_append_caches_nothing(db, django_capture_on_commit_callbacks):
    match = new_match()
    with django_capture_on_commit_callbacks(execute=True):
        seq = open_game(match.id)
    with transaction.atomic():
        play(match.id, seq, CAROM_A)
        transaction.set_rollback(True)

    assert cached_state(match.id) is None  # popped for the append, never set again
    assert play(match.id, seq, QUIET) == 4  # folded from the log again
    assert store.head(match)[0] == 4


def test_a_refused_event_leaves_the_cached_state_as_it_was(db, django_capture_on_commit_callbacks):
    match = new_match()
    with django_capture_on_commit_callbacks(execute=True):
        seq = open_game(match.id)
    before = cached_state(match.id)

    with pytest.raises(Refused):
        services.shot_record(match_id=match.id, expected_seq=seq, by=BY, facts=QUIET, player="B")

    assert cached_state(match.id) == before == stored_fold(match)


def test_an_append_elsewhere_is_noticed_by_the_head_and_folded_from_the_log(
    db, django_capture_on_commit_callbacks
):
    match = new_match()
    with django_capture_on_commit_callbacks(execute=True):
        seq = open_game(match.id)
    with appended_elsewhere(match.id):
        seq = play(match.id, seq, CAROM_A)
    assert cached_state(match.id)["seq"] == 3

    with django_capture_on_commit_callbacks(execute=True):
        recorded = services.shot_record(
            match_id=match.id, expected_seq=seq, by=BY, facts=as_b(QUIET)
        )

    assert board_of(recorded.state) == board_of(stored_fold(match))
    assert cached_state(match.id) == stored_fold(match)


def test_a_cached_state_of_another_log_as_long_is_not_used_for_this_one(
    db, django_capture_on_commit_callbacks
):
    """A database restored from a backup may hold another log of the same length."""
    match = new_match()
    with django_capture_on_commit_callbacks(execute=True):
        seq = open_game(match.id)
    with transaction.atomic():
        with django_capture_on_commit_callbacks(execute=True):
            play(match.id, seq, CAROM_A)  # cached: A scored
        transaction.set_rollback(True)
    with appended_elsewhere(match.id):
        seq = play(match.id, seq, QUIET)  # the log's own event 4: nobody scored
    assert cached_state(match.id)["games"][0]["score"]["A"] > 0

    with django_capture_on_commit_callbacks(execute=True):
        recorded = services.shot_record(
            match_id=match.id, expected_seq=seq, by=BY, facts=as_b(QUIET)
        )

    assert recorded.state["games"][0]["score"] == {"A": 0, "B": 0}
    assert cached_state(match.id) == stored_fold(match)


def test_no_more_matches_are_cached_than_the_bound_the_least_recently_recorded_left_out(
    db, django_capture_on_commit_callbacks, monkeypatch
):
    monkeypatch.setattr(running.STATES, "maxsize", 2)
    for number in range(3):
        match = new_match(f"cup-a-{number}")
        with django_capture_on_commit_callbacks(execute=True):
            open_game(match.id)

    assert running.STATES.report().size == 2
    assert [cached_state(f"cup-a-{number}") is not None for number in range(3)] == [
        False,
        True,
        True,
    ]


# -- The law: an answer from a cached state is an answer from a fold from scratch -------------

actions = st.lists(
    st.tuples(
        st.sampled_from(KINDS),
        st.integers(0, 20),
        st.sampled_from(sorted(SHOTS)),
        st.booleans(),  # appended by another process: this one does not cache its state
    ),
    max_size=25,
)


@settings(
    # Each example is a database round trip: a tenth of the profile's examples (tests/conftest.py).
    max_examples=max(1, settings.default.max_examples // 10),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(script=actions)
def test_every_answer_and_cached_state_equals_the_fold_of_the_log(
    db, django_capture_on_commit_callbacks, script
):
    # Every example restores the database (a rollback) and reuses the match id, the cache
    # left as it is: a state cached from another example's log must not be used for this one's.
    with transaction.atomic():
        match = new_match(target=8, best_of=3)
        with django_capture_on_commit_callbacks(execute=True):
            open_game(match.id)
        for action in script:
            elsewhere = action[3]
            if elsewhere:
                with appended_elsewhere(match.id):
                    recorded = act(match, *action[:3])
            else:
                with django_capture_on_commit_callbacks(execute=True):
                    recorded = act(match, *action[:3])
            state = stored_fold(match)
            if recorded is not None:
                assert recorded.seq == state["seq"]
                assert board_of(recorded.state) == board_of(state), action
            cached = running.STATES.get(match.id)
            if cached is not None and (cached.state.seq, cached.head) == store.head(match):
                assert render(cached.state) == state, action  # what the next append would use
        transaction.set_rollback(True)
