"""python manage.py export_match ID: print a match record with seq, at, by and hash."""

import json

from django.core.management.base import BaseCommand, CommandError

from matches.errors import Refused
from matches.records import record_export
from matches.services.competitions import check_id


class Command(BaseCommand):
    help = "Print a match's record (format carambole.match/1) with every event's hash."

    def add_arguments(self, parser):
        parser.add_argument("match_id", metavar="ID")

    def handle(self, *args, **options):
        try:
            record = record_export(check_id(options["match_id"], "id", "match"))
        except Refused as error:
            raise CommandError(str(error)) from None
        self.stdout.write(json.dumps(record, indent=1, ensure_ascii=False))
