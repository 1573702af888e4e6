"""The event store: reading and writing `Event` rows; `services.events_append` is its one writer.

The read side's one door to the log: `log_after` (the global log in its order, for the
projector), `log_head`, and the reads of one match's events (`load_facts`, `load_chained`,
`load_events`, `head`, `hash_at`, `with_head`). Every row is decoded by
`readback.event_data`, so a corrupt one is refused the same way wherever it is read.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from contextlib import nullcontext
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cached_property
from typing import TYPE_CHECKING, Any, NamedTuple, TypedDict

from django.db import IntegrityError, connection, transaction
from django.db.models import Count, Max, Min, OuterRef, QuerySet, Subquery
from django.db.models.functions import Coalesce
from orjson import dumps

from matches.domain.chain import event_hash, header_hash
from matches.domain.errors import Conflict, Refused, excerpt
from matches.domain.notation import ENVELOPE, check_confirmed
from matches.domain.readback import event_data, events_data, unreadable_because
from matches.models import Event, Match

if TYPE_CHECKING:  # django-stubs-ext is a development dependency
    from django_stubs_ext import WithAnnotations

# Any constant will do: one advisory lock serialises every append to the log.
LOG_LOCK = 0x63617261


EVENTS_TABLE = Event._meta.db_table
LOAD_SQL = f"SELECT seq, data FROM {EVENTS_TABLE} WHERE match_id = %s AND seq > %s ORDER BY seq"
LOAD_UPTO_SQL = LOAD_SQL.replace("ORDER BY", "AND seq <= %s ORDER BY")
LOAD_CHAINED_SQL = LOAD_SQL.replace("SELECT seq, data", "SELECT seq, data, hash")
LOAD_EVENTS_SQL = LOAD_SQL.replace("SELECT seq, data", "SELECT seq, data, at, recorded_by, hash")
LOG_SQL = (
    "SELECT id, match_id, seq, type, data, hash, recorded_by, competition_id "
    f"FROM {EVENTS_TABLE} WHERE id > %s ORDER BY id LIMIT %s"
)


@dataclass(frozen=True)
class Stamp:
    """Who recorded an event and when; an imported event may bring its own `at` and `hash`."""

    by: str
    at: str | None = None
    hash: str | None = None


def now_text() -> str:
    """Return the current time as a record writes it: ISO 8601 in UTC with Z."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _datetime_column(vendor: str) -> Any:
    """Return how `recorded_at` is written: SQLite keeps naive UTC text, PostgreSQL a datetime."""
    if vendor == "sqlite":
        # As Django writes a DateTimeField there; the ORM reads it back as an aware datetime.
        return lambda moment: moment.replace(tzinfo=None).isoformat(" ")
    return connection.ops.adapt_datetimefield_value


def parse_time(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def lock_log() -> None:
    """Serialise appends (`services.log_of`) so the global id order is the commit order.

    SQLite's IMMEDIATE transactions already hold its single write lock; PostgreSQL
    takes a transaction-scoped advisory lock.
    """
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [LOG_LOCK])


def load(match: Match | str) -> list[Event]:
    """Return a match's events in order, refusing a log with an event missing."""
    events = list(Event.objects.filter(match=match).order_by("seq"))
    check_complete([event.seq for event in events])
    return events


def check_complete(seqs: Sequence[int], after: int = 0) -> None:
    """Refuse the events read after `seq` `after` unless they follow one another from there.

    A row deleted behind the store's back would shift every later event by one: the
    fold would number them anew and every page would name the wrong shot.
    """
    if list(seqs) == list(range(after + 1, after + 1 + len(seqs))):
        return  # the log as the store writes it, at the speed of a list's comparison
    for expected, seq in enumerate(seqs, start=after + 1):
        if seq > expected:
            raise Refused("the stored event is missing", None, expected)
        if seq < expected:  # only a seq 0: the column allows it, the log never writes it
            raise Refused("the stored event is out of the log's order", None, seq)


def load_facts(match: Match | str, after: int = 0, upto: int | None = None) -> list[dict[str, Any]]:
    """Return a match's events after `after` (up to `upto`) as the fold reads them.

    Without model objects. A stored row that is not a JSON object, or one missing, is
    refused naming its `seq`, never a traceback.
    """
    if upto is None:
        return _decoded(_rows(LOAD_SQL, match, after), after)
    return _decoded(_rows(LOAD_UPTO_SQL, match, after, upto), after)


def load_chained(match: Match | str, after: int = 0) -> list[tuple[dict[str, Any], str]]:
    """Return (event as the fold reads it, its hash) for each event after `after`."""
    rows = _rows(LOAD_CHAINED_SQL, match, after)
    return [(event, row[2]) for event, row in zip(_decoded(rows, after), rows, strict=True)]


class StoredEvent(NamedTuple):
    """One event of a match as stored: its data and its envelope (seq, at, by, hash).

    A named tuple: the replay makes one for each event of the match, and a frozen
    dataclass cost more to make than the row cost to read.
    """

    seq: int
    data: dict[str, Any]
    at: str
    by: str
    hash: str

    def as_record(self) -> dict[str, Any]:
        """Return the event as a match record writes it, with seq, at, by and hash."""
        return {"seq": self.seq, **self.data, "at": self.at, "by": self.by, "hash": self.hash}


def load_events(match: Match | str, after: int = 0, limit: int | None = None) -> list[StoredEvent]:
    """Return a match's events after `after` (at most `limit`), each with its envelope.

    Refused as `load_facts` refuses: a row missing or no JSON object, naming its `seq`.
    """
    if limit is None:
        rows = _rows(LOAD_EVENTS_SQL, match, after)
    else:
        rows = _rows(f"{LOAD_EVENTS_SQL} LIMIT %s", match, after, limit)
    datas = _decoded(rows, after)
    make = StoredEvent._make
    return [
        make((seq, data, at, by, digest))
        for (seq, _, at, by, digest), data in zip(rows, datas, strict=True)
    ]


def _decoded(rows: list[tuple[Any, ...]], after: int) -> list[dict[str, Any]]:
    """Return the event each (seq, data, ...) row holds, refusing one missing or no JSON object."""
    check_complete([row[0] for row in rows], after)
    return events_data(rows)


def _rows(sql: str, match: Match | str, *params: Any) -> list[tuple[Any, ...]]:
    # A plain cursor: rebuilding every state reads the whole log, and model rows
    # (or even values_list) cost more than the fold itself.
    match_id = match.pk if isinstance(match, Match) else match
    with connection.cursor() as cursor:
        cursor.execute(sql, [match_id, *params])
        rows: list[tuple[Any, ...]] = cursor.fetchall()  # a DB-API cursor's: untyped
        return rows


def hash_at(match: Match | str, seq: int) -> str | None:
    """Return the hash of a match's event `seq` (None when there is no such event)."""
    match_id = match.pk if isinstance(match, Match) else match
    found = Event.objects.filter(match_id=match_id, seq=seq).values_list("hash", flat=True)
    return found.first()


class Head(TypedDict):
    """What `with_head` annotates a match with: the `seq` of its last event (0 before any)."""

    head: int


def with_head(matches: QuerySet[Match]) -> QuerySet[WithAnnotations[Match, Head]]:
    """Return the matches annotated with `head`: the `seq` of each one's last event (0 before)."""
    last = Event.objects.filter(match=OuterRef("pk")).order_by("-seq").values("seq")[:1]
    return matches.annotate(head=Coalesce(Subquery(last), 0))


class LastEvent(TypedDict):
    """What `with_last_event` annotates a match with: its last event's `seq` and global id."""

    head: int
    last_id: int


def with_last_event(matches: QuerySet[Match]) -> QuerySet[WithAnnotations[Match, LastEvent]]:
    """Return the matches annotated with `head` and `last_id`: the `seq` and the global id
    of each one's last event (0 before any)."""
    last = Event.objects.filter(match=OuterRef("pk")).order_by("-seq")
    return matches.annotate(
        head=Coalesce(Subquery(last.values("seq")[:1]), 0),
        last_id=Coalesce(Subquery(last.values("id")[:1]), 0),
    )


# -- The global log, in its one order (the projector's) ---------------------------------


@dataclass(frozen=True)
class LoggedEvent:
    """One row of the global log, as the projector reads it: a match's event, or (with
    `match_id` None) an event of a competition's own log."""

    id: int
    match_id: str | None
    seq: int
    stored_type: str  # the type column: only to name a row whose data cannot be read
    data: str
    hash: str
    by: str
    competition_id: str | None = None

    def fact(self) -> dict[str, Any]:
        """Return the event as the fold reads it, or refuse a row that is no JSON object."""
        return event_data(self.data, self.seq)

    @cached_property
    def type(self) -> str:
        """Return the event's type as hashed (its data), never the column beside it."""
        kind: str = self.fact()["type"]
        return kind


def log_after(position: int, limit: int) -> list[LoggedEvent]:
    """Return up to `limit` events of the whole log after id `position`, in the log's order.

    Raw rows, decoded only when the projector folds them: a rebuild reads the whole log.
    """
    with connection.cursor() as cursor:
        cursor.execute(LOG_SQL, [position, limit])
        return [LoggedEvent(*row) for row in cursor.fetchall()]


def log_head() -> int:
    """Return the id of the newest event in the log (0 when empty)."""
    return Event.objects.order_by("-id").values_list("id", flat=True).first() or 0


def competition_newest(competition_id: str, upto: int | None = None) -> int:
    """Return the id of the newest event of a competition's log or its stage matches' logs
    (of those with an id up to `upto`, when given)."""
    own = Event.objects.filter(competition_id=competition_id)
    staged = Event.objects.filter(match__competition_id=competition_id, match__stage_id__gt="")
    if upto is not None:
        own, staged = own.filter(id__lte=upto), staged.filter(id__lte=upto)
    newest = [found.aggregate(newest=Max("id"))["newest"] or 0 for found in (own, staged)]
    return max(newest)


def competition_log_newest(competition_id: str) -> int:
    """Return the id of the newest event of a competition's own log (0 when it has none)."""
    own = Event.objects.filter(competition_id=competition_id)
    return own.aggregate(newest=Max("id"))["newest"] or 0


def log_sealing(competition_id: str, match_ids: Sequence[str], version: int) -> int | None:
    """Return the seq of the first event of a competition's log hashed at `version` or
    later and recorded after an event of these matches (such a hash covers the ids of its
    matches' events since the log's event before it), None when there is none."""
    first = Event.objects.filter(match_id__in=match_ids).order_by("id").values_list("id").first()
    if first is None:
        return None
    covering = Event.objects.filter(competition_id=competition_id, hash_version__gte=version)
    return covering.filter(id__gt=first[0]).order_by("seq").values_list("seq", flat=True).first()


def competition_event_ids(competition_id: str) -> list[tuple[str, int]]:
    """Return (match, global id) of every event of a competition's matches, by match and seq."""
    rows = Event.objects.filter(match__competition_id=competition_id).order_by("match_id", "seq")
    return [(match_id, event_id) for match_id, event_id in rows.values_list("match_id", "id")]


def recorded_at(event_id: int) -> datetime | None:
    """Return when an event (a global id) was recorded, None when there is none."""
    return Event.objects.filter(pk=event_id).values_list("recorded_at", flat=True).first()


def last_recorded(match_ids: Collection[str]) -> dict[str, datetime]:
    """Return when the last event of each of these matches was recorded.

    A plain statement: the projector asks on every batch that ends or amends an undated
    match, where the ORM's compiling would cost more than the fold of the match.
    """
    if not match_ids:
        return {}
    wanted = list(match_ids)
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT match_id, MAX(recorded_at) FROM {Event._meta.db_table} "
            f"WHERE match_id IN ({', '.join(['%s'] * len(wanted))}) GROUP BY match_id",
            wanted,
        )
        return {match_id: _recorded(last) for match_id, last in cursor.fetchall()}


def _recorded(value: datetime | str) -> datetime:
    # SQLite keeps `recorded_at` as naive UTC text (`_datetime_column`), which a plain
    # statement gives back as it is; PostgreSQL gives an aware datetime.
    return datetime.fromisoformat(value).replace(tzinfo=UTC) if isinstance(value, str) else value


def log_size() -> int:
    """Return how many events the whole log holds."""
    return Event.objects.count()


def opened(match_id: str) -> tuple[Match, int, str] | None:
    """Return a match with its head, or None: one statement, where an append would
    otherwise wait for two answers. Its competition is read when asked for (a match
    in stages asks; a plain match never does)."""
    found = next(iter(Match.objects.raw(OPENED_SQL, [match_id])), None)
    if found is None:
        return None
    head = vars(found)  # the statement's columns beyond the match's own
    if head["last_seq"] is None:
        return found, 0, header_hash(found.header())
    return found, head["last_seq"], head["last_hash"]


# A raw statement, its columns converted by the ORM: every append opens its match, and
# building the same statement from `select_related` and two `Subquery`s took the ORM
# 1.1 ms of a shot's 4 (the embedded venue's answer, a referee's wait).
_LAST = f"FROM {EVENTS_TABLE} WHERE match_id = m.id ORDER BY seq DESC LIMIT 1"
OPENED_SQL = (
    f"SELECT m.*, (SELECT seq {_LAST}) AS last_seq, (SELECT hash {_LAST}) AS last_hash"
    f" FROM {Match._meta.db_table} m WHERE m.id = %s"
)


def head(match: Match) -> tuple[int, str]:
    """Return the last `seq` of a match and the hash the next event chains to."""
    with connection.cursor() as cursor:
        cursor.execute(HEAD_SQL, [match.pk])
        last = cursor.fetchone()
    if last is None:
        return 0, header_hash(match.header())
    return last[0], last[1]


# A plain statement: a preview and an append ask it first.
HEAD_SQL = (
    f"SELECT seq, hash FROM {Event._meta.db_table} WHERE match_id = %s ORDER BY seq DESC LIMIT 1"
)


def fact_of(event: Mapping[str, Any]) -> dict[str, Any]:
    """Return an event without its envelope (seq, at, by, hash)."""
    return {k: v for k, v in event.items() if k not in ENVELOPE}


ENVELOPE_KEYS = frozenset(ENVELOPE)
INSERT_SQL = (
    f"INSERT INTO {Event._meta.db_table} (match_id, seq, type, data, recorded_at, at, "
    "recorded_by, idempotency_key, command_digest, hash) "
    "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT DO NOTHING"
)


# An archive's import keeps each event's global id, so that its versions stay the same.
INSERT_WITH_IDS_SQL = (
    f"INSERT INTO {Event._meta.db_table} (id, match_id, seq, type, data, recorded_at, at, "
    "recorded_by, idempotency_key, command_digest, hash) "
    "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT DO NOTHING"
)


def next_event_id() -> int:
    """Take the global id the next event will have, under the log lock: an event of a
    competition's log hashes its own id, so it knows it before its row is written."""
    table = Event._meta.db_table
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(f"SELECT nextval(pg_get_serial_sequence('{table}', 'id'))")
        else:  # the write lock is held: nothing else takes an id meanwhile
            cursor.execute(f"SELECT COALESCE(MAX(id), 0) + 1 FROM {table}")
        taken: int = cursor.fetchone()[0]
        return taken


def competition_match_events(competition_id: str, after: int = 0) -> list[tuple[str, int]]:
    """Return (match, global id) of each event of a competition's matches with an id past
    `after`, in the log's order."""
    rows = Event.objects.filter(match__competition_id=competition_id, id__gt=after).order_by("id")
    return list(rows.values_list("match_id", "id"))


def ids_taken_up_to(newest: int) -> None:
    """Move the events' id sequence past `newest` (after events stored with their ids)."""
    if connection.vendor != "postgresql":
        return  # SQLite's next id is past the largest one stored
    table = Event._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
            f"GREATEST(%s, (SELECT COALESCE(MAX(id), 1) FROM {table})))",
            [newest],
        )


@dataclass(frozen=True)
class Inserted:
    """The events just stored: their `seq`s and the hash the next event chains to."""

    seqs: list[int]
    head_hash: str


def insert(
    match: Match,
    after: int,
    previous: str,
    facts: Sequence[Mapping[str, Any]],
    stamps: Sequence[Stamp],
    idempotency_key: str | None = None,
    command_digest: str = "",
    ids: Sequence[int] | None = None,
) -> Inserted:
    """Store events after `seq` `after`, chained to `previous` and stamped.

    Only `services.events_append` calls this, inside a transaction holding the log lock.
    `ids` (an archive's import) gives each event the global id it had where it was written.
    As few statements as the backend allows: an archive import stores thousands of events.
    """
    if not connection.in_atomic_block:
        raise RuntimeError("insert() runs inside the caller's transaction")
    adapt = _datetime_column(connection.vendor)
    rows = []
    for offset, (fact, stamp) in enumerate(zip(facts, stamps, strict=True), start=1):
        seq = after + offset
        at = stamp.at or now_text()
        own = fact_of(fact) if ENVELOPE_KEYS.intersection(fact) else fact
        try:
            check_confirmed(own, at)  # here, where every event's `at` is final
        except Refused as error:
            raise error.at(seq) from None
        digest = event_hash(previous, {"seq": seq, **own, "at": at, "by": stamp.by})
        if stamp.hash is not None and stamp.hash != digest:
            raise Refused("hash does not match the chain", "hash", seq)
        first = offset == 1
        rows.append(
            (
                *((ids[offset - 1],) if ids is not None else ()),
                match.pk,
                seq,
                fact["type"],
                dumps({"type": fact["type"], **own}).decode(),
                adapt(parse_time(at)),
                at,
                stamp.by,
                idempotency_key if first else None,
                command_digest if first else "",
                digest,
            )
        )
        previous = digest
    # UNIQUE(match, seq) is the last word: someone appended without the log lock. On
    # PostgreSQL a row it refuses is skipped, not an error, so the transaction can still
    # read the head (it ends at its first error); SQLite's trigger refuses the colliding
    # row before the conflict clause is reached, and undoes that statement alone. One
    # event (a referee's) needs no savepoint, which would cost each append two more round
    # trips; several (an import) are undone together by one, so that the head read after
    # is the one that was there.
    guard = transaction.atomic() if len(rows) > 1 else nullcontext()
    try:
        with guard:
            stored = _insert_rows(rows, INSERT_WITH_IDS_SQL if ids is not None else INSERT_SQL)
            if stored != len(rows):
                raise _Collided
    except (_Collided, IntegrityError) as error:
        if isinstance(error, IntegrityError) and connection.vendor == "postgresql":
            raise  # not a collision: those are skipped there
        raise Conflict(head(match)[0]) from None
    return Inserted([row[1] for row in rows], previous)


def _insert_rows(rows: list[tuple[Any, ...]], statement: str) -> int:
    """Insert rows by as few statements as the backend's limit on parameters allows (one,
    for a referee's event); return how many were stored."""
    stored = 0
    most = (connection.features.max_query_params or 65535) // len(rows[0])
    head, one = statement.split(" VALUES ")
    values, conflict = one.split(") ", 1)
    with connection.cursor() as cursor:
        for start in range(0, len(rows), most):
            some = rows[start : start + most]
            listed = ", ".join([values + ")"] * len(some))
            cursor.execute(f"{head} VALUES {listed} {conflict}", [v for row in some for v in row])
            stored += cursor.rowcount
    return stored


class _Collided(Exception):
    """Fewer rows were stored than were inserted: another append holds their `seq`."""


def verify_chain(match: Match) -> list[tuple[int, str]]:
    """Return (seq, problem) for each event of a match that breaks its hash chain.

    A row that cannot be read is a problem too, never an exception: seq 0 names the
    match header (players, balls, ruleset), and the events after a bad row are still
    checked against the hashes their rows carry. So is a missing seq, and a column
    that says otherwise than the hashed event (the hash covers `seq`, the data, `at`
    and `by`; the `type` and `recorded_at` columns repeat what it covers).
    """
    problems: list[tuple[int, str]] = []
    previous: str | None
    try:
        previous = header_hash(match.header())
    except Refused as error:
        problems.append((0, f"header: {error.field}: {error.message}"))
        previous = None
    except (TypeError, ValueError, AttributeError, KeyError) as error:
        problems.append((0, f"header: cannot be read ({type(error).__name__}: {error})"))
        previous = None
    expected_seq = 1
    for event in Event.objects.filter(match=match).order_by("seq"):
        if event.seq > expected_seq:
            problems.append((expected_seq, missing_in_words(expected_seq, event.seq - 1)))
        elif event.seq < expected_seq:
            problems.append((event.seq, f"expected seq {expected_seq}"))
        expected_seq = event.seq + 1
        try:
            digest = event_hash(previous or "", event.as_record())
        except Refused:
            reason = unreadable_because(event.data_text) or "data cannot be read"
            problems.append((event.seq, reason))
        except (TypeError, ValueError, RecursionError) as error:
            problems.append((event.seq, f"data cannot be hashed: {error}"))
        else:
            if previous is not None and digest != event.hash:
                problems.append((event.seq, "hash does not match"))
            problems.extend((event.seq, problem) for problem in columns_disagree(event))
        previous = event.hash
    return problems


def missing_in_words(first: int, last: int) -> str:
    """Say which events are missing from a log: one, or a run of them."""
    if first == last:
        return f"event seq {first} is missing"
    return f"events seq {first} to {last} are missing"


def columns_disagree(event: Event) -> list[str]:
    """Say which stored column contradicts the event as hashed (none, as stored here)."""
    problems = []
    data = event.data
    if event.type != data.get("type"):
        problems.append(
            f"the type column ({excerpt(event.type)}) is not the hashed type "
            f"({excerpt(data.get('type'))})"
        )
    # Stored outside the data by the envelope's columns: in the data, a key would be hashed
    # but shown in the place of the column's value by whatever reads the data alone.
    for key in ENVELOPE:
        if key in data:
            problems.append(f"the data holds {key!r}, which only its column may hold")
    try:
        moment = parse_time(event.at)
    except ValueError:
        moment = None
    if moment is None or event.recorded_at != moment:
        problems.append(f"the recorded_at column is not the hashed at ({excerpt(event.at)})")
    return problems


def orphaned_events(match_ids: Sequence[str] | None = None) -> dict[str, tuple[int, int, int]]:
    """Return, for each match id that events name but no match has: how many, first, last seq."""
    rows = (
        Event.objects.filter(match__isnull=False)
        .exclude(match_id__in=Match.objects.values("pk"))
        .order_by()
    )
    if match_ids is not None:
        rows = rows.filter(match_id__in=match_ids)
    grouped = rows.values("match_id").annotate(n=Count("id"), first=Min("seq"), last=Max("seq"))
    return {row["match_id"]: (row["n"], row["first"], row["last"]) for row in grouped}
