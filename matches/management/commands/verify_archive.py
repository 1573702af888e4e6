"""python manage.py verify_archive [ID...]: check every match's hash chain, and name what
else is known to be wrong (`matches.signals.archive_verifying`: a competition whose read
model the projector could not write)."""

from typing import Any, cast

from django.core.management.base import BaseCommand, CommandError, CommandParser

from matches.anchor import anchor_growth, anchor_parse, anchor_verify
from matches.checks import REPAIR
from matches.cli import read_text
from matches.errors import Refused
from matches.immutability import faults_in_words, trigger_faults
from matches.notation import load_json
from matches.records import archive_verify
from matches.signals import archive_verifying


class Command(BaseCommand):
    # The triggers' system check would stop the command before it verified anything: it
    # reports them itself, beside every chain it checks.
    requires_system_checks: list[str] = []
    help = (
        "Verify the hash chain of every match (or those named); name each match and seq that fails."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("match_ids", nargs="*", metavar="ID")
        parser.add_argument(
            "--anchor",
            metavar="FILE",
            help="an anchor made by archive_anchor: prove the archive still extends it",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            results = archive_verify(options["match_ids"] or None)
        except Refused as error:
            raise CommandError(str(error)) from None
        faults = trigger_faults()
        if faults:
            self.stderr.write(faults_in_words(faults))
        failing = 0
        for match_id, problems in results.items():
            for seq, problem in problems:
                self.stderr.write(f"{match_id} seq {seq}: {problem}")
            failing += bool(problems)
        events = "matches" if len(results) != 1 else "match"
        self.stdout.write(f"{len(results)} {events} checked, {failing} failing")
        if options["anchor"]:
            failing += self.against_anchor(options["anchor"])
        beyond = self.beyond_the_chains()
        if failing:
            raise CommandError(f"{failing} match(es) fail verification")
        if beyond:
            raise CommandError(f"{beyond} fault(s) beyond the hash chains: see above")
        if faults:
            raise CommandError(f"the archive is not protected: run `{REPAIR}`")

    def beyond_the_chains(self) -> int:
        """Report each fault the read side knows of (a competition whose read model the
        projector could not write); return how many."""
        answers = archive_verifying.send(sender=Command)
        found = [line for _, lines in answers for line in cast("list[str]", lines or [])]
        for line in found:
            self.stderr.write(line)
        if found:
            self.stdout.write(f"{len(found)} read model(s) in error")
        return len(found)

    def against_anchor(self, path: str) -> int:
        """Report each anchored match the archive no longer extends; return how many."""
        try:
            pinned = anchor_parse(load_json(read_text(path)))
        except Refused as error:
            raise CommandError(f"{path}: {error}") from None
        failing = 0
        for match_id, problems in anchor_verify(pinned).items():
            for problem in problems:
                self.stderr.write(f"{match_id}: {problem}")
            failing += bool(problems)
        self.stdout.write(f"{len(pinned)} anchored matches checked, {failing} failing")
        # Not failures (play goes on), but the one sign of an event a database writer
        # appended with its hash computed anew: the keeper checks them against the matches.
        growth = anchor_growth(pinned)
        for match_id, (first, last) in growth.events.items():
            added = f"event seq {first}" if first == last else f"events seq {first} to {last}"
            self.stdout.write(f"{match_id}: {added} added since the anchor")
        if growth.matches:
            self.stdout.write(f"{growth.matches} match(es) added since the anchor")
        return failing
