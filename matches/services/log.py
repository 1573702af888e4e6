"""A match's log: the one append, and recording one event checked against the match.

`log_of` opens a match's log under the log lock; `events_append` is the only code
that appends, for a referee's event and an imported record alike, and announces
each committed append (`matches.signals.events_appended`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from django.db import transaction

from matches import store
from matches.domain.chain import header_hash
from matches.domain.errors import Conflict, NotFound, Refused, excerpt
from matches.domain.events import parse_event
from matches.domain.fold import decide, evolve, state_after
from matches.domain.header import Header
from matches.domain.notation import ENVELOPE, canonical_json
from matches.domain.render import scoreboard, status
from matches.domain.rules import PLAYERS
from matches.domain.state import RESULT_CONFIRMED, MatchState
from matches.models import IDEMPOTENCY_KEY_LENGTH, USERNAME_LENGTH, Event, Match
from matches.selectors import check_id, match_get
from matches.services import corrections, tables
from matches.services import running as running_states
from matches.services.competitions import check_text
from matches.signals import events_appended


@dataclass
class Log:
    """A match's log, open to append to: its last `seq` and the hash the next event chains to."""

    match: Match
    seq: int
    previous: str
    created: bool = False  # the match was stored in this transaction (an import)

    def expect(self, expected_seq: int) -> None:
        """Refuse an append that expected another `seq` to follow (someone recorded first)."""
        if self.seq != expected_seq:
            raise Conflict(self.seq)


@contextmanager
def log_of(match_id: str, create: Callable[[], Match] | None = None) -> Iterator[Log]:
    """Open a match's log to append to: one transaction, holding the log lock (taken once).

    SQLite's IMMEDIATE transactions hold its single write lock from BEGIN; PostgreSQL
    takes a transaction-scoped advisory lock. Either way the global id order of the
    log is the commit order, and the head read here stays the head until the commit.
    A match not stored yet is refused, or made by `create` (an import) in the same
    transaction.
    """
    check_id(match_id, "id", "match")
    with transaction.atomic():
        store.lock_log()
        found = store.opened(match_id)
        if found is not None:
            yield Log(*found)
        elif create is not None:
            match = create()
            yield Log(match, 0, header_hash(match.header()), created=True)
        else:
            raise NotFound.because("no_match", "id", id=excerpt(match_id))


def events_append(
    log: Log,
    events: Sequence[Mapping[str, Any]],
    stamps: Sequence[store.Stamp],
    *,
    status: str,
    idempotency_key: str | None = None,
    command_digest: str = "",
    ids: Sequence[int] | None = None,
) -> list[int]:
    """Append checked events to an open log: the one way an event reaches the log.

    Chains and stores the events, keeps the match's status, and announces the
    append once the transaction commits (`events_appended`).
    """
    match = log.match
    inserted = store.insert(
        match,
        log.seq,
        log.previous,
        events,
        stamps,
        idempotency_key=idempotency_key,
        command_digest=command_digest,
        ids=ids,
    )
    log.seq, log.previous = inserted.seqs[-1], inserted.head_hash
    if match.status != status:
        match.status = status
        match.save(update_fields=["status"])
    seqs = inserted.seqs
    transaction.on_commit(
        lambda: events_appended.send_robust(
            sender=Match, match_id=match.pk, competition_id=match.competition_id, seqs=seqs
        )
    )
    return seqs


@dataclass(frozen=True)
class Recorded:
    """The answer to a recorded event: its `seq` and the scoreboard after it, with its ruling.

    The scoreboard is the part of the match state a live message carries (`SCOREBOARD`):
    its size does not grow with the match. The full state is a read of the match away.
    """

    seq: int
    at: str  # when it was recorded, as the event's `at`
    state: dict[str, Any]
    replayed: bool = False  # the idempotency key was seen before: nothing was appended


def event_record(
    *,
    match_id: str,
    expected_seq: int,
    event: Mapping[str, Any],
    by: str,
    idempotency_key: str | None = None,
    staff: bool = False,
    pin_checked: bool = False,
) -> Recorded:
    """Check one event against the match as it stands and append it after `expected_seq`.

    In a competition in stages its consequences follow through the draw in the same
    transaction (`corrections.follow`); one that would dispute a started match is staff's
    alone (`staff`: the login recording it is staff). A player's confirmation of the
    result comes only through `result_confirm`, which checks their PIN (`pin_checked`)."""
    if isinstance(expected_seq, bool) or not isinstance(expected_seq, int) or expected_seq < 0:
        raise Refused("must be a whole number from 0", "expected_seq")
    if (
        isinstance(event, Mapping)
        and event.get("type") == RESULT_CONFIRMED
        and event.get("role") in PLAYERS
        and not pin_checked
    ):
        raise Refused("a player confirms with their PIN, on the confirmations path", "role")
    check_text(by, "by", USERNAME_LENGTH, required=True)
    if idempotency_key is not None:
        check_text(idempotency_key, "Idempotency-Key", IDEMPOTENCY_KEY_LENGTH)
    idempotency_key = idempotency_key or None  # an empty key is no key
    command = {"expected_seq": expected_seq, "event": event}
    digest = hashlib.sha256(_json_of(command, "event")).hexdigest()
    with log_of(match_id) as log:
        match = log.match
        if idempotency_key:
            earlier = Event.objects.filter(match=match, idempotency_key=idempotency_key).first()
            if earlier is not None:
                return _replayed(match, earlier, digest)
        log.expect(expected_seq)
        if log.seq == 0 or match.status == Match.Status.VOID:
            corrections.first_event_check(match)
        header = match.header()
        running = _running(match, header, log)
        try:
            checked = _checked(running, event)
        except Refused:
            running_states.state_set(match.pk, running, log.previous)  # unchanged by a refusal
            raise
        if log.seq == 0:
            tables.table_pin(match)  # the record's table: the match's table at its first event
        # What the match counted for in its stage before the event (the fold changes in place).
        was = corrections.played_of(match, running) if match.stage_id else None
        running = evolve(running, checked)  # the match as it stands now, one event more
        at = store.now_text()
        events_append(
            log,
            [checked],
            [store.Stamp(by=by, at=at)],
            status=status(running),
            idempotency_key=idempotency_key,
            command_digest=digest,
        )
        if was is not None:
            corrections.follow(match, was, running, checked, by, staff)
        pk, head = match.pk, log.previous
        transaction.on_commit(lambda: running_states.state_set(pk, running, head))
        board = scoreboard(running, checked)
    return Recorded(seq=expected_seq + 1, at=at, state=board)


@dataclass(frozen=True)
class Previewed:
    """An event checked against its match as recording would check it, stored nowhere: the
    match before it, the event as it would be stored, and the match after it."""

    match: Match
    before: MatchState
    event: dict[str, Any]
    after: MatchState


def event_preview(*, match_id: str, expected_seq: Any, event: Mapping[str, Any]) -> Previewed:
    """Check one event against the match as it stands, as `event_record` would (409 on a
    stale `expected_seq`, 422 on an illegal event), and store nothing."""
    if isinstance(expected_seq, bool) or not isinstance(expected_seq, int) or expected_seq < 0:
        raise Refused("must be a whole number from 0", "expected_seq")
    match = match_get(match_id)
    seq, head = store.head(match)
    if seq != expected_seq:
        raise Conflict(seq)
    header = match.header()
    before = running_states.state_get(match.pk, header, seq, head)
    if before is None:
        before = state_after(header, store.load_facts(match))
    checked = _checked(before, event)
    return Previewed(match, before, checked, evolve(before.copy(), checked))


def _running(match: Match, header: Header, log: Log) -> MatchState:
    """Return the match folded up to its head: cached by this process, or folded from the log."""
    cached = running_states.state_pop(match.pk, header, log.seq, log.previous)
    if cached is not None:
        return cached
    return state_after(header, store.load_facts(match))


def _json_of(value: Any, field: str) -> bytes:
    """Return the canonical JSON of a command, refusing what JSON cannot carry."""
    try:
        return canonical_json(value)
    except UnicodeEncodeError:  # a lone surrogate
        raise Refused("is not valid Unicode text", field) from None
    except RecursionError:
        raise Refused("is nested too deeply", field) from None
    except (TypeError, ValueError):
        raise Refused("is not JSON", field) from None


def _checked(running: MatchState, event: Mapping[str, Any]) -> dict[str, Any]:
    """Return the new event as it will be stored, judged against the match as it stands."""
    seq = running.seq + 1
    if not isinstance(event, Mapping):
        raise Refused.because("not_object", "event")
    for key in ENVELOPE:
        if key in event and key != "seq":
            raise Refused.because("set_by_server", key, seq)
    return decide(running, parse_event(event, running.header, seq))


def _replayed(match: Match, earlier: Event, digest: str) -> Recorded:
    if earlier.command_digest != digest:
        raise Refused.because("idempotency_reused", "Idempotency-Key", earlier.seq)
    events = store.load_facts(match, upto=earlier.seq)
    # The first answer: the scoreboard as it was right after that event.
    state = state_after(match.header(), events)
    return Recorded(earlier.seq, earlier.at, scoreboard(state, events[-1]), replayed=True)
