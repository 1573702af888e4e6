"""Shared plumbing of the command-line tools: reading a file or standard input."""

from __future__ import annotations

import sys

from django.core.management.base import CommandError


def read_text(path: str) -> str:
    """Return the text of a file, or of standard input for "-", line ends as written.

    JSON Lines ends a line at a newline only, so no universal newlines: a bare carriage
    return stays what JSON takes it for, whitespace. Anything but UTF-8 is a clear error.
    """
    where = "standard input" if path == "-" else path
    try:
        if path == "-":
            raw = getattr(sys.stdin, "buffer", None)  # a test may hand a text stream
            return raw.read().decode("utf-8") if raw is not None else sys.stdin.read()
        with open(path, encoding="utf-8", newline="") as handle:
            return handle.read()
    except OSError as error:
        raise CommandError(f"cannot read {where}: {error.strerror}") from None
    except UnicodeDecodeError:
        raise CommandError(f"cannot read {where}: not UTF-8 text") from None
    except ValueError as error:  # a path holding a NUL character
        raise CommandError(f"cannot read {where!r}: {error}") from None
