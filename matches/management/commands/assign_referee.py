"""python manage.py assign_referee MATCH USERNAME: let one login record a match (staff)."""

import getpass
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from matches import services
from matches.domain.errors import Refused


class Command(BaseCommand):
    help = (
        "Assign the login allowed to record a match (--none: nobody). Each change is kept "
        "with who made it and when; the officiating referee of the record is not changed."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("match_id", metavar="MATCH")
        parser.add_argument("username", nargs="?", metavar="USERNAME")
        parser.add_argument("--none", action="store_true", help="take the match from its login")
        parser.add_argument(
            "--by", default=None, help="who assigns (default: the user running the command)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["none"] == bool(options["username"]):
            raise CommandError("give a USERNAME, or --none")
        by = options["by"] or f"{getpass.getuser()} (command line)"
        try:
            assignment = services.referee_assign(
                match_id=options["match_id"], username=options["username"], by=by
            )
        except Refused as error:
            raise CommandError(str(error)) from None
        who = assignment.user.get_username() if assignment.user else "nobody"
        self.stdout.write(f"{assignment.match_id}: {who} may record (assigned by {by})")
