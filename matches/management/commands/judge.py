"""python manage.py judge FILE: JSON Lines of shots in, one ruling per line out."""

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from matches.cli import read_text
from matches.domain.judging import judge_line, judge_lines


class Command(BaseCommand):
    help = "Judge shots: JSON Lines in (own, shot, ruleset, no_score), one ruling per line out."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="a JSON Lines file, or - for standard input")

    def handle(self, *args: Any, **options: Any) -> None:
        rejected = 0
        for line in judge_lines(read_text(options["file"])):
            answer = judge_line(line)
            rejected += "error" in answer
            self.stdout.write(json.dumps(answer, ensure_ascii=False))
        if rejected:
            self.stderr.write(f"{rejected} line(s) rejected")
            raise SystemExit(1)
