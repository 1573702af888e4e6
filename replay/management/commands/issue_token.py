"""python manage.py issue_token USERNAME [--staff]: print a new API token for a user."""

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from matches.domain.errors import Refused
from replay.api.tokens import token_issue


class Command(BaseCommand):
    help = (
        "Create the user if needed (--staff: make them staff) and print a new API token, "
        "the only line of output. The user's other tokens stay valid."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username", metavar="USERNAME")
        parser.add_argument("--staff", action="store_true", help="make the user staff")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            issued = token_issue(options["username"], staff=options["staff"])
        except Refused as error:
            raise CommandError(str(error)) from None
        self.stdout.write(issued.key)
