"""python manage.py export_open_data: the whole archive as one dated, versioned zip."""

import sys
from datetime import date
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone
from tqdm import tqdm

from matches.domain.errors import Refused
from matches.models import Competition
from replay.queries.open_data import left_out_line, open_data_write


class Command(BaseCommand):
    help = (
        "Write carambole-open-data-DAY.zip (every competition with its log and records, the "
        "players' register, the ratings, a manifest, a README and SHA256SUMS) and its .sha256 "
        "into OPEN_DATA_DIR (or --out); /open-data/ links the latest."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--out", type=Path, default=None, help="the folder to write into")
        parser.add_argument("--day", default=None, help="the day it is of (default: today)")
        parser.add_argument("--no-progress", action="store_true", help="no progress bar")

    def handle(self, *args: Any, **options: Any) -> None:
        out = options["out"] or Path(settings.OPEN_DATA_DIR)
        try:
            day = date.fromisoformat(options["day"]) if options["day"] else timezone.localdate()
        except ValueError:
            raise CommandError(f"--day: {options['day']!r} is no date (YYYY-MM-DD)") from None
        with tqdm(
            total=Competition.objects.count(),
            unit="competition",
            disable=options["no_progress"],
            file=sys.stderr,
        ) as bar:
            try:
                written = open_data_write(out, day, progress=bar.update)
            except Refused as error:
                raise CommandError(f"nothing written: {error}") from None
        self.stdout.write(
            f"{written.path}: {written.competitions} competitions, {written.matches} matches, "
            f"{written.players} players (checksum in {written.checksum.name})"
        )
        for entry in written.left_out:
            self.stderr.write(left_out_line(entry))
