"""The one write path: every event kind, optimistic concurrency, idempotency, refusals."""

import threading
import time
from collections import Counter

import pytest
from django.db import connection, connections, transaction

from matches import services, store
from matches.domain.errors import Conflict, NotFound, Refused
from matches.domain.fold import fold
from matches.domain.render import SCOREBOARD
from matches.models import Event, Match
from tests.support.builders import (
    BY,
    CAROM_A,
    LOWER_HALF,
    QUIET,
    UPPER_HALF,
    new_match,
    open_game,
    play,
)


def stored_types(match):
    return list(Event.objects.filter(match=match).order_by("seq").values_list("type", flat=True))


def state_of(match):
    """The match state after its last event, folded from the store."""
    return fold(match.header(), store.load_facts(match))


def board_of(state):
    return {key: state[key] for key in SCOREBOARD}


# -- Recording each kind of event ------------------------------------------------


def test_the_opening_records_the_lag_the_first_game_and_the_break_placement(scheduled_match):
    lag = services.lag_record(
        match_id=scheduled_match.id, expected_seq=0, by=BY, a={"distance": 90}, b={"distance": 150}
    )
    game = services.game_start(
        match_id=scheduled_match.id, expected_seq=1, by=BY, game=1, breaker="A"
    )
    placed = services.ball_place(
        match_id=scheduled_match.id,
        expected_seq=2,
        by=BY,
        ball="white",
        pos=LOWER_HALF,
        reason="break",
    )

    assert (lag.seq, game.seq, placed.seq) == (1, 2, 3)
    assert [(entry["seq"], entry["winner"]) for entry in state_of(scheduled_match)["lags"]] == [
        (1, "A")
    ]
    assert lag.state["status"] == "lag"
    assert game.state["games"][0]["breaker"] == "A"
    assert placed.state["positions"]["white"] == [700.0, 400.0]
    assert placed.state["next"]["player"] == "A"
    assert stored_types(scheduled_match) == ["lag", "game_started", "ball_placed"]


def test_a_shot_without_a_player_is_stored_naming_whoever_was_due(opened_and_shot):
    recorded = services.shot_record(match_id=opened_and_shot.id, expected_seq=4, by=BY, facts=QUIET)

    stored = Event.objects.get(match=opened_and_shot, seq=5)
    assert recorded.seq == 5
    assert stored.data["player"] == "B"
    assert state_of(opened_and_shot)["shots"][-1]["player"] == "B"
    assert stored.recorded_by == BY


def test_the_answer_is_the_scoreboard_after_the_event_with_the_ruling_of_its_shot(
    opened_and_shot,
):
    recorded = services.shot_record(match_id=opened_and_shot.id, expected_seq=4, by=BY, facts=QUIET)

    state = state_of(opened_and_shot)
    assert recorded.state == {**board_of(state), "ruling": state["shots"][-1]["ruling"]}
    assert "shots" not in recorded.state  # the same size however long the match


def test_the_answer_to_an_amendment_carries_the_amended_shots_new_ruling(opened_and_shot):
    recorded = services.ruling_amend(
        match_id=opened_and_shot.id, expected_seq=4, by=BY, shot=4, facts=CAROM_A, reason="video"
    )

    state = state_of(opened_and_shot)
    assert recorded.state == {**board_of(state), "ruling": state["shots"][0]["ruling"]}
    assert recorded.state["ruling"] != state["shots"][0]["original"]


EVENT_CASES = [
    pytest.param(
        services.shot_record,
        {"facts": QUIET, "player": "B"},
        "shot",
        lambda state: state["shots"][-1]["player"] == "B" and state["next"]["player"] == "A",
        id="shot",
    ),
    pytest.param(
        services.ruling_amend,
        {"shot": 4, "facts": CAROM_A, "reason": "video review"},
        "shot_amended",
        lambda state: state["shots"][0]["amended"] and state["games"][0]["score"]["A"] == 4,
        id="amendment",
    ),
    pytest.param(
        services.shot_retract,
        {"shot": 4, "reason": "entered twice"},
        "shot_retracted",
        lambda state: state["shots"][0]["retracted"] and state["next"]["player"] == "A",
        id="retraction",
    ),
    pytest.param(
        services.foul_record,
        {"player": "B", "code": "placement", "reason": "touched a ball"},
        "foul",
        lambda state: state["fouls"][0]["code"] == "placement" and state["next"]["ball_in_hand"],
        id="foul outside a stroke",
    ),
    pytest.param(
        services.balls_respot,
        {},
        "balls_respotted",
        lambda state: state["positions"]["red"] == [710.0, 2130.0],
        id="re-spot",
    ),
    pytest.param(
        services.intermission_record,
        {"minutes": 5},
        "intermission",
        lambda state: state["intermissions"] == [{"seq": 5, "minutes": 5}],
        id="intermission",
    ),
    pytest.param(
        services.game_forfeit,
        {"player": "B", "reason": "left without permission"},
        "game_forfeited",
        lambda state: state["games"][0]["winner"] == "A" and state["games"][0]["end"] == "forfeit",
        id="game forfeit",
    ),
    pytest.param(
        services.match_forfeit,
        {"player": "B", "reason": "refused to continue"},
        "match_forfeited",
        lambda state: state["winner"] == "A" and state["status"] == "finished",
        id="match forfeit",
    ),
]


@pytest.mark.parametrize(("verb", "fields", "kind", "holds"), EVENT_CASES)
def test_each_event_kind_is_appended_after_the_expected_seq(
    opened_and_shot, verb, fields, kind, holds
):
    recorded = verb(match_id=opened_and_shot.id, expected_seq=4, by=BY, **fields)

    assert recorded.seq == 5
    assert not recorded.replayed
    assert stored_types(opened_and_shot)[-1] == kind
    state = state_of(opened_and_shot)
    assert holds(state), state
    assert board_of(recorded.state) == board_of(state)
    assert store.verify_chain(opened_and_shot) == []


def test_the_match_status_follows_the_state_from_lag_to_playing_to_review_to_finished(db):
    match = new_match(target=4, best_of=1)

    def status():
        return Match.objects.get(pk=match.id).status

    services.lag_record(
        match_id=match.id, expected_seq=0, by=BY, a={"distance": 90}, b={"distance": 150}
    )
    assert status() == "lag"
    services.game_start(match_id=match.id, expected_seq=1, by=BY, game=1, breaker="A")
    assert status() == "playing"
    play(match.id, 2, CAROM_A)
    assert status() == "finished"
    # As amended, the only shot scored nothing: the game it won needs a referee's review.
    services.ruling_amend(
        match_id=match.id, expected_seq=3, by=BY, shot=3, facts=QUIET, reason="no carom"
    )
    assert status() == "review"
    services.ruling_amend(
        match_id=match.id, expected_seq=4, by=BY, shot=3, facts=CAROM_A, reason="carom after all"
    )
    assert status() == "finished"


# -- Optimistic concurrency --------------------------------------------------------------


def test_a_stale_expected_seq_is_a_conflict_naming_the_current_seq_and_appends_nothing(
    opened_and_shot,
):
    with pytest.raises(Conflict) as conflict:
        services.shot_record(match_id=opened_and_shot.id, expected_seq=3, by=BY, facts=QUIET)

    assert conflict.value.current_seq == 4
    assert Event.objects.filter(match=opened_and_shot).count() == 4


def test_an_expected_seq_ahead_of_the_match_is_a_conflict_too(opened_and_shot):
    with pytest.raises(Conflict) as conflict:
        services.shot_record(match_id=opened_and_shot.id, expected_seq=9, by=BY, facts=QUIET)

    assert conflict.value.current_seq == 4
    assert Event.objects.filter(match=opened_and_shot).count() == 4


def test_the_database_refuses_a_stale_insert_even_without_the_log_lock(opened_and_shot):
    previous = Event.objects.get(match=opened_and_shot, seq=2).hash
    with pytest.raises(Conflict) as conflict, transaction.atomic():
        store.insert(
            opened_and_shot, 2, previous, [{"type": "shot", **QUIET}], [store.Stamp(by=BY)]
        )

    assert conflict.value.current_seq == 4


def test_a_stale_insert_of_several_events_stores_none_of_them(opened_and_shot):
    previous = Event.objects.get(match=opened_and_shot, seq=3).hash
    facts = [{"type": "shot", **QUIET}] * 3  # seq 4 is taken; 5 and 6 are not
    with pytest.raises(Conflict) as conflict, transaction.atomic():
        store.insert(opened_and_shot, 3, previous, facts, [store.Stamp(by=BY)] * 3)

    assert conflict.value.current_seq == 4
    assert list(Event.objects.filter(match=opened_and_shot).values_list("seq", flat=True)) == [
        1,
        2,
        3,
        4,
    ]


# -- Idempotency ---------------------------------------------------------------


def test_the_same_idempotency_key_twice_returns_the_first_answer_and_appends_nothing(
    opened_and_shot,
):
    first = services.shot_record(
        match_id=opened_and_shot.id, expected_seq=4, by=BY, facts=QUIET, idempotency_key="tablet-1"
    )
    again = services.shot_record(
        match_id=opened_and_shot.id, expected_seq=4, by=BY, facts=QUIET, idempotency_key="tablet-1"
    )

    assert (first.seq, first.replayed) == (5, False)
    assert (again.seq, again.replayed) == (5, True)
    assert again.state == first.state
    assert Event.objects.filter(match=opened_and_shot).count() == 5


def test_a_repeated_key_returns_the_first_answer_even_after_later_events(opened_and_shot):
    first = services.shot_record(
        match_id=opened_and_shot.id, expected_seq=4, by=BY, facts=QUIET, idempotency_key="tablet-1"
    )
    play(opened_and_shot.id, 5)
    services.ruling_amend(
        match_id=opened_and_shot.id, expected_seq=6, by=BY, shot=4, facts=CAROM_A, reason="video"
    )

    again = services.shot_record(
        match_id=opened_and_shot.id, expected_seq=4, by=BY, facts=QUIET, idempotency_key="tablet-1"
    )

    assert (again.seq, again.replayed, again.state) == (5, True, first.state)
    assert Event.objects.filter(match=opened_and_shot).count() == 7


def test_the_same_key_with_another_body_is_an_idempotency_mismatch(opened_and_shot):
    services.shot_record(
        match_id=opened_and_shot.id, expected_seq=4, by=BY, facts=QUIET, idempotency_key="tablet-1"
    )

    with pytest.raises(Refused) as mismatch:
        services.shot_record(
            match_id=opened_and_shot.id,
            expected_seq=5,
            by=BY,
            facts=QUIET,
            idempotency_key="tablet-1",
        )

    assert mismatch.value.status == 422
    assert mismatch.value.as_dict() == {
        "error": mismatch.value.message,
        "field": "Idempotency-Key",
        "seq": 5,
        "code": "idempotency_reused",
        "params": {},
    }
    assert Event.objects.filter(match=opened_and_shot).count() == 5


def test_an_idempotency_key_is_scoped_to_its_match(opened_and_shot):
    other = new_match("cup-a-2")
    open_game(other.id)

    services.shot_record(
        match_id=opened_and_shot.id, expected_seq=4, by=BY, facts=QUIET, idempotency_key="tablet-1"
    )
    elsewhere = services.shot_record(
        match_id=other.id, expected_seq=3, by=BY, facts=QUIET, idempotency_key="tablet-1"
    )

    assert (elsewhere.seq, elsewhere.replayed) == (4, False)


# -- Refusals: named by seq and field, nothing stored -------------------------------------


# B misses and his yellow comes to rest in the lower half: A's ball in hand goes in the upper.
B_MISS_RESTING_LOW = {
    "contacts": [{"ball": "yellow", "hit": "cushion"}],
    "rest": {"yellow": [700, 600]},
}


def finished(match):
    services.match_forfeit(match_id=match.id, expected_seq=4, by=BY, player="B", reason="left")
    return 5


REFUSALS = [
    pytest.param(
        lambda m, seq: services.shot_record(
            match_id=m.id, expected_seq=seq, by=BY, facts=QUIET, player="A"
        ),
        None,
        "player",
        id="shot by the wrong player",
    ),
    pytest.param(
        lambda m, seq: services.shot_record(match_id=m.id, expected_seq=seq, by=BY, facts=QUIET),
        finished,
        "type",
        id="shot after the match ended",
    ),
    pytest.param(
        lambda m, seq: services.ball_place(
            match_id=m.id, expected_seq=seq, by=BY, ball="white", pos=LOWER_HALF, reason="in_hand"
        ),
        lambda m: play(m.id, 4, B_MISS_RESTING_LOW),
        "pos",
        id="ball in hand placed in the wrong half",
    ),
    pytest.param(
        lambda m, seq: services.ruling_amend(
            match_id=m.id, expected_seq=seq, by=BY, shot=2, facts=QUIET, reason="typo"
        ),
        None,
        "shot",
        id="amendment of an event that is not a shot",
    ),
    pytest.param(
        lambda m, seq: services.shot_retract(
            match_id=m.id, expected_seq=seq, by=BY, shot=4, reason="typo"
        ),
        lambda m: play(m.id, 4),
        "shot",
        id="retraction of a shot that is not the latest",
    ),
    pytest.param(
        lambda m, seq: services.ruling_amend(
            match_id=m.id, expected_seq=seq, by=BY, shot=4, facts=QUIET, reason="typo"
        ),
        lambda m: (
            services.shot_retract(match_id=m.id, expected_seq=4, by=BY, shot=4, reason="typo").seq
        ),
        "shot",
        id="amendment of a retracted shot",
    ),
    pytest.param(
        lambda m, seq: services.game_start(
            match_id=m.id, expected_seq=seq, by=BY, game=2, breaker="B"
        ),
        None,
        "game",
        id="game started while one is being played",
    ),
    pytest.param(
        lambda m, seq: services.shot_record(
            match_id=m.id, expected_seq=seq, by=BY, facts={"contacts": [{"ball": "white"}]}
        ),
        None,
        "contacts[0].hit",
        id="malformed shot",
    ),
]


@pytest.mark.parametrize(("command", "before", "field"), REFUSALS)
def test_an_illegal_event_is_refused_naming_its_seq_and_field_and_nothing_is_stored(
    opened_and_shot, command, before, field
):
    seq = before(opened_and_shot) if before else 4
    events_before = list(Event.objects.filter(match=opened_and_shot).values_list("pk", "hash"))
    status_before = Match.objects.get(pk=opened_and_shot.pk).status

    with pytest.raises(Refused) as refusal:
        command(opened_and_shot, seq)

    assert (refusal.value.seq, refusal.value.field) == (seq + 1, field), refusal.value
    assert refusal.value.status == 422
    assert refusal.value.as_dict()["seq"] == seq + 1
    assert (
        list(Event.objects.filter(match=opened_and_shot).values_list("pk", "hash")) == events_before
    )
    assert Match.objects.get(pk=opened_and_shot.pk).status == status_before


def test_a_placement_in_the_upper_half_at_the_break_is_refused(scheduled_match):
    services.lag_record(
        match_id=scheduled_match.id, expected_seq=0, by=BY, a={"distance": 90}, b={"distance": 150}
    )
    services.game_start(match_id=scheduled_match.id, expected_seq=1, by=BY, game=1, breaker="A")

    with pytest.raises(Refused) as refusal:
        services.ball_place(
            match_id=scheduled_match.id,
            expected_seq=2,
            by=BY,
            ball="white",
            pos=UPPER_HALF,
            reason="break",
        )

    assert refusal.value.as_dict() == {
        "error": refusal.value.message,
        "field": "pos",
        "seq": 3,
        "code": "wrong_half",
        "params": {"zone": "lower"},
    }
    assert Event.objects.filter(match=scheduled_match).count() == 2


def test_envelope_keys_are_set_by_the_server_not_the_client(opened_and_shot):
    with pytest.raises(Refused) as refusal:
        services.event_record(
            match_id=opened_and_shot.id,
            expected_seq=4,
            by=BY,
            event={"type": "shot", **QUIET, "hash": "0" * 64},
        )

    assert (refusal.value.field, refusal.value.seq) == ("hash", 5)


def test_an_unknown_match_is_not_found(db):
    with pytest.raises(NotFound) as missing:
        play("no-such-match", 0)

    assert missing.value.status == 404


def test_a_miss_gives_the_opponent_ball_in_hand_in_the_half_away_from_the_offender(opened_and_shot):
    recorded = services.shot_record(
        match_id=opened_and_shot.id, expected_seq=4, by=BY, facts=B_MISS_RESTING_LOW
    )

    assert recorded.state["next"] == {
        "game": 1,
        "player": "A",
        "ball_in_hand": True,
        "zone": "upper",
        "break": False,
    }


# -- Concurrency on real connections ------------------------------------------------------


def record_from_threads(match_ids, threads, shots_each):
    """Let each thread record its shots into the matches in turn, retrying on conflicts.

    Return the (match id, idempotency key, seq) of each successful call and any error.
    """
    done, errors = [], []
    lock = threading.Lock()
    start = threading.Barrier(threads)

    def referee(number):
        try:
            start.wait()
            for n in range(shots_each):
                match_id = match_ids[n % len(match_ids)]
                key = f"tablet-{number}-{n}"
                while True:
                    expected = store.head(Match.objects.get(pk=match_id))[0]
                    try:
                        recorded = play(match_id, expected, idempotency_key=key)
                    except Conflict:
                        continue
                    with lock:
                        done.append((match_id, key, recorded))
                    break
        except Exception as error:  # reported by the test, not lost in the thread
            with lock:
                errors.append(error)
        finally:
            connections.close_all()

    workers = [threading.Thread(target=referee, args=(n,)) for n in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=60)
    assert not any(worker.is_alive() for worker in workers), "a referee thread hung"
    return done, errors


def test_concurrent_referees_never_lose_or_duplicate_a_shot(event_db):
    match = new_match()
    open_game(match.id)
    threads, shots_each = 6, 5

    done, errors = record_from_threads([match.id], threads, shots_each)

    assert errors == []
    assert len(done) == threads * shots_each
    rows = list(
        Event.objects.filter(match=match).order_by("seq").values_list("seq", "idempotency_key")
    )
    assert [seq for seq, _ in rows] == list(range(1, 3 + threads * shots_each + 1))
    keys = Counter(key for _, key in rows if key)
    assert set(keys.values()) == {1}
    assert {(key, seq) for _, key, seq in done} == {(key, seq) for seq, key in rows if key}
    assert store.verify_chain(match) == []
    # The shots alternate A, B, A, ... whoever's thread won each race.
    players = [event.data["player"] for event in store.load(match) if event.type == "shot"]
    assert players == ["A", "B"] * (threads * shots_each // 2)


def test_the_global_id_order_is_the_commit_order_across_interleaved_matches(event_db):
    matches = [new_match("cup-a-1"), new_match("cup-a-2")]
    for match in matches:
        open_game(match.id)

    done, errors = record_from_threads([m.id for m in matches], threads=4, shots_each=6)

    assert errors == []
    for match in matches:
        ids = list(Event.objects.filter(match=match).order_by("seq").values_list("id", flat=True))
        assert ids == sorted(ids), "ids increase with seq within a match"
        assert store.verify_chain(match) == []
    everything = list(Event.objects.order_by("id").values_list("match_id", "seq"))
    assert len(everything) == 6 + 4 * 6
    # Tailing the whole log by id meets each match's events in seq order.
    for match in matches:
        seqs = [seq for match_id, seq in everything if match_id == match.id]
        assert seqs == list(range(1, len(seqs) + 1))


def wait_for_a_second_append_to_wait_on_the_log(seconds: float = 30) -> None:
    """Return once an append waits for the log's lock (PostgreSQL); fail after `seconds`."""
    deadline = time.monotonic() + seconds
    while True:
        with connection.cursor() as cursor:
            # This database's own: other databases of the server take advisory locks too.
            cursor.execute(
                "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
                " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
            )
            if cursor.fetchone()[0]:
                return
        assert time.monotonic() < deadline, f"no append waited on the log within {seconds} s"
        time.sleep(0.01)


def test_an_append_waits_for_an_uncommitted_append_to_another_match(event_db):
    """A later transaction cannot commit a higher id while an earlier one is still open."""
    first, second = new_match("cup-a-1"), new_match("cup-a-2")
    holding, release = threading.Event(), threading.Event()
    appending, finished_second = threading.Event(), threading.Event()
    errors = []

    def slow_referee():
        try:
            with transaction.atomic():
                services.lag_record(
                    match_id=first.id, expected_seq=0, by=BY, a={"distance": 1}, b={"distance": 2}
                )
                holding.set()
                release.wait(timeout=30)
        except Exception as error:
            errors.append(error)
        finally:
            connections.close_all()

    def quick_referee():
        try:
            holding.wait(timeout=30)
            appending.set()
            services.lag_record(
                match_id=second.id, expected_seq=0, by=BY, a={"distance": 1}, b={"distance": 2}
            )
            finished_second.set()
        except Exception as error:
            errors.append(error)
        finally:
            connections.close_all()

    workers = [threading.Thread(target=slow_referee), threading.Thread(target=quick_referee)]
    for worker in workers:
        worker.start()
    assert holding.wait(timeout=30) and appending.wait(timeout=30)
    if connection.vendor == "postgresql":  # the wait is visible there: seen, not hoped for
        wait_for_a_second_append_to_wait_on_the_log()
    blocked = not finished_second.wait(timeout=0.5)
    release.set()
    for worker in workers:
        worker.join(timeout=30)

    assert errors == []
    assert blocked, "the second append committed while the first was still open"
    first_id = Event.objects.get(match=first, seq=1).id
    second_id = Event.objects.get(match=second, seq=1).id
    assert first_id < second_id
