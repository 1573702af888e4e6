"""python manage.py export_match ID: print a match record with seq, at, by and hash."""

import json

from django.core.management.base import BaseCommand, CommandError

from matches.errors import Refused
from matches.records import record_export


class Command(BaseCommand):
    help = "Print a match's record (format carambole.match/1) with every event's hash."

    def add_arguments(self, parser):
        parser.add_argument("match_id", metavar="ID")

    def handle(self, *args, **options):
        try:
            record = record_export(options["match_id"])
        except Refused as error:
            raise CommandError(str(error)) from None
        self.stdout.write(json.dumps(record, indent=1, ensure_ascii=False))
