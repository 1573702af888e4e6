"""A zip from outside is read within its limits: a member past them is refused naming it
when the zip is opened, before a byte of it is inflated, and a header that lies about a
member's size never gets more than it said read."""

from __future__ import annotations

import hashlib
import io
import struct
import zipfile

import pytest

from matches.domain.bounded_zip import BoundedZip, ZipLimits, naming_file
from matches.domain.errors import Refused
from tests.support.zips import zipped

SMALL = ZipLimits("a test's zip", member=1000, total=2500)


def opened(files: dict[str, bytes], limits: ZipLimits = SMALL) -> BoundedZip:
    return BoundedZip(zipped(files), limits)


def test_a_member_within_the_limits_reads_whole_and_hashes_as_a_stream():
    body = bytes(range(256)) * 3

    with opened({"a.json": body, "b.json": b"{}"}) as archive:
        assert archive.names() == ["a.json", "b.json"]
        assert archive.read("a.json") == body
        assert archive.sha256("a.json") == hashlib.sha256(body).hexdigest()
        assert archive.size == len(body) + 2


def test_a_member_past_the_limit_is_refused_naming_it_when_the_zip_is_opened():
    with pytest.raises(Refused) as refused:
        opened({"small.json": b"{}", "big.json": b" " * 1001})

    assert refused.value.field == "big.json"
    assert refused.value.message == (
        "is 1,001 bytes uncompressed: a member of a test's zip holds at most 0 MiB"
    )


def test_members_past_the_total_are_refused_naming_the_one_that_passes_it():
    files = {f"m{n}.json": b" " * 900 for n in range(3)}

    with pytest.raises(Refused) as refused:
        opened(files)

    assert refused.value.field == "m2.json"
    assert "takes a test's zip past" in refused.value.message


def test_a_name_given_twice_is_refused_naming_it():
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("log.json", b"{}")
        with pytest.warns(UserWarning, match="Duplicate name"):
            archive.writestr("log.json", b"[]")

    with pytest.raises(Refused) as refused:
        BoundedZip(buffer.getvalue(), SMALL)

    assert (refused.value.field, refused.value.message) == ("log.json", "is in a test's zip twice")


def lying(body: bytes, says: int) -> bytes:
    """Return a zip of one member whose central header says it holds `says` bytes."""
    data = bytearray(zipped({"m.json": body}))
    central = data.index(b"PK\x01\x02")
    data[central + 24 : central + 28] = struct.pack("<I", says)
    return bytes(data)


def test_a_member_larger_than_its_header_says_is_refused_without_reading_past_the_header():
    with BoundedZip(lying(b"x" * 900, says=10), SMALL) as archive:
        with pytest.raises(Refused) as refused:
            archive.read("m.json")

    assert refused.value.field == "m.json"
    assert refused.value.message.startswith("cannot be read (")


def test_a_member_smaller_than_its_header_says_is_refused():
    with BoundedZip(lying(b"x" * 10, says=900), SMALL) as archive:
        with pytest.raises(Refused) as refused:
            archive.read("m.json")

    assert refused.value.field == "m.json"


def test_a_member_the_zip_lacks_is_refused_naming_it():
    with opened({"a.json": b"{}"}) as archive:
        with pytest.raises(Refused) as refused:
            archive.read("log.json")

    assert (refused.value.field, refused.value.message) == (
        "log.json",
        "is missing from a test's zip",
    )


def test_a_member_read_where_it_should_be_small_is_refused_past_that():
    with opened({"a.json": b" " * 900}) as archive:
        with pytest.raises(Refused) as refused:
            archive.read("a.json", most=100)

    assert refused.value.field == "a.json"


@pytest.mark.parametrize(
    "body",
    [b"", b"hello", b"PK\x03\x04" + b"\x00" * 40, zipped({"a.json": b"{}"})[:-10]],
    ids=["empty", "text", "a local header alone", "cut short"],
)
def test_what_is_not_a_zip_is_refused_as_the_zip(body):
    with pytest.raises(Refused) as refused:
        BoundedZip(body, SMALL)

    assert refused.value.field == "zip"
    assert refused.value.message.startswith("not a test's zip (")


def test_a_damaged_member_is_refused_naming_it():
    data = bytearray(zipped({"a.json": bytes(range(256)) * 3}))
    data[50:70] = b"\xff" * 20  # inside the deflated data

    with BoundedZip(bytes(data), SMALL) as archive:
        with pytest.raises(Refused) as refused:
            archive.read("a.json")

    assert refused.value.field == "a.json"


def test_a_file_of_a_zip_is_named_before_the_field_and_the_seq_is_kept():
    with pytest.raises(Refused) as refused:
        with naming_file("log.json"):
            raise Refused("must be 64 lowercase hex digits", "events[3].hash", 4)

    assert (refused.value.field, refused.value.seq) == ("log.json: events[3].hash", 4)
    assert str(refused.value) == "seq 4, log.json: events[3].hash: must be 64 lowercase hex digits"
