"""python manage.py revoke_token PREFIX...: revoke API tokens (staff)."""

import getpass
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from matches.domain.errors import Refused
from replay.api.tokens import token_revoke, tokens_of


class Command(BaseCommand):
    help = (
        "Revoke API tokens, each named by its first 8 characters (or the whole key); "
        "--user USERNAME revokes all of that user's tokens. Revoked tokens are kept, "
        "with who revoked them and when."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("prefixes", nargs="*", metavar="PREFIX")
        parser.add_argument("--user", metavar="USERNAME", help="revoke every token of this user")
        parser.add_argument(
            "--by", default=None, help="who revokes (default: the user running the command)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        prefixes = list(options["prefixes"])
        if options["user"]:
            prefixes += [token.prefix for token in tokens_of(options["user"])]
        elif not prefixes:
            raise CommandError("give a PREFIX, or --user USERNAME")
        by = options["by"] or f"{getpass.getuser()} (command line)"
        for prefix in prefixes:
            try:
                token = token_revoke(prefix, by=by)
            except Refused as error:
                raise CommandError(str(error)) from None
            self.stdout.write(f"{token.prefix}: revoked ({token.user.get_username()})")
