"""Zips to import, taken apart and put together again with a file changed, or mangled."""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
from collections.abc import Callable, Mapping
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from tests.support.hostile import FILE_TEXTS, SHALLOW_VALUES, TEXTS, json_text

MANGLING = settings(
    # Each example imports a championship's zip or more: a tenth of the profile's examples
    # (tests/conftest.py), as for the other properties that go through the database.
    max_examples=max(1, settings.default.max_examples // 10),
    deadline=None,
    # The zip is made anew in each run, its times and hashes with it: an example kept from
    # another run would not draw the same zip again.
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


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


def containers(value: Any) -> list[Any]:
    """Return every object and list inside a JSON value, itself first."""
    found, pending = [], [value]
    while pending:
        item = pending.pop()
        if isinstance(item, dict | list):
            found.append(item)
            pending.extend(item.values() if isinstance(item, dict) else item)
    return found


ADDED_NAMES = st.from_regex(r"\A[a-z0-9/._-]{1,24}\Z") | st.sampled_from(["log.json", "matches/"])


def parsed(body: bytes) -> Any:
    """Return a file's JSON value to change, or None for one that is no JSON or too deep for
    `json.dumps` to write again whatever the stack's depth (the draws must not depend on it)."""
    try:
        value = json.loads(body)
    except (ValueError, RecursionError):
        return None
    pending = [(value, 0)]
    while pending:
        item, depth = pending.pop()
        if depth > 40:
            return None
        if isinstance(item, dict | list):
            children = item.values() if isinstance(item, dict) else item
            pending.extend((child, depth + 1) for child in children)
    return value


@st.composite
def mangled(draw: st.DrawFn, body: bytes) -> bytes:
    """Draw a zip's bytes with its files mangled (`mangled_files`), then, one time in five,
    its bytes cut short or overwritten."""
    return draw(garbled(zipped(draw(mangled_files(members(body))))))


@st.composite
def mangled_files(draw: st.DrawFn, files: dict[str, bytes]) -> dict[str, bytes]:
    """Draw files with one to three things done to them: a value of a JSON file replaced
    or a key deleted, a file replaced by any text, taken out or added."""
    files = dict(files)
    for _ in range(draw(st.integers(1, 3))):
        name = draw(st.sampled_from(sorted(files)))
        how = draw(st.sampled_from(["value", "value", "value", "text", "out", "in"]))
        document = parsed(files[name])
        if how == "value" and isinstance(document, dict | list):
            node = draw(st.sampled_from(containers(document)))
            if isinstance(node, dict) and node and draw(st.booleans()):
                del node[draw(st.sampled_from(sorted(node)))]
            elif isinstance(node, dict):
                keys = st.sampled_from(sorted(node)) | TEXTS if node else TEXTS
                node[draw(keys)] = draw(SHALLOW_VALUES)
            elif node:
                node[draw(st.integers(0, len(node) - 1))] = draw(SHALLOW_VALUES)
            files[name] = json_text(document, ascii=True).encode()
        elif how == "text":
            text = draw(FILE_TEXTS)
            files[name] = text if isinstance(text, bytes) else text.encode("utf-8", "replace")
        elif how == "out" and len(files) > 1:
            del files[name]
        elif how == "in":
            added = draw(ADDED_NAMES)
            files[added] = draw(st.binary(max_size=64))
    return files


@st.composite
def garbled(draw: st.DrawFn, written: bytes) -> bytes:
    """Draw a zip's bytes as they are, or one time in five cut short or overwritten."""
    if written and draw(st.integers(0, 4)) == 0:
        start = draw(st.integers(0, len(written) - 1))
        if draw(st.booleans()):
            written = written[:start]
        else:
            noise = draw(st.binary(min_size=1, max_size=32))
            written = written[:start] + noise + written[start + len(noise) :]
    return written
