"""python manage.py player_pin FEDERATION_ID: the PIN a player confirms results with (staff)."""

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from matches.models import Player
from matches.services.pins import player_pin


class Command(BaseCommand):
    help = (
        "Print the PIN a player types on a referee's console to confirm a result: worked out "
        "from the player and the server's SECRET_KEY, stored nowhere. Give it to the player "
        "in person."
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
        record = {"name": found.name, "federation_id": found.federation_id}
        who = f"{found.name} ({found.federation_id})" if found.federation_id else found.name
        self.stdout.write(f"{who}: PIN {player_pin(record)}")
