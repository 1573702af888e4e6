"""python manage.py archive_anchor: print each match's and each competition's log's head,
global ids' digest and header digest or seal, to keep elsewhere."""

import json
from typing import Any

from django.core.management.base import BaseCommand

from matches.anchor import anchor_make
from matches.store import now_text


class Command(BaseCommand):
    help = (
        "Print the archive's anchor (JSON): for every match and every competition's log, its "
        "last seq, that event's hash, a digest of its events' global ids and a digest of its "
        "header (a match) or its seal (a competition). Keep it, or publish its digest, outside "
        "the database; `verify_archive --anchor FILE` then proves the archive still extends it."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        anchor = anchor_make(now_text())
        self.stdout.write(json.dumps(anchor, indent=1, ensure_ascii=False))
        matches, logs = len(anchor["matches"]), len(anchor["competitions"])
        self.stderr.write(
            f"{matches} matches and {logs} competition logs anchored; "
            f"anchor digest {anchor['digest']}"
        )
