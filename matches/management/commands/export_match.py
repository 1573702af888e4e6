"""python manage.py export_match ID: print a match record with seq, at, by and hash."""

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from matches.domain.errors import Refused
from matches.records import record_export
from matches.selectors import check_id


class Command(BaseCommand):
    help = "Print a match's record (format carambole.match/1) with every event's hash."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("match_id", metavar="ID")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            record = record_export(check_id(options["match_id"], "id", "match"))
        except Refused as error:
            raise CommandError(str(error)) from None
        self.stdout.write(json.dumps(record, indent=1, ensure_ascii=False))
