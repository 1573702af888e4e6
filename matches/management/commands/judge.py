"""python manage.py judge FILE: JSON Lines of shots in, one ruling per line out."""

import json

from django.core.management.base import BaseCommand

from matches.cli import read_text
from matches.judging import judge_line, judge_lines


def read_as_written(path: str) -> str:
    """Return a file's text with its line ends as written, or standard input's for "-".

    JSON Lines ends a line at a newline only; `read_text` reads with universal newlines,
    which would end one at a bare carriage return too (JSON whitespace), as standard
    input does not.
    """
    if path != "-":
        try:
            with open(path, encoding="utf-8", newline="") as handle:
                return handle.read()
        except (OSError, UnicodeDecodeError):
            pass  # read_text says why, naming the file
    return read_text(path)


class Command(BaseCommand):
    help = "Judge shots: JSON Lines in (own, shot, ruleset, no_score), one ruling per line out."

    def add_arguments(self, parser):
        parser.add_argument("file", help="a JSON Lines file, or - for standard input")

    def handle(self, *args, **options):
        rejected = 0
        for line in judge_lines(read_as_written(options["file"])):
            answer = judge_line(line)
            rejected += "error" in answer
            self.stdout.write(json.dumps(answer, ensure_ascii=False))
        if rejected:
            self.stderr.write(f"{rejected} line(s) rejected")
            raise SystemExit(1)
