"""python manage.py rebuild_projections: rebuild every read model from the events alone."""

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from tqdm import tqdm

from matches import store
from replay.models import MatchSummary, Standings
from replay.projections import projector


class Command(BaseCommand):
    help = (
        "Rebuild the archive summaries and every competition's standings, versions and "
        "changes from the event log, in one transaction, with a progress bar."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--no-progress", action="store_true", help="no progress bar")

    def handle(self, *args: Any, **options: Any) -> None:
        total = store.log_size()
        # The real stream: the command's own wrapper ends every write with a new line.
        with tqdm(
            total=total, unit="event", disable=options["no_progress"], file=sys.stderr
        ) as bar:
            caught = projector.rebuild(progress=bar.update)
        self.stdout.write(
            f"rebuilt from {caught.events} events: {MatchSummary.objects.count()} match "
            f"summaries, {Standings.objects.count()} standings"
        )
