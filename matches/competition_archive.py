"""A competition's zip with its own log, and `import_competition`: whole or not at all.

Beside `competition.json` and each match's record, a competition with stages, a log of
its own or any event has `log.json` (`carambole.competition-log/1`): the ruleset and
stages as its creator wrote them (the seal its chain starts from), every event of its
log with `seq`, `at`, `by`, `hash` and its global `id`, and the global id of every event
of each of its matches. An import keeps those ids, so the versions, and every view as of
a version, are the same as where it was written; into a database whose log has passed
them already, every id moves by one offset, in the same order, and the import says by
how much.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction

from matches import store
from matches.bounded_zip import MIB, BoundedZip, ZipLimits, naming_file
from matches.championship import book_of
from matches.errors import Refused, excerpt
from matches.models import USERNAME_LENGTH, Competition, Entry, Match
from matches.notation import load_json
from matches.records import (
    COMPETITION_DOCUMENT,
    COMPETITION_FORMAT,
    Checked,
    record_check,
    record_store,
)
from matches.services import competition_create
from matches.services.competition_log import log_read, log_store
from matches.services.competitions import check_text, player_of

LOG_DOCUMENT = "log.json"  # its name in a competition's zip
LOG_FORMAT = "carambole.competition-log/1"
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
        "events": [{"id": entry.id, **entry.as_record()} for entry in logged],
        "match_event_ids": order,
    }


def first_global_id(log: Mapping[str, Any]) -> int:
    """Return the smallest global id a competition's `log.json` keeps (0 for none)."""
    ids = [event["id"] for event in log.get("events", [])]
    ids += [i for found in (log.get("match_event_ids") or {}).values() for i in found]
    return min(ids, default=0)


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
        document = _document(archive, COMPETITION_DOCUMENT)
        if document.get("format") != COMPETITION_FORMAT:
            raise Refused(f"must be {COMPETITION_FORMAT}", f"{COMPETITION_DOCUMENT}: format")
        names = archive.names()
        log = _document(archive, LOG_DOCUMENT) if LOG_DOCUMENT in names else None
        if log is not None and log.get("format") != LOG_FORMAT:
            raise Refused(f"must be {LOG_FORMAT}", f"{LOG_DOCUMENT}: format")
        records = []
        for entry in _list(document.get("schedule"), f"{COMPETITION_DOCUMENT}: schedule"):
            name = entry.get("record") if isinstance(entry, Mapping) else None
            if not isinstance(name, str) or name not in names:
                raise Refused(f"names no record in the zip: {excerpt(name)}", "schedule")
            try:
                records.append(record_check(_document(archive, name), by=by))
            except Refused as error:
                raise Refused(f"{name}: {error.message}", error.field, error.seq) from None
    with transaction.atomic():
        store.lock_log()
        return _store(document, log, records)


def _store(
    document: Mapping[str, Any], log: Mapping[str, Any] | None, records: list[Checked]
) -> CompetitionImported:
    competition_id = document.get("id")
    if Competition.objects.filter(pk=competition_id).exists():
        raise Refused(f"competition {excerpt(competition_id)} is stored already", "id")
    competition = competition_create(
        id=competition_id,
        name=document.get("name"),
        ruleset=log["ruleset"] if log else _overrides(document),
        stages=log["stages"] if log else None,
    )
    logged = _list(log["events"], f"{LOG_DOCUMENT}: events") if log else []
    by_match = log["match_event_ids"] if log else {}
    every = [event["id"] for event in logged] + [i for ids in by_match.values() for i in ids]
    offset = max(0, store.log_head() + 1 - min(every)) if every else 0
    try:
        if logged:
            bodies = [_body(event) for event in logged]
            stamps = [store.Stamp(by=e["by"], at=e["at"], hash=e["hash"]) for e in logged]
            log_store(competition, bodies, stamps, [event["id"] + offset for event in logged])
        events = 0
        for checked in records:
            ids = by_match.get(checked.match_id)
            if log is not None and len(ids or []) != len(checked.facts):
                raise Refused(f"{LOG_DOCUMENT} gives no id to each of its events", checked.match_id)
            record_store(checked, ids=[i + offset for i in ids] if ids else None)
            events += len(checked.facts)
    except IntegrityError:
        raise Refused("an event's id is taken: import into another database", "id") from None
    if every:
        store.ids_taken_up_to(max(every) + offset)
    _entries(competition, document, logged)
    return CompetitionImported(competition.pk, len(records), events + len(logged), offset)


def _entries(
    competition: Competition, document: Mapping[str, Any], logged: list[dict[str, Any]]
) -> None:
    """Enter the players: with their seeds and withdrawals in stages, else as listed."""
    if competition.stages is None:
        for player in _list(document.get("players"), f"{COMPETITION_DOCUMENT}: players"):
            Entry.objects.get_or_create(
                competition=competition, player=player_of(player, "players"), entered_by="import"
            )
        return
    book = book_of([_body(event) for event in logged])
    # A match a decision voided reads void, as it did where it was exported.
    Match.objects.filter(pk__in=list(book.replaced)).update(status=Match.Status.VOID)
    for entrant in book.entrants.values():
        player = player_of(entrant.record(), "log")
        Entry.objects.create(
            competition=competition,
            player=player,
            seed=entrant.seed,
            withdrawn=entrant.withdrawn,
            entered_by="import",
        )


def _overrides(document: Mapping[str, Any]) -> dict[str, Any]:
    ruleset = document.get("ruleset")
    return dict(ruleset) if isinstance(ruleset, Mapping) else {}


def _body(event: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in event.items() if k not in ("id", "seq", "at", "by", "hash")}


def _document(archive: BoundedZip, name: str) -> dict[str, Any]:
    """Return a JSON document of the zip, or refuse it naming the file."""
    with naming_file(name):
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
