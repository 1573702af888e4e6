"""python manage.py import_matches FILE...: store match records, each whole or not at all."""

from django.core.management.base import BaseCommand, CommandError

from matches.cli import read_text
from matches.errors import Refused
from matches.records import load_json, record_import


class Command(BaseCommand):
    help = "Import match records; each match is stored whole or refused, naming the event."

    def add_arguments(self, parser):
        parser.add_argument("files", nargs="+", metavar="FILE", help="match records, - for stdin")
        parser.add_argument("--by", default="import", help="who imports (for events without 'by')")

    def handle(self, *args, **options):
        refused = 0
        for path in options["files"]:
            try:
                done = record_import(load_json(read_text(path), path), by=options["by"])
            except Refused as error:
                refused += 1
                self.stderr.write(f"{path}: refused: {error}")
                continue
            self.stdout.write(f"{path}: {done.match_id} {done.outcome} ({done.appended} events)")
        if refused:
            raise CommandError(f"{refused} of {len(options['files'])} record(s) refused")
