"""python manage.py standings ID: print a competition's standings as JSON."""

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from matches.domain.errors import Refused
from replay.projections import projector
from replay.queries.standings_reader import standings_get


class Command(BaseCommand):
    help = (
        "Print a competition's standings (the API's JSON). The read models are first caught "
        "up with the log, as a worker would (--as-stored: print them as they are)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("competition_id", metavar="ID")
        parser.add_argument(
            "--as-stored", action="store_true", help="do not catch the read models up first"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            if not options["as_stored"]:
                projector.catch_up(scheduled=True)
            standings = standings_get(options["competition_id"])
        except Refused as error:
            raise CommandError(str(error)) from None
        self.stdout.write(json.dumps(standings, indent=1, ensure_ascii=False))
