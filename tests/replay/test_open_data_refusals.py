"""An open-data zip that is not what an export writes: refused naming the file and the
field, nothing stored; a member larger than an import reads is refused before a byte of
it is inflated, its checksum right or not."""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
from collections.abc import Callable
from datetime import date

import pytest
from django.core.management import CommandError, call_command
from django.db import transaction
from hypothesis import event, given
from hypothesis import strategies as st

from matches.domain.bounded_zip import MIB, ZipLimits
from matches.models import Competition, Entry, Event, Match, Player
from matches.records import archive_verify
from matches.services.competition_log import verify_log
from replay.queries import open_data
from replay.queries.open_data import open_data_write
from tests.support.competition_zip import emptied
from tests.support.corrections import FLIPPED, amend, drawn_with_a_flip_to_come
from tests.support.hostile import SHORT_MESSAGE
from tests.support.league import dated_league, flip, win
from tests.support.projected import projected
from tests.support.zips import (
    MANGLING,
    garbled,
    mangled,
    mangled_files,
    members,
    sums_of,
    with_json,
    zipped,
)

EURO = "competitions/euro.carambole.zip"
_MADE: dict[str, bytes] = {}


@pytest.fixture
def export(db, tmp_path) -> bytes:
    """An open-data export of a league and a championship in stages, in an empty database:
    made once, by the first test that asks."""
    if "export" not in _MADE:
        first, second, *_ = dated_league()
        flip(first, win(first, "B"))
        win(second, "A")
        drawn_with_a_flip_to_come()
        amend(FLIPPED)
        projected()
        _MADE["export"] = open_data_write(tmp_path / "made", date(2026, 6, 1)).path.read_bytes()
        emptied()
    return _MADE["export"]


def counts() -> tuple[int, ...]:
    return tuple(model.objects.count() for model in (Competition, Match, Player, Entry, Event))


def resealed_files(files: dict[str, bytes]) -> dict[str, bytes]:
    """Return these files with SHA256SUMS that fits them."""
    return {**files, "SHA256SUMS": sums_of(files)}


def resealed(files: dict[str, bytes]) -> bytes:
    """Return an open-data zip of these files with SHA256SUMS that fits them."""
    return zipped(resealed_files(files), zipfile.ZIP_STORED)


def changed(name: str, change: Callable[[bytes], bytes]) -> Callable[[bytes], bytes]:
    """Change one file of an export, its checksum with it."""

    def rewrite(body: bytes) -> bytes:
        files = members(body)
        files[name] = change(files[name])
        return resealed(files)

    return rewrite


def manifest(value: object) -> Callable[[bytes], bytes]:
    return changed("manifest.json", lambda _: json.dumps(value).encode())


def manifest_with(**fields: object) -> Callable[[bytes], bytes]:
    return changed(
        "manifest.json", lambda body: json.dumps({**json.loads(body), **fields}).encode()
    )


def refused(path) -> str:
    """Run import_open_data, which must refuse the zip; return what it says."""
    with pytest.raises(CommandError) as error:
        call_command("import_open_data", str(path), stdout=io.StringIO())
    message = str(error.value)
    assert message.startswith(f"{path}: refused: "), message
    return message


HOSTILE = {
    "a manifest that is no JSON": (
        changed("manifest.json", lambda _: b"{'format'"),
        "manifest.json",
    ),
    "a manifest that is a list": (manifest([{"format": "carambole.open-data/1"}]), "manifest.json"),
    "a manifest of another format": (manifest_with(format="other/1"), "manifest.json: format"),
    "a version that is text": (manifest_with(version="12"), "manifest.json: version"),
    "a version that is true": (manifest_with(version=True), "manifest.json: version"),
    "a negative version": (manifest_with(version=-1), "manifest.json: version"),
    "a version past a bigint": (manifest_with(version=2**63), "manifest.json: version"),
    "a competition that is no zip": (changed(EURO, lambda _: b"PK\x03\x04 no zip"), f"{EURO}: zip"),
    "a competition whose log has a string id": (
        changed(EURO, lambda body: with_json(body, "log.json", _first_id_as_text)),
        f"{EURO}: log.json: events[0].id",
    ),
    "a competition whose log is a list": (
        changed(EURO, lambda body: with_json(body, "log.json", lambda log: [log])),
        f"{EURO}: log.json",
    ),
    "a competition with a NUL in its id": (
        changed(EURO, lambda body: with_json(body, "competition.json", _id_with_a_nul)),
        f"{EURO}: competition.json: id",
    ),
}


def _first_id_as_text(log: dict) -> None:
    log["events"][0]["id"] = str(log["events"][0]["id"])


def _id_with_a_nul(document: dict) -> None:
    document["id"] = "eu\x00ro"


@pytest.mark.parametrize("case", list(HOSTILE))
def test_a_hostile_open_data_zip_is_refused_naming_the_file_and_field(export, tmp_path, case):
    change, field = HOSTILE[case]
    path = tmp_path / "open-data.zip"
    path.write_bytes(change(export))

    message = refused(path)

    assert f"{field}: " in message
    assert counts() == (0, 0, 0, 0, 0)


def test_a_file_in_the_zip_twice_is_refused_naming_it(export, tmp_path):
    files = members(export)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as twice:
        for name, body in resealed_files(files).items():
            twice.writestr(name, body)
        with pytest.warns(UserWarning, match="Duplicate name"):
            twice.writestr("players.csv", files["players.csv"])
    path = tmp_path / "open-data.zip"
    path.write_bytes(buffer.getvalue())

    assert "players.csv: is in an open-data zip twice" in refused(path)
    assert counts() == (0, 0, 0, 0, 0)


GIB = 1024 * MIB


@pytest.fixture(scope="module")
def gibibyte_of_zeros(tmp_path_factory) -> tuple[bytes, str]:
    """A member of 1 GiB of zeros as deflate writes it (about 1 MB), and its SHA-256."""
    buffer = io.BytesIO()
    digest = hashlib.sha256()
    zeros = bytes(MIB)
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as archive:
        with archive.open("players.csv", "w", force_zip64=True) as member:
            for _ in range(GIB // MIB):
                member.write(zeros)
                digest.update(zeros)
    return buffer.getvalue(), digest.hexdigest()


def test_a_gibibyte_member_with_its_right_checksum_is_refused_before_it_is_inflated(
    export, tmp_path, gibibyte_of_zeros, monkeypatch
):
    bomb, digest = gibibyte_of_zeros
    files = members(export)
    del files["players.csv"]
    sums = sums_of(files).decode() + f"{digest}  players.csv\n"
    buffer = io.BytesIO(bomb)  # the member first, then the export's files beside it
    with zipfile.ZipFile(buffer, "a", zipfile.ZIP_STORED) as archive:
        for name, body in {**files, "SHA256SUMS": sums.encode()}.items():
            archive.writestr(name, body)
    path = tmp_path / "open-data.zip"
    path.write_bytes(buffer.getvalue())
    inflated: list[int] = []
    read = zipfile.ZipExtFile.read

    def counted(member: zipfile.ZipExtFile, size: int = -1) -> bytes:
        found = read(member, size)
        if member.name == "players.csv":
            inflated.append(len(found))
        return found

    monkeypatch.setattr(zipfile.ZipExtFile, "read", counted)

    message = refused(path)

    assert "players.csv: is 1,073,741,824 bytes uncompressed" in message
    assert "holds at most 512 MiB" in message
    assert sum(inflated) == 0
    assert counts() == (0, 0, 0, 0, 0)


def test_a_competition_s_zip_with_a_member_past_its_limit_is_refused_naming_both(export, tmp_path):
    files = members(export)
    inner = members(files[EURO])
    inner["matches/padding.json"] = b" " * (32 * MIB + 1)
    files[EURO] = zipped(inner)
    path = tmp_path / "open-data.zip"
    path.write_bytes(resealed(files))

    message = refused(path)

    assert f"{EURO}: matches/padding.json: is 33,554,433 bytes uncompressed" in message
    assert counts() == (0, 0, 0, 0, 0)


def test_the_competitions_zips_count_towards_what_an_open_data_import_inflates(
    export, tmp_path, monkeypatch
):
    files = members(export)
    path = tmp_path / "open-data.zip"
    path.write_bytes(resealed(files))
    outer = sum(len(body) for body in resealed_files(files).values())
    # Room for the files themselves, not for what the competitions' zips hold besides.
    monkeypatch.setattr(
        open_data, "OPEN_DATA_ZIP", ZipLimits("an open-data zip", member=MIB, total=outer + 1)
    )

    message = refused(path)

    assert "competitions/" in message
    assert "takes what an open-data import inflates past" in message
    assert counts() == (0, 0, 0, 0, 0)


@st.composite
def mangled_exports(draw: st.DrawFn, export: bytes) -> bytes:
    """Draw an open-data zip mangled: its own files or a competition's zip inside it, its
    checksums then made to fit (or not), its bytes maybe cut short or overwritten."""
    files = members(export)
    inner = sorted(name for name in files if name.startswith("competitions/"))
    if draw(st.booleans()):
        name = draw(st.sampled_from(inner))
        files[name] = draw(mangled(files[name]))
    else:
        files = draw(mangled_files(files))
    if draw(st.integers(0, 3)):
        files = resealed_files(files)
    return draw(garbled(zipped(files, zipfile.ZIP_STORED)))


@MANGLING
@given(data=st.data())
def test_any_mangled_open_data_zip_is_imported_or_refused_in_words_storing_nothing(
    export, tmp_path, data
):
    path = tmp_path / "mangled.zip"
    path.write_bytes(data.draw(mangled_exports(export)))

    with transaction.atomic():
        try:
            call_command("import_open_data", str(path), stdout=io.StringIO())
        except CommandError as error:
            event("refused")
            said = f"{path}: refused: "
            assert str(error).startswith(said), str(error)
            assert len(str(error)) <= len(said) + SHORT_MESSAGE, str(error)
            assert counts() == (0, 0, 0, 0, 0)
        else:
            event("imported")
            assert archive_verify() == {match: [] for match in archive_verify()}
            for competition in Competition.objects.all():
                assert verify_log(competition) == []
        transaction.set_rollback(True)
