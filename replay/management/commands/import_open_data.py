"""python manage.py import_open_data ZIP: an open-data export into an empty database."""

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from matches.domain.errors import Refused
from replay.projections import projector
from replay.projections.ratings_writer import ratings_catch_up
from replay.queries.open_data import open_data_import


class Command(BaseCommand):
    help = (
        "Import an open-data zip (export_open_data): its checksums checked first, then each "
        "competition whole or not at all; the projector then works out its standings, "
        "brackets and ratings again."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("zip", type=Path, metavar="ZIP")
        parser.add_argument("--by", default="open data", help="who imports")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            done = open_data_import(options["zip"], by=options["by"])
        except Refused as error:
            raise CommandError(f"{options['zip']}: refused: {error}") from None
        projector.catch_up(scheduled=True)  # what an eager projector has not done already
        ratings_catch_up()
        self.stdout.write(
            f"imported {done.competitions} competitions, {done.matches} matches and "
            f"{done.events} events; standings, stages and ratings worked out up to version "
            f"{projector.position()}"
        )
