"""python manage.py import_matches FILE...: store match records, each whole or not at all."""

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from matches.cli import read_text
from matches.domain.errors import Refused
from matches.domain.notation import load_json
from matches.records import record_import


class Command(BaseCommand):
    help = (
        "Import match records; each match is stored whole or refused, naming the event. "
        "An unreadable file or a refused record does not stop the others."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("files", nargs="+", metavar="FILE", help="match records, - for stdin")
        parser.add_argument("--by", default="import", help="who imports (for events without 'by')")

    def handle(self, *args: Any, **options: Any) -> None:
        paths = options["files"]
        imported = 0
        for path in paths:
            try:
                done = record_import(load_json(read_text(path)), by=options["by"])
            except (Refused, CommandError) as error:
                self.stderr.write(f"{path}: refused: {error}")
                continue
            imported += 1
            self.stdout.write(f"{path}: {done.match_id} {done.outcome} ({done.appended} events)")
        summary = f"{imported} of {len(paths)} imported"
        if imported < len(paths):
            raise CommandError(summary)
        self.stdout.write(summary)
