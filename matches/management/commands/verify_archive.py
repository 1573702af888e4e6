"""python manage.py verify_archive [ID...]: check every match's hash chain."""

from django.core.management.base import BaseCommand, CommandError

from matches.errors import Refused
from matches.immutability import missing_triggers
from matches.records import archive_verify


class Command(BaseCommand):
    help = (
        "Verify the hash chain of every match (or those named); name each match and seq that fails."
    )

    def add_arguments(self, parser):
        parser.add_argument("match_ids", nargs="*", metavar="ID")

    def handle(self, *args, **options):
        try:
            results = archive_verify(options["match_ids"] or None)
        except Refused as error:
            raise CommandError(str(error)) from None
        missing = missing_triggers()
        if missing:
            self.stderr.write(
                "the events table lacks its immutability triggers: " + ", ".join(sorted(missing))
            )
        failing = 0
        for match_id, problems in results.items():
            for seq, problem in problems:
                self.stderr.write(f"{match_id} seq {seq}: {problem}")
            failing += bool(problems)
        events = "matches" if len(results) != 1 else "match"
        self.stdout.write(f"{len(results)} {events} checked, {failing} failing")
        if failing:
            raise CommandError(f"{failing} match(es) fail verification")
        if missing:
            raise CommandError("the archive is not protected: run `python manage.py migrate`")
