"""python manage.py import_competition ZIP: a competition's zip, whole or not at all."""

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from matches.competition_archive import competition_import
from matches.domain.errors import Refused
from matches.domain.log_document import LARGEST_ID


class Command(BaseCommand):
    help = (
        "Import a competition's zip (as its page downloads it): the competition, its log "
        "(entries, seeds, draws, withdrawals, with who and when) and every match's record, "
        "whole or not at all."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("zip", metavar="ZIP", help="a competition's zip")
        parser.add_argument("--by", default="import", help="who imports (for events without 'by')")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            done = competition_import(options["zip"], by=options["by"])
        except Refused as error:
            raise CommandError(f"{options['zip']}: refused, nothing stored: {error}") from None
        if done.offset == 0:
            moved = "its versions as in the archive"
        elif done.offset > 0:
            moved = f"every version moved by +{done.offset} (this database's log had passed them)"
        else:
            moved = (
                f"every version moved by {done.offset} (kept, they would have passed "
                f"{LARGEST_ID:,}, the most an import stores)"
            )
        self.stdout.write(
            f"{done.competition_id}: imported {done.matches} matches and {done.events} events, "
            f"{moved}"
        )
