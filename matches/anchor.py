"""The archive's anchor: each match's head and header digest, to be kept outside the database.

The hash chain proves that a match's events follow one another, but whoever can
write the database can rewrite an event and compute the rest of its chain anew.
An anchor, published by the federation or kept elsewhere, pins each match as it
stood: `verify_archive --anchor FILE` proves the archive still extends it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db.models import Max

from matches import store
from matches.errors import Refused
from matches.models import Event, Match
from matches.notation import SLUG, UTC_TIME, canonical_json, expect_list, expect_object
from matches.records import record_header

ANCHOR_FORMAT = "carambole.anchor/1"
HEX64 = frozenset("0123456789abcdef")


def header_digest(match: Match) -> str:
    """Return the SHA-256 of the canonical JSON of what a record says of the match itself."""
    return hashlib.sha256(canonical_json(record_header(match))).hexdigest()


def anchor_make(now: str) -> dict[str, Any]:
    """Return the anchor of every match: its id, last `seq`, that event's hash, header digest."""
    heads = {
        match_id: (seq, digest)
        for match_id, seq, digest in Event.objects.filter(match__isnull=False)
        .order_by("match_id", "seq")
        .values_list("match_id", "seq", "hash")
    }
    matches = []
    for match in Match.objects.select_related("competition").order_by("id"):
        seq, digest = heads.get(match.id, (0, None))
        entry = {"id": match.id, "seq": seq, "hash": digest, "header": header_digest(match)}
        matches.append(entry)
    anchor: dict[str, Any] = {"format": ANCHOR_FORMAT, "made_at": now, "matches": matches}
    anchor["digest"] = anchor_digest(anchor)
    return anchor


def anchor_digest(anchor: dict[str, Any]) -> str:
    """Return the digest of an anchor (all but the digest): one line a federation can publish."""
    body = {k: v for k, v in anchor.items() if k != "digest"}
    return hashlib.sha256(canonical_json(body)).hexdigest()


@dataclass(frozen=True)
class Pinned:
    """One match as the anchor pins it."""

    id: str
    seq: int
    hash: str | None
    header: str


def anchor_parse(obj: Any) -> list[Pinned]:
    """Return the matches an anchor pins, refusing one that is malformed or altered."""
    obj = expect_object(obj, "")
    if obj.get("format") != ANCHOR_FORMAT:
        raise Refused(f"must be {ANCHOR_FORMAT!r}", "format")
    if not isinstance(obj.get("made_at"), str) or not UTC_TIME.match(obj["made_at"]):
        raise Refused("must be an ISO 8601 time in UTC ending in Z", "made_at")
    if obj.get("digest") != anchor_digest(dict(obj)):
        raise Refused("does not match the anchor: it was altered", "digest")
    pinned = []
    for index, raw in enumerate(expect_list(obj.get("matches"), "matches")):
        where = f"matches[{index}]"
        raw = expect_object(raw, where)
        seq, digest = raw.get("seq"), raw.get("hash")
        if not isinstance(raw.get("id"), str) or not SLUG.match(raw["id"]):
            raise Refused("must be a match id", f"{where}.id")
        if isinstance(seq, bool) or not isinstance(seq, int) or seq < 0:
            raise Refused("must be a whole number from 0", f"{where}.seq")
        if (seq == 0) != (digest is None) or not (digest is None or _is_hash(digest)):
            raise Refused("must be the hash of event seq (none for seq 0)", f"{where}.hash")
        if not _is_hash(raw.get("header")):
            raise Refused("must be 64 lowercase hex digits", f"{where}.header")
        pinned.append(Pinned(raw["id"], seq, digest, raw["header"]))
    return pinned


def anchor_verify(pinned: Iterable[Pinned]) -> dict[str, list[str]]:
    """Return, for each pinned match, how the archive fails to extend the anchor (if it does)."""
    problems: dict[str, list[str]] = {}
    for entry in pinned:
        found = Match.objects.select_related("competition").filter(pk=entry.id).first()
        if found is None:
            problems[entry.id] = ["the match is missing from the archive"]
            continue
        failing = []
        if header_digest(found) != entry.header:
            failing.append("its header (players, competition, date, stage, table, referee) changed")
        if entry.seq:
            stored = Event.objects.filter(match=found, seq=entry.seq).values_list("hash", flat=True)
            digest = stored.first()
            if digest is None:
                failing.append(f"event seq {entry.seq} is missing")
            elif digest != entry.hash:
                failing.append(f"event seq {entry.seq} has another hash: an earlier event changed")
        for seq, problem in store.verify_chain(found):
            if seq <= entry.seq:
                failing.append(f"seq {seq}: {problem}")
        problems[entry.id] = failing
    return problems


@dataclass(frozen=True)
class Growth:
    """What the archive holds beyond an anchor: events after the anchored seqs, new matches."""

    events: dict[str, tuple[int, int]]  # each anchored match that grew: its first and last new seq
    matches: int  # matches the anchor does not name


def anchor_growth(pinned: Iterable[Pinned]) -> Growth:
    """Return what was added since the anchor: allowed, and for its keeper to check.

    The chain cannot tell an event appended by a database writer, its hash computed anew,
    from one recorded at the table; the anchor's keeper can, against the match as played.
    """
    anchored = {entry.id: entry.seq for entry in pinned}
    heads = dict(
        Event.objects.filter(match_id__in=list(anchored))
        .order_by()
        .values("match_id")
        .annotate(last=Max("seq"))
        .values_list("match_id", "last")
    )
    events = {
        match_id: (seq + 1, heads[match_id])
        for match_id, seq in sorted(anchored.items())
        if heads.get(match_id, 0) > seq
    }
    return Growth(events, Match.objects.exclude(pk__in=list(anchored)).count())


def _is_hash(value: Any) -> bool:
    return isinstance(value, str) and len(value) == 64 and HEX64.issuperset(value)
