"""Match records in and out: import (whole or not at all), export, and archive verification.

A competition is exported as a zip (`competition_export`): `competition.json`, its own
document (`carambole.competition/1`), and each match's record under `matches/`.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypedDict

from django.db.models import Count

from matches import store
from matches.domain.errors import NotFound, Refused, excerpt
from matches.domain.events import Record, parse_record
from matches.domain.fold import check_log, checked_log
from matches.domain.notation import CONFIRMED, RECORD_FORMAT, canonical_json, check_confirmed
from matches.domain.render import status
from matches.domain.rules import Ruleset
from matches.models import USERNAME_LENGTH, Competition, Match, Player
from matches.selectors import check_id, match_get
from matches.services import events_append, log_of, match_store
from matches.services.competitions import Place, check_text
from matches.store import Stamp, fact_of

if TYPE_CHECKING:  # django-stubs-ext is a development dependency
    from django_stubs_ext import WithAnnotations

COMPETITION_FORMAT = "carambole.competition/1"
COMPETITION_DOCUMENT = "competition.json"  # its name in a competition's zip
PLACE_KEYS = ("stage_id", "group", "slot")  # a match's place in its competition's stages


@dataclass(frozen=True)
class Imported:
    """What an import did to one match: created, extended by `appended` events, or unchanged."""

    match_id: str
    outcome: str
    appended: int


def record_import(obj: Any, *, by: str = "import") -> Imported:
    """Store one match record whole, extend the stored match, or refuse it naming the event."""
    return record_store(record_check(obj, by=by))


def record_store(checked: Checked, ids: Sequence[int] | None = None) -> Imported:
    """Store a checked record: create its match or extend it, or refuse a contradiction.

    `ids` (a competition's import) gives each of its events the global id it had.
    """
    record, facts = checked.record, checked.facts
    with log_of(checked.match_id, create=lambda: _create_match(record, checked.status)) as log:
        stored = [] if log.created else _stored_facts(log.match, record, checked.events)
        if len(facts) <= len(stored) and not log.created:
            return Imported(checked.match_id, "unchanged", 0)
        # The chain of the events a record carries is checked as they are stored.
        new = slice(len(stored), None)
        if facts[new]:
            events_append(
                log,
                facts[new],
                checked.stamps[new],
                status=checked.status,
                ids=ids[new] if ids is not None else None,
            )
    outcome = "created" if log.created else "extended"
    return Imported(checked.match_id, outcome, len(facts) - len(stored))


@dataclass(frozen=True)
class Checked:
    """A record checked whole, before the database is touched: what an import will store."""

    match_id: str
    record: Record
    facts: list[dict[str, Any]]  # the events as written, without their envelope
    events: list[dict[str, Any]]  # the events as checked (shots name their player)
    stamps: list[Stamp]
    status: str


def record_check(obj: Any, *, by: str = "import") -> Checked:
    """Return a record checked as an import checks it (shape, legality, stamps), or refuse it."""
    check_text(by, "by", USERNAME_LENGTH, required=True)
    record = parse_record(obj)
    match_id = record.match.get("id")
    if not match_id:
        raise Refused("a record names its match", "match.id")
    facts = [fact_of(e) for e in record.events]
    events, state = checked_log(record.header, facts)
    stamps = _stamps(record, by)
    return Checked(match_id, record, facts, events, stamps, status(state))


def _stamps(record: Record, by: str) -> list[Stamp]:
    """Return each event's stamp; a carried hash must come with the seq, at and by it seals."""
    stamps = []
    for seq, event in enumerate(record.events, start=1):
        if "hash" in event:
            for key in ("seq", "at", "by"):
                if key not in event:
                    raise Refused(f"an event that carries its hash carries its {key} too", key, seq)
        if "at" in event:
            try:
                store.parse_time(event["at"])
            except ValueError:
                raise Refused("must be an ISO 8601 time in UTC ending in Z", "at", seq) from None
        if CONFIRMED in event:
            try:
                # Against the time of the import when the record gives none (as it is stamped).
                check_confirmed(event, event.get("at") or store.now_text())
            except Refused as error:
                raise error.at(seq) from None
        stamps.append(Stamp(by=event.get("by", by), at=event.get("at"), hash=event.get("hash")))
    return stamps


def _create_match(record: Record, status: str) -> Match:
    header, match = record.header, record.match
    competition_id = match.get("competition") or "archive"
    competition, _ = Competition.objects.get_or_create(
        pk=competition_id, defaults={"name": competition_id}
    )
    referee = match.get("referee") or {}
    return match_store(
        id=match["id"],
        competition=competition,
        header=header,
        stage=_text(match.get("stage")),
        table=_text(match.get("table")),
        date=match.get("date"),
        referee_username=referee.get("username") or "",
        referee_name=referee.get("name") or "",
        status=status,
        field="match",
        place=Place(
            stage_id=_text(match.get("stage_id")),
            group=_text(match.get("group")),
            slot=_text(match.get("slot")),
        ),
    )


def _text(value: Any) -> str:
    """Return a header text as stored: a number as written, nothing (null) as empty."""
    return "" if value is None else str(value)


def _stored_facts(match: Match, record: Record, ours: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Return the stored events, refusing a record (its events as checked) that contradicts them."""
    header = match.header()
    if canonical_json(header.sealed()) != canonical_json(record.header.sealed()):
        raise Refused("players, balls or ruleset differ from the stored match", "match")
    rows = store.load(match)
    stored = check_log(header, [row.as_fact() for row in rows])
    for seq, (mine, theirs) in enumerate(zip(stored, ours, strict=False), start=1):
        if canonical_json(mine) != canonical_json(theirs):
            raise Refused("contradicts the stored match", "events", seq)
    for seq, (row, event) in enumerate(zip(rows, record.events, strict=False), start=1):
        # What the record says of who recorded an event, when, and its hash must agree too.
        for key, value in (("at", row.at), ("by", row.recorded_by), ("hash", row.hash)):
            if key in event and event[key] != value:
                raise Refused(f"differs from the stored event ({value})", key, seq)
    return stored


def record_export(match_id: str) -> dict[str, Any]:
    """Return a match's record, each event with seq, at, by and hash."""
    match = match_get(match_id)
    return {
        "format": RECORD_FORMAT,
        "match": record_header(match),
        "events": [event.as_record() for event in store.load(match)],
    }


def record_header(match: Match) -> dict[str, Any]:
    """Return the `match` object of a match's record: all that is said of it besides events."""
    header: dict[str, Any] = {"id": match.id, "competition": match.competition_id}
    for key in ("stage", "table", *PLACE_KEYS):
        if getattr(match, key):
            header[key] = getattr(match, key)
    if match.date:
        header["date"] = match.date.isoformat()
    if match.referee_username or match.referee_name:
        referee = {"name": match.referee_name}
        if match.referee_username:
            referee["username"] = match.referee_username
        header["referee"] = referee
    header.update(match.header().sealed())
    return header


class EventCount(TypedDict):
    """What a competition's export annotates a match with: how many events it has."""

    event_count: int


@dataclass(frozen=True)
class CompetitionExport:
    """What a competition's zip holds: `competition.json`, then its matches' records."""

    document: dict[str, Any]
    matches: Sequence[
        WithAnnotations[Match, EventCount]
    ]  # by date, then id: each one's record under competition_record_name


def competition_export(
    competition: Competition, leaving_out: Collection[str] = ()
) -> CompetitionExport:
    """Return a competition's document and the matches whose records go beside it (all but
    those `leaving_out` names: in neither)."""
    matches = list(
        Match.objects.filter(competition=competition)
        .exclude(pk__in=list(leaving_out))
        .annotate(event_count=Count("events"))
        .order_by("date", "id")
    )
    entrants = [entry.player for entry in competition.entries.select_related("player")]
    return CompetitionExport(competition_document(competition, matches, entrants), matches)


def competition_record_name(match_id: str) -> str:
    """Return the name of a match's record in its competition's zip."""
    return f"matches/{match_id}.json"


def competition_document(
    competition: Competition,
    matches: Sequence[WithAnnotations[Match, EventCount]],
    entrants: list[Player],
) -> dict[str, Any]:
    """Return `competition.json`: the competition, its players, its schedule, what is unplayed.

    Each match carries `event_count` (annotated): one without any is unplayed.
    """
    # Who is who, as the store knows them: a federation id, else a name alone (a tuple, so
    # that an id never meets a name: a player with the id "Bo" and one named Bo are two).
    players: dict[tuple[str, str], dict[str, Any]] = {}
    for player in entrants:
        players[_identity(player.as_record())] = player.as_record()
    schedule = []
    for match in matches:
        for side in ("A", "B"):
            entry = match.players[side]
            players.setdefault(_identity(entry), dict(entry))
        schedule.append(
            {
                "match": match.id,
                "stage": match.stage,
                "table": match.table,
                "date": match.date.isoformat() if match.date else None,
                "players": {side: dict(match.players[side]) for side in ("A", "B")},
                **{key: getattr(match, key) for key in PLACE_KEYS if getattr(match, key)},
                "status": match.status if match.event_count else "scheduled",
                "record": competition_record_name(match.id),
            }
        )
    staged = {"stages": competition.stages, "log": "log.json"} if competition.stages else {}
    return {
        "format": COMPETITION_FORMAT,
        "record_format": RECORD_FORMAT,
        "id": competition.id,
        "name": competition.name,
        "ruleset": Ruleset.from_overrides(competition.ruleset).as_dict(),
        **staged,
        "players": sorted(players.values(), key=lambda entry: entry["name"].casefold()),
        "schedule": schedule,
        # Matches created but not started: no event recorded yet.
        "unplayed": [entry["match"] for entry in schedule if entry["status"] == "scheduled"],
    }


def _identity(entry: Mapping[str, Any]) -> tuple[str, str]:
    federation_id = entry.get("federation_id")
    return ("id", federation_id) if federation_id else ("name", entry["name"])


def archive_verify(match_ids: list[str] | None = None) -> dict[str, list[tuple[int, str]]]:
    """Return each match's chain problems (empty lists for sound matches).

    Events whose match is gone (a database that does not enforce its foreign keys) are
    reported under the id they name.
    """
    matches = Match.objects.all().order_by("id")
    if match_ids:
        match_ids = [check_id(match_id, "id", "match") for match_id in match_ids]
        matches = matches.filter(pk__in=match_ids)
    results = {match.id: store.verify_chain(match) for match in matches}
    for match_id, (count, first, last) in store.orphaned_events(match_ids or None).items():
        events = (
            f"its {count} events (seq {first} to {last})"
            if count > 1
            else f"its event (seq {first})"
        )
        results[match_id] = [(first, f"the match is missing from the archive, not {events}")]
    missing = set(match_ids or ()) - set(results)
    if missing:
        raise NotFound(f"no match {excerpt(sorted(missing)[0])}", "id")
    return dict(sorted(results.items()))
