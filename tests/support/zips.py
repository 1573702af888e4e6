"""Zips to import, taken apart and put together again with a file changed."""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
from collections.abc import Callable, Mapping
from typing import Any


def members(body: bytes) -> dict[str, bytes]:
    """Return each member of a zip by name, in the zip's order."""
    with zipfile.ZipFile(io.BytesIO(body)) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def zipped(files: Mapping[str, bytes], method: int = zipfile.ZIP_DEFLATED) -> bytes:
    """Return a zip of these files, in this order: the same bytes for the same files."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", method) as archive:
        for name, data in files.items():
            archive.writestr(zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0)), data, method)
    return buffer.getvalue()


def with_json(body: bytes, name: str, change: Callable[[Any], Any]) -> bytes:
    """Return a zip with the JSON document `name` changed: `change` alters it in place, or
    returns what to write instead (bytes as they are, anything else as JSON)."""
    files = members(body)
    document = json.loads(files[name])
    changed = change(document)
    written = document if changed is None else changed
    files[name] = written if isinstance(written, bytes) else json.dumps(written).encode()
    return zipped(files)


def sums_of(files: Mapping[str, bytes]) -> bytes:
    """Return SHA256SUMS of these files, as an open-data export writes it."""
    return "".join(
        f"{hashlib.sha256(data).hexdigest()}  {name}\n"
        for name, data in sorted(files.items())
        if name != "SHA256SUMS"
    ).encode()
