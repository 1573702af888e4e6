"""python manage.py replay FILE [--upto SEQ] [--live]: a match record in, its state out."""

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from matches.cli import read_text
from matches.domain.errors import Refused
from matches.domain.events import parse_record
from matches.domain.fold import check_log, fold
from matches.domain.notation import load_json


class Command(BaseCommand):
    help = "Replay a match record and print its match state (amended, or as seen live)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="a match record (JSON), or - for standard input")
        parser.add_argument("--upto", type=int, metavar="SEQ", help="the state after event SEQ")
        parser.add_argument(
            "--live", action="store_true", help="as viewers saw it: no later corrections"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        text = read_text(options["file"])
        try:
            record = parse_record(load_json(text))
            events = check_log(record.header, record.events)
        except Refused as error:
            sys.stderr.write(f"rejected: {error}\n")
            raise SystemExit(1) from None
        upto = options["upto"]
        if upto is not None and not 0 <= upto <= len(events):
            raise CommandError(f"--upto must be between 0 and {len(events)}")
        view = "live" if options["live"] else "amended"
        state = fold(record.header, events, upto=upto, view=view)
        self.stdout.write(json.dumps(state, indent=1, ensure_ascii=False))
