"""runserver (Daphne's, HTTP and websockets) that refuses the development key with debug off."""

from typing import Any

from daphne.management.commands.runserver import Command as DaphneRunserver
from django.core.management.base import CommandError

from carambole.serving import INSECURE_KEY, insecure


class Command(DaphneRunserver):
    def handle(self, *args: Any, **options: Any) -> str | None:
        if insecure():
            raise CommandError(INSECURE_KEY)
        return super().handle(*args, **options)
