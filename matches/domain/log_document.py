"""`log.json` of a competition's zip, checked whole before an import stores anything.

Its shape (the ruleset and stages the chain is sealed with, each event with its
envelope, the global id of every event of its matches), every id, `seq` and seed within
what the database's columns and sequences hold, and its entries folded as the import
will fold them: what fails is refused naming the field (`events[3].id`). Pure Python:
no Django.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from matches.domain.chain import FIRST_HASH_VERSION, HASH_VERSIONS
from matches.domain.competition_log import CompetitionLog
from matches.domain.errors import Refused
from matches.domain.notation import (
    ENVELOPE,
    HASH,
    LONGEST,
    check_json,
    expect_federation_id,
    expect_list,
    expect_object,
    expect_text,
    utc_time,
)
from matches.domain.readback import FOLD_ERRORS

# A global id as the column holds it: a positive bigint.
LARGEST_BIGINT = 2**63 - 1
# The largest id an import stores (it moves a zip's ids below it when kept they would
# pass it): the largest number a record holds anywhere (`notation.LARGEST_NUMBER`),
# exact as a version in JavaScript, and so far below the largest bigint that the log's
# sequence keeps room for some 9.2 * 10^18 events to come after any import.
LARGEST_ID = 10**15
LARGEST_SEED = 10_000  # as staff may give one (`championships.seeded_enter`)
# The kinds of event a competition's log holds (README, "The competition's log").
LOG_KINDS = (
    "player_entered",
    "players_seeded",
    "player_withdrawn",
    "stage_drawn",
    "draw_undone",
    "dispute_decided",
    "players_moved",
)
KEYS = ("ruleset", "stages", "events", "match_event_ids")


@dataclass(frozen=True)
class LogDocument:
    """`log.json` checked: what its competition is sealed with, its events, their ids."""

    ruleset: dict[str, Any]
    stages: Any  # as its creator wrote them (checked when the competition is created)
    events: list[dict[str, Any]]  # each as written, with its envelope and its id
    match_event_ids: dict[str, list[int]]
    largest: tuple[int, str]  # the largest id it gives, and the field that gives it (0, "")
    id_offset: int  # how far imports moved its ids from those its hashes cover

    @property
    def first_id(self) -> int:
        """Return the smallest global id it keeps (0 for none)."""
        ids = [event["id"] for event in self.events]
        ids += [i for found in self.match_event_ids.values() for i in found]
        return min(ids, default=0)

    def bodies(self) -> list[dict[str, Any]]:
        """Return each event of the log as it is stored: no envelope, id or hash version."""
        dropped = ("id", "hash_version", *ENVELOPE)
        return [{k: v for k, v in e.items() if k not in dropped} for e in self.events]


def parse_log_document(obj: Any) -> LogDocument:
    """Return `log.json` checked whole, or refuse it naming the field."""
    document = expect_object(obj, "")
    for key in KEYS:
        if key not in document:
            raise Refused("is missing", key)
    ruleset = dict(expect_object(document["ruleset"], "ruleset"))
    if document["stages"] is not None:
        expect_list(document["stages"], "stages")
    ids = _Ids()
    events: list[dict[str, Any]] = []
    for index, written in enumerate(expect_list(document["events"], "events")):
        field = f"events[{index}]"
        event = dict(expect_object(written, field))
        _check_event(event, index + 1, field)
        ids.take(event["id"], f"{field}.id", after=events[-1]["id"] if events else 0)
        events.append(event)
    _fold(events)
    by_match = {}
    for match_id, found in expect_object(document["match_event_ids"], "match_event_ids").items():
        field = f"match_event_ids.{match_id[:40]}"
        previous = 0
        for index, event_id in enumerate(expect_list(found, field)):
            previous = ids.take(event_id, f"{field}[{index}]", after=previous)
        by_match[match_id] = list(found)
    id_offset = document.get("id_offset", 0)
    if type(id_offset) is not int or not _recorded_ids_fit(ids.given, id_offset):
        raise Refused(
            f"must be a whole number that, taken off each id, leaves it from 1 to "
            f"{LARGEST_BIGINT:,}",
            "id_offset",
        )
    return LogDocument(ruleset, document["stages"], events, by_match, ids.largest, id_offset)


def _recorded_ids_fit(ids: Mapping[int, str], id_offset: int) -> bool:
    """Say whether the ids the hashes cover (each id less `id_offset`) are ids a database
    gives. The offset is below 0 where an import moved the ids back, to follow its log."""
    if not ids:
        return abs(id_offset) <= LARGEST_BIGINT
    return 1 <= min(ids) - id_offset and max(ids) - id_offset <= LARGEST_BIGINT


class _Ids:
    """The ids a log gives, each once, each a bigint the column holds."""

    def __init__(self) -> None:
        self.given: dict[int, str] = {}
        self.largest = (0, "")

    def take(self, written: Any, field: str, after: int) -> int:
        value = _check_id(written, field)
        if value <= after:
            raise Refused(f"must be larger than the id before it ({after})", field)
        if value in self.given:
            raise Refused(f"is the id of {self.given[value]} too", field)
        self.given[value] = field
        if value > self.largest[0]:
            self.largest = (value, field)
        return value


def _check_id(value: Any, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= LARGEST_BIGINT:
        raise Refused(f"must be a whole number from 1 to {LARGEST_BIGINT:,}", field)
    return value


def _check_event(event: Mapping[str, Any], seq: int, field: str) -> None:
    """Refuse an event of the log whose envelope, kind or players a database cannot hold."""
    for key in ("id", "type", *ENVELOPE):
        if key not in event:
            raise Refused("is missing", f"{field}.{key}")
    _check_id(event["id"], f"{field}.id")
    version = event.get("hash_version", FIRST_HASH_VERSION)
    if type(version) is not int or version not in HASH_VERSIONS:
        choices = ", ".join(map(str, HASH_VERSIONS))
        raise Refused(f"must be one of {choices}", f"{field}.hash_version")
    check_json({k: v for k, v in event.items() if k != "id"}, field)  # what is stored
    if event["type"] not in LOG_KINDS:
        raise Refused(f"must be one of {', '.join(LOG_KINDS)}", f"{field}.type")
    if isinstance(event["seq"], bool) or event["seq"] != seq:
        raise Refused(
            f"must be {seq}: the events of a log are numbered 1, 2, 3, ...", f"{field}.seq"
        )
    if not isinstance(event["at"], str) or utc_time(event["at"]) is None:
        raise Refused("must be an ISO 8601 time in UTC ending in Z", f"{field}.at")
    expect_text(event["by"], f"{field}.by", longest=LONGEST["username"])
    if not isinstance(event["hash"], str) or not HASH.match(event["hash"]):
        raise Refused("must be 64 lowercase hex digits", f"{field}.hash")
    if event["type"] in ("player_entered", "player_withdrawn"):
        _check_player(event.get("player"), f"{field}.player")
    if event["type"] == "player_entered":
        _check_seed(event.get("seed"), f"{field}.seed")
    if event["type"] == "players_seeded":
        for index, seeded in enumerate(expect_list(event.get("seeds"), f"{field}.seeds")):
            where = f"{field}.seeds[{index}]"
            _check_player(expect_object(seeded, where).get("player"), f"{where}.player")
            _check_seed(seeded.get("seed"), f"{where}.seed")


def _check_player(value: Any, field: str) -> None:
    player = expect_object(value, field)
    expect_text(player.get("name"), f"{field}.name", longest=LONGEST["name"])
    expect_federation_id(player.get("federation_id"), f"{field}.federation_id")


def _check_seed(value: Any, field: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= LARGEST_SEED:
        raise Refused(f"must be a whole number from 1 to {LARGEST_SEED:,}", field)


def _fold(events: list[dict[str, Any]]) -> None:
    """Fold the entries as the import will enter them: each seed held by one player."""
    competition_log = CompetitionLog()
    for index, event in enumerate(events):
        try:
            competition_log.apply(event)
        except FOLD_ERRORS as error:
            raise Refused(
                f"cannot be folded ({type(error).__name__})", f"events[{index}]"
            ) from None
        seeds = [entrant.seed for entrant in competition_log.entrants.values()]
        if len(seeds) != len(set(seeds)):
            raise Refused("gives a seed another player holds", f"events[{index}]")
