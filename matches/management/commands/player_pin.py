"""python manage.py player_pin FEDERATION_ID: a new PIN a player confirms results with (staff)."""

import getpass
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from matches.models import Player
from matches.services.pins import pin_issue


class Command(BaseCommand):
    help = (
        "Issue a player a new PIN, the six digits they type on a referee's console to confirm "
        "a result, and print it this once: made at random, kept only as a digest, the "
        "player's previous PIN refused from now on. Give it to the player in person. Each "
        "PIN issued is kept, with who ran the command and when; staff issue one on the "
        "player's page too."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "player", metavar="PLAYER", help="the player's federation id, or their exact name"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        wanted = options["player"]
        found = (
            Player.objects.filter(federation_id=wanted).first()
            or Player.objects.filter(federation_id__isnull=True, name=wanted).first()
        )
        if found is None:
            raise CommandError(f"no player {wanted!r}: give a federation id or an exact name")
        who = f"{found.name} ({found.federation_id})" if found.federation_id else found.name
        pin = pin_issue(player=found, by=_shell_user())
        self.stdout.write(f"{who}: new PIN {pin} (the previous one is refused from now on)")


def _shell_user() -> str:
    """Return who runs the command, as the PIN's showing keeps it."""
    try:
        return f"{getpass.getuser()} (command line)"
    except (OSError, KeyError):  # no login name in this process's environment
        return "(command line)"
