"""Shared plumbing of the command-line tools: reading a file or standard input."""

from __future__ import annotations

import sys

from django.core.management.base import CommandError


def read_text(path: str) -> str:
    """Return the text of a file, or of standard input for "-"; a clear error otherwise."""
    if path == "-":
        return sys.stdin.read()
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except OSError as error:
        raise CommandError(f"cannot read {path}: {error.strerror}") from None
    except UnicodeDecodeError:
        raise CommandError(f"cannot read {path}: not UTF-8 text") from None
