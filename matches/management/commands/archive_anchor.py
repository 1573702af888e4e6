"""python manage.py archive_anchor: print each match's head and header digest, to keep elsewhere."""

import json
from typing import Any

from django.core.management.base import BaseCommand

from matches.anchor import anchor_make
from matches.store import now_text


class Command(BaseCommand):
    help = (
        "Print the archive's anchor (JSON): every match's last seq, that event's hash and a "
        "digest of its header. Keep it, or publish its digest, outside the database; "
        "`verify_archive --anchor FILE` then proves the archive still extends it."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        anchor = anchor_make(now_text())
        self.stdout.write(json.dumps(anchor, indent=1, ensure_ascii=False))
        self.stderr.write(
            f"{len(anchor['matches'])} matches anchored; anchor digest {anchor['digest']}"
        )
