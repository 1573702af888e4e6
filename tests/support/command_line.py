"""A management command run as its command line runs it, in the test's own process.

`manage.py` is `execute_from_command_line(sys.argv)`: the same call here parses the same
arguments, turns a `CommandError` into its message on standard error and exit status 1,
and reads `-` from standard input. Saved: the interpreter's start (a second or more) and
the system checks (`--skip-checks`: some read the database, which a test of the pure core
has not got); a fresh process, checks and all, is still tried once per command.
"""

from __future__ import annotations

import io
import sys
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass
from unittest import mock

from django.core.management import execute_from_command_line


@dataclass(frozen=True)
class Completed:
    """What the command line gave: its exit status and the text of its two streams."""

    returncode: int
    stdout: str
    stderr: str


def command_line(*arguments: str, stdin: str = "") -> Completed:
    """Run `python manage.py ARGUMENTS...` here, `stdin` on its standard input."""
    out, err = io.StringIO(), io.StringIO()
    given = io.TextIOWrapper(io.BytesIO(stdin.encode("utf-8")), encoding="utf-8")
    status: int | str | None = 0
    with redirect_stdout(out), redirect_stderr(err), mock.patch.object(sys, "stdin", given):
        try:
            execute_from_command_line(["manage.py", *arguments, "--skip-checks"])
        except SystemExit as exit_:
            status = exit_.code
    if isinstance(status, str):  # sys.exit("message"): printed, status 1
        err.write(status + "\n")
        status = 1
    return Completed(status or 0, out.getvalue(), err.getvalue())
