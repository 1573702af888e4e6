"""A competition's zip with its own log, and `import_competition`: whole or not at all.

Beside `competition.json` and each match's record, a competition with stages, a log of
its own or any event has `log.json` (`carambole.competition-log/2`): the ruleset and
stages as its creator wrote them (the seal its chain starts from), every event of its
log with `seq`, `at`, `by`, `hash`, `hash_version` and its global `id`, the global id of
every event of each of its matches, and `id_offset`, how far imports moved those ids
from the ones its hashes cover. An import keeps those ids, so the versions, and every
view as of a version, are the same as where it was written; into a database whose log
has passed them already, every id moves by one offset, in the same order, and the
import says by how much. Ids that, kept, would pass LARGEST_ID move back to follow the
log instead, so that no import takes the log's sequence where recording would run out
of ids. A file of version 1 (every hash of version 1, no offset) is read as before.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction

from matches import store
from matches.domain.bounded_zip import MIB, BoundedZip, ZipLimits, naming_file
from matches.domain.chain import FIRST_HASH_VERSION, positions_of
from matches.domain.competition_log import fold_competition_log
from matches.domain.errors import Refused, excerpt
from matches.domain.log_document import LARGEST_ID, LogDocument, parse_log_document
from matches.domain.notation import (
    SLUG,
    expect_federation_id,
    expect_object,
    expect_text,
    load_json,
)
from matches.models import NAME_LENGTH, USERNAME_LENGTH, Competition, Entry, Match
from matches.records import (
    COMPETITION_DOCUMENT,
    COMPETITION_FORMAT,
    Checked,
    record_check,
    record_store,
)
from matches.services import competition_create
from matches.services.competition_log import Kept, log_read, log_store
from matches.services.competitions import check_text, player_of

LOG_DOCUMENT = "log.json"  # its name in a competition's zip
LOG_FORMAT = "carambole.competition-log/2"
LOG_FORMATS = ("carambole.competition-log/1", LOG_FORMAT)  # what an import reads
# What an import inflates of a competition's zip at most: a match record of 5,000 events
# (the most a match has) is a few megabytes, a competition of a few hundred matches some
# tens (README, "Importing a zip").
COMPETITION_ZIP = ZipLimits("a competition's zip", member=32 * MIB, total=256 * MIB)


def competition_log_document(competition: Competition) -> dict[str, Any] | None:
    """Return `log.json` of a competition (None for one with no stages, no log of its own
    and no event yet): every competition's versions come back the same from its zip."""
    logged = log_read(competition.pk)
    order: dict[str, list[int]] = {}
    for match_id, event_id in store.competition_event_ids(competition.pk):
        order.setdefault(match_id, []).append(event_id)
    if competition.stages is None and not logged and not order:
        return None
    return {
        "format": LOG_FORMAT,
        "competition": competition.pk,
        "ruleset": competition.ruleset,
        "stages": competition.stages,
        "id_offset": competition.id_offset,
        "events": [
            {"id": entry.id, **entry.as_record(), "hash_version": entry.hash_version}
            for entry in logged
        ],
        "match_event_ids": order,
    }


@dataclass(frozen=True)
class CompetitionImported:
    """What an import stored: the competition, its matches and events, and the id offset."""

    competition_id: str
    matches: int
    events: int
    offset: int  # added to every global id (0: the versions are those of the archive)


def competition_import(path: Any, *, by: str = "import") -> CompetitionImported:
    """Import a competition's zip whole, or refuse it (naming the file and field)."""
    check_text(by, "by", USERNAME_LENGTH, required=True)
    with BoundedZip(path, COMPETITION_ZIP) as archive:
        with naming_file(COMPETITION_DOCUMENT):
            document = _document(archive, COMPETITION_DOCUMENT)
            if document.get("format") != COMPETITION_FORMAT:
                raise Refused(f"must be {COMPETITION_FORMAT}", "format")
            if not isinstance(document.get("id"), str) or not SLUG.match(document["id"]):
                raise Refused("must be a slug (letters, digits, - _ .)", "id")
            check_text(document.get("name"), "name", NAME_LENGTH)
            schedule = _list(document.get("schedule"), "schedule")
        log = None
        if LOG_DOCUMENT in archive:
            with naming_file(LOG_DOCUMENT):
                found = _document(archive, LOG_DOCUMENT)
                if found.get("format") not in LOG_FORMATS:
                    raise Refused(f"must be {LOG_FORMAT}", "format")
                log = parse_log_document(found)
        records = []
        for index, entry in enumerate(schedule):
            name = entry.get("record") if isinstance(entry, Mapping) else None
            if not isinstance(name, str) or name not in archive:
                raise Refused(
                    f"names no record in the zip: {excerpt(name)}",
                    f"{COMPETITION_DOCUMENT}: schedule[{index}].record",
                )
            with naming_file(name):
                checked = record_check(_document(archive, name), by=by)
                if checked.record.match.get("competition") != document["id"]:
                    raise Refused("must be the competition's id", "match.competition")
            records.append((name, checked))
    if log is not None:
        _check_ids_for(log, [checked for _, checked in records])
    players = _players(document) if log is None or log.stages is None else []
    with transaction.atomic():
        store.lock_log()
        return _store(document, log, records, players)


def _check_ids_for(log: LogDocument, records: list[Checked]) -> None:
    """Refuse a log whose ids are not those of the schedule's events, one for each."""
    events = {checked.match_id: len(checked.facts) for checked in records}
    for match_id, ids in log.match_event_ids.items():
        field = f"{LOG_DOCUMENT}: match_event_ids.{match_id[:40]}"
        if match_id not in events:
            raise Refused("names no match of the schedule", field)
        if len(ids) != events[match_id]:
            raise Refused(f"gives {len(ids)} ids to its {events[match_id]} events", field)
    for match_id, count in events.items():
        if count and match_id not in log.match_event_ids:
            raise Refused(
                "gives no id to its events", f"{LOG_DOCUMENT}: match_event_ids.{match_id}"
            )


def _store(
    document: Mapping[str, Any],
    log: LogDocument | None,
    records: list[tuple[str, Checked]],
    players: list[dict[str, Any]],
) -> CompetitionImported:
    competition_id = document["id"]
    if Competition.objects.filter(pk=competition_id).exists():
        raise Refused(
            f"competition {excerpt(competition_id)} is stored already",
            f"{COMPETITION_DOCUMENT}: id",
        )
    with naming_file(LOG_DOCUMENT if log else COMPETITION_DOCUMENT):
        competition = competition_create(
            id=competition_id,
            name=document["name"],
            ruleset=log.ruleset if log else _overrides(document),
            stages=log.stages if log else None,
        )
    by_match = log.match_event_ids if log else {}
    offset = _offset(log) if log is not None else 0
    try:
        if log is not None:
            competition.id_offset = log.id_offset + offset
            competition.save(update_fields=["id_offset"])
            _log_store(competition, log, offset)
        events = 0
        for name, checked in records:
            ids = by_match.get(checked.match_id)
            with naming_file(name):
                record_store(checked, ids=[i + offset for i in ids] if ids else None)
            events += len(checked.facts)
    except IntegrityError:
        raise Refused("an event's id is taken: import into another database", "id") from None
    if log is not None and log.largest[0]:
        store.ids_taken_up_to(log.largest[0] + offset)
    _entries(competition, players, log)
    logged = len(log.events) if log else 0
    return CompetitionImported(competition.pk, len(records), events + logged, offset)


def _log_store(competition: Competition, log: LogDocument, offset: int) -> None:
    """Store the competition's own log, each event with its stamp, its id moved, its hash's
    version and its position."""
    stamps = [store.Stamp(by=e["by"], at=e["at"], hash=e["hash"]) for e in log.events]
    kept = _kept(log.events, log.match_event_ids, offset, competition.id_offset)
    try:
        log_store(competition, log.bodies(), stamps, kept)
    except Refused as error:  # naming the event of log.json, not the field of its body
        index = (error.seq or 1) - 1
        field = f"{LOG_DOCUMENT}: events[{index}].{error.field}"
        raise Refused(error.message, field, error.seq) from None


def _offset(log: LogDocument) -> int:
    """Return what to add to every id of a log: 0 to keep them; past this database's log
    when it has passed the first; back to follow it when, kept, they would pass LARGEST_ID.

    So an import never leaves the log's sequence past LARGEST_ID, and recording always has
    room after it; a zip whose ids span more than fits below LARGEST_ID is refused.
    """
    if not log.first_id:
        return 0
    head = store.log_head()
    largest, field = log.largest
    offset = max(0, head + 1 - log.first_id)
    if largest + offset > LARGEST_ID:
        offset = head + 1 - log.first_id
    if largest + offset > LARGEST_ID:
        raise Refused(
            f"is {largest - log.first_id:,} past the first id: after this database's log "
            f"(at {head:,}) the ids would pass {LARGEST_ID:,}, the most an import stores",
            f"{LOG_DOCUMENT}: {field}",
        )
    return offset


def _players(document: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Return the players of a competition without stages, each checked as an entry."""
    players = []
    with naming_file(COMPETITION_DOCUMENT):
        for index, written in enumerate(_list(document.get("players"), "players")):
            player = expect_object(written, f"players[{index}]")
            name = expect_text(player.get("name"), f"players[{index}].name", longest=NAME_LENGTH)
            entry = {"name": name}
            federation_id = expect_federation_id(
                player.get("federation_id"), f"players[{index}].federation_id"
            )
            if federation_id:
                entry["federation_id"] = federation_id
            players.append(entry)
    return players


def _entries(
    competition: Competition, players: list[dict[str, Any]], log: LogDocument | None
) -> None:
    """Enter the players: with their seeds and withdrawals in stages, else as listed."""
    if log is None or log.stages is None:
        with naming_file(COMPETITION_DOCUMENT):
            for index, player in enumerate(players):
                Entry.objects.get_or_create(
                    competition=competition,
                    player=player_of(player, f"players[{index}]"),
                    entered_by="import",
                )
        return
    competition_log = fold_competition_log(log.bodies())
    # A match a decision voided reads void, as it did where it was exported.
    Match.objects.filter(pk__in=list(competition_log.replaced)).update(status=Match.Status.VOID)
    for entrant in competition_log.entrants.values():
        with naming_file(LOG_DOCUMENT):
            entered = player_of(entrant.record(), "events")
        Entry.objects.create(
            competition=competition,
            player=entered,
            seed=entrant.seed,
            withdrawn=entrant.withdrawn,
            entered_by="import",
        )


def _overrides(document: Mapping[str, Any]) -> dict[str, Any]:
    ruleset = document.get("ruleset")
    return dict(ruleset) if isinstance(ruleset, Mapping) else {}


def _kept(
    logged: list[dict[str, Any]], by_match: Mapping[str, list[int]], offset: int, id_offset: int
) -> list[Kept]:
    """Return each event of an imported log as it is kept: its id here (the file's moved by
    `offset`), its hash's version and its position (those ids less the competition's)."""
    matches = [(match_id, i + offset) for match_id, ids in by_match.items() for i in ids]
    positions = positions_of([event["id"] + offset for event in logged], matches, id_offset)
    kept = []
    for event, position in zip(logged, positions, strict=True):
        version = event.get("hash_version", FIRST_HASH_VERSION)  # checked with the log
        kept.append(Kept(position.id + id_offset, version, position))
    return kept


def _document(archive: BoundedZip, name: str) -> dict[str, Any]:
    """Return a JSON document of the zip, or refuse it: the caller names the file."""
    try:
        text = archive.read(name).decode()
    except UnicodeDecodeError:
        raise Refused("is not UTF-8 text") from None
    found = load_json(text)
    if not isinstance(found, dict):
        raise Refused("must be an object")
    return found


def _list(value: Any, field: str) -> list[Any]:
    if not isinstance(value, list):
        raise Refused("must be a list", field)
    return value
