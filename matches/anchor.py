"""The archive's anchor: each match's and each competition's log's head, header digest
and global ids, to be kept outside the database.

The hash chain proves that a log's events follow one another, but whoever can write the
database can rewrite an event and compute the rest of its chain anew. An anchor,
published by the federation or kept elsewhere, pins each match and each competition's
log as it stood: `verify_archive --anchor FILE` proves the archive still extends it.
An anchor of version 1 pins the matches alone, without their global ids; it is still read.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Max

from matches import store
from matches.domain.chain import ids_digest
from matches.domain.errors import Refused
from matches.domain.notation import SLUG, UTC_TIME, canonical_json, expect_list, expect_object
from matches.models import Competition, Event, Match
from matches.records import record_header
from matches.services.competition_log import competition_seal, verify_log

FIRST_ANCHOR_FORMAT = "carambole.anchor/1"
ANCHOR_FORMAT = "carambole.anchor/2"
HEX64 = frozenset("0123456789abcdef")


def header_digest(match: Match) -> str:
    """Return the SHA-256 of the canonical JSON of what a record says of the match itself."""
    return hashlib.sha256(canonical_json(record_header(match))).hexdigest()


@dataclass
class _Head:
    """A log's last event as the anchor reads it, and the global ids of all its events."""

    seq: int = 0
    hash: str | None = None
    ids: list[int] = field(default_factory=list)

    def pinned(self) -> dict[str, Any]:
        return {"seq": self.seq, "hash": self.hash, "ids": ids_digest(self.ids)}


def _heads(log: str) -> dict[str, _Head]:
    """Return the head of each match's log (`log` "match") or competition's ("competition")."""
    heads: dict[str, _Head] = {}
    rows = (
        Event.objects.filter(**{f"{log}__isnull": False})
        .order_by(f"{log}_id", "seq")
        .values_list(f"{log}_id", "seq", "hash", "id")
    )
    for owner, seq, digest, event_id in rows.iterator(chunk_size=5000):
        head = heads.setdefault(owner, _Head())
        head.seq, head.hash = seq, digest
        head.ids.append(event_id)
    return heads


def anchor_make(now: str) -> dict[str, Any]:
    """Return the anchor of every match and competition's log: each one's id, last `seq`,
    that event's hash, the digest of its events' global ids, and its header's digest (a
    match) or its seal (a competition)."""
    heads = _heads("match")
    matches = [
        {"id": match.id, **heads.get(match.id, _Head()).pinned(), "header": header_digest(match)}
        for match in Match.objects.select_related("competition").order_by("id")
    ]
    logs = _heads("competition")
    competitions = [
        {"id": found.pk, **logs.get(found.pk, _Head()).pinned(), "seal": competition_seal(found)}
        for found in Competition.objects.order_by("pk")
    ]
    anchor: dict[str, Any] = {
        "format": ANCHOR_FORMAT,
        "made_at": now,
        "matches": matches,
        "competitions": competitions,
    }
    anchor["digest"] = anchor_digest(anchor)
    return anchor


def anchor_digest(anchor: dict[str, Any]) -> str:
    """Return the digest of an anchor (all but the digest): one line a federation can publish."""
    body = {k: v for k, v in anchor.items() if k != "digest"}
    return hashlib.sha256(canonical_json(body)).hexdigest()


@dataclass(frozen=True)
class Pinned:
    """One match, or one competition's log, as the anchor pins it.

    `header` is the digest of a match's header, or the seal of a competition's log;
    `ids` the digest of its events' global ids (None: an anchor of version 1 pins none).
    """

    id: str
    seq: int
    hash: str | None
    header: str
    ids: str | None = None


@dataclass(frozen=True)
class Anchored:
    """What an anchor pins: matches, and competitions' logs (None: version 1 pins none)."""

    matches: list[Pinned]
    logs: list[Pinned] | None = None


def anchor_parse(obj: Any) -> Anchored:
    """Return what an anchor pins, refusing one that is malformed or altered."""
    obj = expect_object(obj, "")
    if obj.get("format") not in (FIRST_ANCHOR_FORMAT, ANCHOR_FORMAT):
        raise Refused(f"must be {ANCHOR_FORMAT!r} (or {FIRST_ANCHOR_FORMAT!r})", "format")
    if not isinstance(obj.get("made_at"), str) or not UTC_TIME.match(obj["made_at"]):
        raise Refused("must be an ISO 8601 time in UTC ending in Z", "made_at")
    if obj.get("digest") != anchor_digest(dict(obj)):
        raise Refused("does not match the anchor: it was altered", "digest")
    if obj["format"] == FIRST_ANCHOR_FORMAT:
        return Anchored(_pinned(obj, "matches", "header", ids=False))
    return Anchored(_pinned(obj, "matches", "header"), _pinned(obj, "competitions", "seal"))


def _pinned(obj: dict[str, Any], key: str, sealed: str, ids: bool = True) -> list[Pinned]:
    pinned = []
    for index, raw in enumerate(expect_list(obj.get(key), key)):
        where = f"{key}[{index}]"
        raw = expect_object(raw, where)
        seq, digest = raw.get("seq"), raw.get("hash")
        if not isinstance(raw.get("id"), str) or not SLUG.match(raw["id"]):
            raise Refused(f"must be the id of one of the {key}", f"{where}.id")
        if isinstance(seq, bool) or not isinstance(seq, int) or seq < 0:
            raise Refused("must be a whole number from 0", f"{where}.seq")
        if (seq == 0) != (digest is None) or not (digest is None or _is_hash(digest)):
            raise Refused("must be the hash of event seq (none for seq 0)", f"{where}.hash")
        for digest_key in (sealed, "ids") if ids else (sealed,):
            if not _is_hash(raw.get(digest_key)):
                raise Refused("must be 64 lowercase hex digits", f"{where}.{digest_key}")
        pinned.append(Pinned(raw["id"], seq, digest, raw[sealed], raw["ids"] if ids else None))
    return pinned


def anchor_verify(anchored: Anchored) -> dict[str, list[str]]:
    """Return, for each pinned match (by its id) and competition's log (`competition ID`),
    how the archive fails to extend the anchor (if it does)."""
    problems = {entry.id: _match_problems(entry) for entry in anchored.matches}
    for entry in anchored.logs or []:
        problems[f"competition {entry.id}"] = _log_problems(entry)
    return problems


def _match_problems(entry: Pinned) -> list[str]:
    found = Match.objects.select_related("competition").filter(pk=entry.id).first()
    if found is None:
        return ["the match is missing from the archive"]
    failing = []
    if header_digest(found) != entry.header:
        failing.append("its header (players, competition, date, stage, table, referee) changed")
    failing += _head_problems(entry, Event.objects.filter(match=found))
    failing += [
        f"seq {seq}: {problem}" for seq, problem in store.verify_chain(found) if seq <= entry.seq
    ]
    return failing


def _log_problems(entry: Pinned) -> list[str]:
    found = Competition.objects.filter(pk=entry.id).first()
    if found is None:
        return ["the competition is missing from the archive"]
    failing = []
    try:
        sealed = competition_seal(found)
    except (TypeError, ValueError):
        sealed = None
    if sealed != entry.header:
        failing.append("its seal (ruleset or stages) changed")
    failing += _head_problems(entry, Event.objects.filter(competition=found))
    failing += [
        f"seq {seq}: {problem}" for seq, problem in verify_log(found) if 0 < seq <= entry.seq
    ]
    return failing


def _head_problems(entry: Pinned, log: Any) -> list[str]:
    """Say how a log's events up to the anchored seq differ from what the anchor pins."""
    failing = []
    if entry.seq:
        digest = log.filter(seq=entry.seq).values_list("hash", flat=True).first()
        if digest is None:
            failing.append(f"event seq {entry.seq} is missing")
        elif digest != entry.hash:
            failing.append(f"event seq {entry.seq} has another hash: an earlier event changed")
    if entry.ids is not None:
        ids = log.filter(seq__lte=entry.seq).order_by("seq").values_list("id", flat=True)
        if ids_digest(ids.iterator()) != entry.ids:
            failing.append(f"the global ids of its events up to seq {entry.seq} changed")
    return failing


@dataclass(frozen=True)
class Growth:
    """What the archive holds beyond an anchor: events after the anchored seqs, new matches
    and competitions."""

    events: dict[str, tuple[int, int]]  # each anchored log that grew: its first and last new seq
    matches: int  # matches the anchor does not name
    competitions: int  # competitions an anchor of version 2 does not name


def anchor_growth(anchored: Anchored) -> Growth:
    """Return what was added since the anchor: allowed, and for its keeper to check.

    The chain cannot tell an event appended by a database writer, its hash computed anew,
    from one recorded at the table; the anchor's keeper can, against the match as played.
    """
    events = _grown("match", {entry.id: entry.seq for entry in anchored.matches})
    new_matches = Match.objects.exclude(pk__in=[entry.id for entry in anchored.matches]).count()
    if anchored.logs is None:
        return Growth(events, new_matches, 0)
    logs = _grown("competition", {entry.id: entry.seq for entry in anchored.logs})
    events.update({f"competition {found}": seqs for found, seqs in logs.items()})
    pinned = [entry.id for entry in anchored.logs]
    return Growth(events, new_matches, Competition.objects.exclude(pk__in=pinned).count())


def _grown(log: str, anchored: dict[str, int]) -> dict[str, tuple[int, int]]:
    """Return each anchored match's or competition's log that grew: its first and last new seq."""
    heads = dict(
        Event.objects.filter(**{f"{log}_id__in": list(anchored)})
        .order_by()
        .values(f"{log}_id")
        .annotate(last=Max("seq"))
        .values_list(f"{log}_id", "last")
    )
    return {
        owner: (seq + 1, heads[owner])
        for owner, seq in sorted(anchored.items())
        if heads.get(owner, 0) > seq
    }


def _is_hash(value: Any) -> bool:
    return isinstance(value, str) and len(value) == 64 and HEX64.issuperset(value)
