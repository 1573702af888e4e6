"""A zip from outside, read within bounds: what an import may inflate is known before it does.

Each member's header says how large it is uncompressed. Opening a zip checks every
header against the zip's limits (one member, all members together) and refuses the
first member past them, naming it, before a byte is inflated; a name given twice is
refused too, since which of the two a reader takes is its own choice. A header can
lie, so a member is then read in chunks, never past its limit. Both imports read their
zips here: a competition's zip, the open data and the competitions' zips inside it.
Pure Python: no Django.
"""

from __future__ import annotations

import hashlib
import io
import zipfile
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from os import PathLike
from types import TracebackType
from typing import IO

from matches.domain.errors import Refused, excerpt

MIB = 1024 * 1024
CHUNK = MIB  # what one read inflates at most
# What reading a damaged zip raises: zipfile's own error, the inflater's, a member cut
# short, or a method zipfile cannot read (an encrypted member, an unknown compression).
DAMAGED = (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError, RuntimeError, OSError)


@dataclass(frozen=True)
class ZipLimits:
    """The most a kind of zip may hold uncompressed: in one member, and in all of them."""

    what: str  # the zip as an error names it: "a competition's zip"
    member: int
    total: int


def member_name(name: str) -> str:
    """Return a member's name as an error names it: as written, unless it cannot be shown."""
    return name if name.isprintable() and len(name) <= 200 else excerpt(name)


@contextmanager
def naming_file(name: str) -> Iterator[None]:
    """Refuse what is refused inside a file of a zip with the file named before the field
    (once: what this reader says of the file names it already)."""
    try:
        yield
    except Refused as error:
        named = member_name(name)
        field = f"{named}: {error.field}" if error.field not in (None, named) else named
        raise Refused(error.message, field, error.seq) from None


class BoundedZip:
    """A zip whose members' sizes are within its limits, each read as a stream."""

    def __init__(self, source: str | PathLike[str] | IO[bytes] | bytes, limits: ZipLimits) -> None:
        self.limits = limits
        try:
            self._archive = zipfile.ZipFile(
                io.BytesIO(source) if isinstance(source, bytes) else source
            )
        except (*DAMAGED, ValueError) as error:  # ValueError: a header that points nowhere
            raise Refused(f"not {limits.what} ({str(error)[:80]})", "zip") from None
        try:
            self._members = self._checked()
        except Refused:
            self._archive.close()
            raise
        # What the headers say all members hold uncompressed (within the zip's total).
        self.size = sum(info.file_size for info in self._members.values())

    def _checked(self) -> dict[str, zipfile.ZipInfo]:
        members: dict[str, zipfile.ZipInfo] = {}
        total = 0
        for info in self._archive.infolist():
            name = member_name(info.filename)
            if info.filename in members:
                raise Refused(f"is in {self.limits.what} twice", name)
            if info.file_size > self.limits.member:
                raise Refused(
                    f"is {info.file_size:,} bytes uncompressed: a member of {self.limits.what} "
                    f"holds at most {self.limits.member // MIB} MiB",
                    name,
                )
            total += info.file_size
            if total > self.limits.total:
                raise Refused(
                    f"takes {self.limits.what} past {self.limits.total // MIB} MiB "
                    "uncompressed in all",
                    name,
                )
            members[info.filename] = info
        return members

    def __enter__(self) -> BoundedZip:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        self._archive.close()

    def names(self) -> list[str]:
        """Return the names of the members, in the zip's order."""
        return list(self._members)

    def __contains__(self, name: object) -> bool:
        return name in self._members

    def read(self, name: str, most: int | None = None) -> bytes:
        """Return a member's bytes, or refuse one missing, damaged or longer than it says
        (or than `most` bytes, for a member that is small where it is sound)."""
        info = self._members.get(name)
        if most is not None and info is not None and info.file_size > most:
            raise Refused(
                f"is {info.file_size:,} bytes uncompressed: at most {most // MIB} MiB here",
                member_name(name),
            )
        return b"".join(self._chunks(name))

    def sha256(self, name: str) -> str:
        """Return the SHA-256 of a member, read as a stream."""
        digest = hashlib.sha256()
        for chunk in self._chunks(name):
            digest.update(chunk)
        return digest.hexdigest()

    def _chunks(self, name: str) -> Iterator[bytes]:
        info = self._members.get(name)
        if info is None:
            raise Refused(f"is missing from {self.limits.what}", member_name(name))
        left = info.file_size  # never past the limit: checked when the zip was opened
        try:
            with self._archive.open(info) as member:
                while chunk := member.read(min(CHUNK, left + 1)):
                    left -= len(chunk)
                    if left < 0:
                        raise Refused("holds more than its header says", member_name(name))
                    yield chunk
            if left > 0:
                raise Refused("holds less than its header says", member_name(name))
        except DAMAGED as error:
            raise Refused(f"cannot be read ({str(error)[:80]})", member_name(name)) from None
