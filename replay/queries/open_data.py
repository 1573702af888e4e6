"""The archive as open data: one dated, versioned zip of everything, and its import.

`carambole-open-data-YYYY-MM-DD.zip` holds every competition's zip (as its page
downloads it: the competition, its own log where it has one, every match's record), the
register of players and their ids, the ratings as of the day and every rating before it,
a manifest (format, day, the log's version, counts), a README saying what each file is,
and SHA256SUMS, the checksum of each. A `.sha256` file beside the zip checks the zip.
Imported into an empty database (`import_open_data`), the projector then works out the
same standings, brackets and ratings from the records: they are in the records, not in
the export.
"""

from __future__ import annotations

import hashlib
import io
import zipfile
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

import orjson
from django.db import transaction

from matches import store
from matches.competition_archive import (
    COMPETITION_ZIP,
    LOG_DOCUMENT,
    competition_import,
    competition_log_document,
)
from matches.domain.bounded_zip import MIB, BoundedZip, ZipLimits, member_name, naming_file
from matches.domain.chain import IDS_HASHED
from matches.domain.errors import Refused
from matches.domain.log_document import LARGEST_BIGINT, parse_log_document
from matches.domain.notation import load_json
from matches.models import Competition, Match, Player
from matches.records import (
    COMPETITION_DOCUMENT,
    competition_export,
    competition_record_name,
    record_check,
    record_export,
)
from replay.models import PlayerRating
from replay.queries.csv_cells import CsvWriter
from replay.queries.player_keys import player_key
from replay.queries.ratings import ratings_on

OPEN_DATA_FORMAT = "carambole.open-data/1"
PREFIX = "carambole-open-data-"
SUMS = "SHA256SUMS"
MANIFEST = "manifest.json"
COMPETITIONS = "competitions/"
RATING_COLUMNS = ["place", "player", "player_id", "key", "rating", "deviation", "volatility"]
RATING_COLUMNS += ["matches", "last_played"]
# What an import inflates of an open-data zip at most: each file (a competition's zip, a
# CSV) within 512 MiB, and its files and the competitions' zips inside them within 4 GiB
# in all (README, "Importing a zip").
OPEN_DATA_ZIP = ZipLimits("an open-data zip", member=512 * MIB, total=4096 * MIB)
LISTING = 16 * MIB  # SHA256SUMS and the manifest: a line or a count for each file

README = """carambole open data, {day} (format {format}, the archive as of version {version})

Every match of the federation's archive, shot by shot, with its competitions, players and
ratings. Each file's SHA-256 is in SHA256SUMS (check them with `sha256sum -c SHA256SUMS`).

competitions/ID.carambole.zip   one zip a competition, as its page downloads it:
    competition.json            the competition (its ruleset, entrants, schedule);
    log.json                    its own log, where it has one (entries, seeds, draws,
                                withdrawals, decisions; each event with seq, at, by, hash
                                and its global id, and the global id of every event of
                                its matches): the versions of its stages and ranking;
    matches/ID.carambole.json   each match's record (format carambole.match/1): its
                                header and every event, hash-chained; its JSON Schema is
                                /schemas/match-record.json on any carambole server.
players.csv                     the register of players: their page's key, name and
                                federation id (empty for a player without one).
ratings.csv                     every rated player's Glicko-2 rating at the end of {day}.
ratings-history.csv             each player's rating after each day they played.
manifest.json                   this export's format, day, version and counts, and
                                the matches left out ("left_out"): a match whose record
                                cannot be read, whose hash chain is broken or whose
                                events do not fold is in no file, listed here with why
                                (its competition, "error", "field" and "seq"); and a
                                competition whose log's hashes cover such a match's
                                events, left out whole ("match": null).

Standings, brackets and ratings are not files of their own: they are worked out from the
records. Import the zip into an empty carambole database with
`python manage.py import_open_data FILE` to get them back, the same.
"""


@dataclass(frozen=True)
class OpenDataWritten:
    """An export written: the zip, its checksum file, and how much it holds."""

    path: Path
    checksum: Path
    competitions: int
    matches: int
    players: int
    left_out: list[dict[str, Any]]  # the matches an import would refuse, each with why


class UnreadableRecord(Refused):
    """A match of the competition whose record cannot be read: no zip with it missing."""

    def __init__(self, match: Match, error: Refused) -> None:
        super().__init__(f"match {match.id}: {error.message}", error.field)
        self.match, self.error = match, error


def competition_zip(competition: Competition) -> bytes:
    """Return a competition's zip: competition.json, log.json (if any) and every record
    (UnreadableRecord, naming the match, if one cannot be read)."""
    export = competition_export(competition)
    records = {}
    for match in export.matches:
        try:
            records[match.id] = record_export(match.id)
        except Refused as error:
            raise UnreadableRecord(match, error) from None
    return _zipped(competition, export.document, records)


@dataclass(frozen=True)
class SoundZip:
    """A competition's zip of the matches an import takes, and those left out, with why."""

    body: bytes | None  # None: the competition is left out whole
    matches: int
    left_out: list[dict[str, Any]]  # each {"competition", "match", "error", "field", "seq"}


def sound_competition_zip(competition: Competition) -> SoundZip:
    """Return a competition's zip for open data: a match whose record cannot be read, whose
    chain is broken or whose events do not fold (an import would refuse it, and with it
    the whole archive) is left out of it, its competition.json and log.json, and listed."""
    export = competition_export(competition)
    records, left_out = {}, []
    for match in export.matches:
        try:
            records[match.id] = sound_record(match)
        except Refused as error:
            left_out.append({"competition": competition.pk, "match": match.id, **error.as_dict()})
    left = [entry["match"] for entry in left_out]
    sealing = store.log_sealing(competition.pk, left, IDS_HASHED)
    if sealing is not None:  # without the match, the log's chain breaks: none of it goes
        why = "its log's hashes cover the events of a match left out: left out whole"
        whole = {"competition": competition.pk, "match": None, "error": why, "field": None}
        return SoundZip(None, 0, [*left_out, {**whole, "seq": sealing}])
    if left:
        export = competition_export(competition, leaving_out=left)
    body = _zipped(competition, export.document, records, leaving_out=left)
    return SoundZip(body, len(records), left_out)


def sound_record(match: Match) -> dict[str, Any]:
    """Return a match's record as an import takes it, or refuse naming its first fault: an
    event that cannot be read, a broken hash chain, or events the fold refuses."""
    record = record_export(match.id)
    for seq, problem in store.verify_chain(match)[:1]:
        raise Refused(f"its hash chain is broken: {problem}", None, seq)
    record_check(record)
    return record


def _zipped(
    competition: Competition,
    document: dict[str, Any],
    records: dict[str, dict[str, Any]],
    leaving_out: Sequence[str] = (),
) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(COMPETITION_DOCUMENT, download_json(document))
        log = competition_log_document(competition)
        if log is not None:
            ids = log["match_event_ids"]
            log["match_event_ids"] = {m: ids[m] for m in ids if m not in leaving_out}
            archive.writestr(LOG_DOCUMENT, download_json(log))
        for match_id, record in records.items():
            archive.writestr(competition_record_name(match_id), download_json(record))
    return buffer.getvalue()


def open_data_write(
    directory: Path, day: date, progress: Callable[[int], object] | None = None
) -> OpenDataWritten:
    """Write the open-data zip of `day` (and its .sha256) into `directory`."""
    files: dict[str, bytes] = {}
    matches = 0
    left_out: list[dict[str, Any]] = []
    for competition in Competition.objects.order_by("pk"):
        sound = sound_competition_zip(competition)
        if sound.body is not None:
            files[f"{COMPETITIONS}{competition.pk}.carambole.zip"] = sound.body
        matches += sound.matches
        left_out += sound.left_out
        if progress is not None:
            progress(1)
    players = list(Player.objects.order_by("pk"))
    files["players.csv"] = _csv(
        ["key", "name", "federation_id"],
        ([player_key(p.federation_id, p.pk), p.name, p.federation_id or ""] for p in players),
    )
    ratings = ratings_on(day)
    files["ratings.csv"] = _csv(
        RATING_COLUMNS, ([row[c] for c in RATING_COLUMNS] for row in ratings)
    )
    history = PlayerRating.objects.select_related("player").order_by("day", "player_id")
    files["ratings-history.csv"] = _csv(
        ["day", "key", "player", "rating", "deviation", "volatility", "matches"],
        (
            [
                row.day.isoformat(),
                player_key(row.player.federation_id, row.player_id),
                row.player.name,
                round(row.rating, 2),
                round(row.deviation, 2),
                round(row.volatility, 6),
                row.matches,
            ]
            for row in history
        ),
    )
    version = store.log_head()
    competitions = sum(1 for name in files if name.startswith(COMPETITIONS))
    manifest = {
        "format": OPEN_DATA_FORMAT,
        "day": day.isoformat(),
        "version": version,
        "competitions": competitions,
        "matches": matches,
        "players": len(players),
        "rated": len(ratings),
        "left_out": left_out,
    }
    files[MANIFEST] = download_json(manifest)
    files["README.txt"] = README.format(
        day=day.isoformat(), format=OPEN_DATA_FORMAT, version=version
    ).encode()
    files[SUMS] = "".join(
        f"{_sha256(body)}  {name}\n" for name, body in sorted(files.items())
    ).encode()
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{PREFIX}{day.isoformat()}.zip"
    partial = path.with_suffix(".zip.part")
    with zipfile.ZipFile(partial, "w", zipfile.ZIP_STORED) as archive:
        for name, body in files.items():
            archive.writestr(name, body)
    partial.replace(path)  # a reader never sees half a zip
    checksum = path.with_name(path.name + ".sha256")
    checksum.write_text(f"{_sha256(path.read_bytes())}  {path.name}\n")
    return OpenDataWritten(path, checksum, competitions, matches, len(players), left_out)


def left_out_line(entry: dict[str, Any]) -> str:
    """Return a match left out of an export as a line of the command's or the log's."""
    why = Refused(entry["error"], entry.get("field"), entry.get("seq"))
    if entry["match"] is None:
        return f"left out: competition {entry['competition']} ({why})"
    return f"left out: match {entry['match']} of {entry['competition']} ({why})"


@dataclass(frozen=True)
class OpenDataImported:
    """An import done: the competitions, matches and events stored."""

    competitions: int
    matches: int
    events: int


def open_data_import(path: Path, by: str = "open data") -> OpenDataImported:
    """Import an open-data zip whole or not at all, each file checked against SHA256SUMS
    first (the competitions with a log first, keeping their versions)."""
    with BoundedZip(path, OPEN_DATA_ZIP) as archive:
        names = archive.names()
        if SUMS not in names or MANIFEST not in names:
            raise Refused(f"an open-data zip has {SUMS} and {MANIFEST}", "zip")
        sums = _sums(archive.read(SUMS, most=LISTING).decode("utf-8", "replace"))
        for name in names:
            if name != SUMS and not name.startswith(COMPETITIONS):
                _check_sum(name, archive.sha256(name), sums)
        with naming_file(MANIFEST):
            _check_manifest(archive.read(MANIFEST, most=LISTING))
        competitions = [name for name in names if name.startswith(COMPETITIONS)]
        inflated = archive.size
        order = []
        for name in competitions:
            body = _competition_zip(archive, name, sums)
            with naming_file(name):
                first_id, size = _first_id(body)
            inflated += size
            if inflated > OPEN_DATA_ZIP.total:
                raise Refused(
                    f"takes what an open-data import inflates past "
                    f"{OPEN_DATA_ZIP.total // MIB} MiB in all",
                    name,
                )
            order.append((first_id, name))
        with transaction.atomic():  # the whole archive, or nothing of it
            done = []
            for _, name in sorted(order, key=lambda found: found[0]):
                body = _competition_zip(archive, name, sums)  # read again: one at a time
                with naming_file(name):
                    done.append(competition_import(io.BytesIO(body), by=by))
    return OpenDataImported(len(done), sum(d.matches for d in done), sum(d.events for d in done))


def _check_sum(name: str, digest: str, sums: dict[str, str]) -> None:
    if sums.get(name) != digest:
        raise Refused(f"{member_name(name)} does not match its checksum in {SUMS}", "zip")


def _check_manifest(body: bytes) -> None:
    """Refuse a manifest that is no JSON object of this format, or whose version is no id."""
    manifest = load_json(body)
    if not isinstance(manifest, dict):
        raise Refused("must be an object")
    if manifest.get("format") != OPEN_DATA_FORMAT:
        raise Refused(f"must be {OPEN_DATA_FORMAT}", "format")
    version = manifest.get("version")
    if (
        isinstance(version, bool)
        or not isinstance(version, int)
        or not 0 <= version <= LARGEST_BIGINT
    ):
        raise Refused(f"must be a whole number from 0 to {LARGEST_BIGINT:,}", "version")


def _competition_zip(archive: BoundedZip, name: str, sums: dict[str, str]) -> bytes:
    """Return a competition's zip from the open data, checked against its checksum."""
    body = archive.read(name)
    _check_sum(name, _sha256(body), sums)
    return body


def _first_id(body: bytes) -> tuple[tuple[int, int], int]:
    """Return where a competition's zip goes in the import (those with a log first, by the
    first global id they keep: each keeps its versions when nothing stored before has
    passed them) and what its members hold uncompressed."""
    with BoundedZip(body, COMPETITION_ZIP) as inner:
        if LOG_DOCUMENT not in inner:
            return (1, 0), inner.size
        with naming_file(LOG_DOCUMENT):
            log = parse_log_document(load_json(inner.read(LOG_DOCUMENT)))
        return (0, log.first_id), inner.size


def latest_exports(directory: Path) -> list[dict[str, Any]]:
    """Return the open-data zips in `directory`, the newest first, with size and checksum."""
    if not directory.is_dir():
        return []
    found = []
    for path in sorted(directory.glob(f"{PREFIX}*.zip"), reverse=True):
        checksum = path.with_name(path.name + ".sha256")
        found.append(
            {
                "name": path.name,
                "day": path.name.removeprefix(PREFIX).removesuffix(".zip"),
                "bytes": path.stat().st_size,
                "sha256": checksum.read_text().split()[0] if checksum.exists() else "",
            }
        )
    return found


def _sums(text: str) -> dict[str, str]:
    found = {}
    for line in text.splitlines():
        digest, _, name = line.partition("  ")
        if name:
            found[name] = digest
    return found


def _csv(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> bytes:
    """Return a CSV file of open data: a text a spreadsheet would compute is written as text."""
    buffer = io.StringIO()
    writer = CsvWriter(buffer, lineterminator="\n")
    writer.writerow(header)
    for row in rows:
        writer.writerow(row)
    return buffer.getvalue().encode("utf-8")


def download_json(document: Any) -> bytes:
    """Return a document as a download writes it: indented, ending in a newline."""
    return orjson.dumps(document, option=orjson.OPT_INDENT_2) + b"\n"


def _sha256(body: bytes) -> str:
    return hashlib.sha256(body).hexdigest()
