"""python manage.py verify_archive [ID...] [--competition ID]: check every match's hash
chain and every competition's log, and name what else is known to be wrong
(`matches.signals.archive_verifying`: a competition whose read model the projector could
not write)."""

from typing import Any, cast

from django.core.management.base import BaseCommand, CommandError, CommandParser

from matches.anchor import Anchored, anchor_growth, anchor_parse, anchor_verify
from matches.checks import REPAIR
from matches.cli import read_text
from matches.domain.errors import Refused
from matches.domain.notation import load_json
from matches.immutability import faults_in_words, trigger_faults
from matches.records import archive_verify
from matches.services.competition_log import logs_verify
from matches.signals import archive_verifying


def counted(count: int, one: str, many: str) -> str:
    return f"{count} {one if count == 1 else many}"


class Command(BaseCommand):
    # The triggers' system check would stop the command before it verified anything: it
    # reports them itself, beside every chain it checks.
    requires_system_checks: list[str] = []
    help = (
        "Verify the hash chain of every match and of every competition's log (or of those "
        "named); name each match or competition and seq that fails."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("match_ids", nargs="*", metavar="ID")
        parser.add_argument(
            "--competition",
            action="append",
            default=[],
            metavar="ID",
            help="verify this competition's log (again for another); with no ID at all, "
            "every match and every competition's log is verified",
        )
        parser.add_argument(
            "--anchor",
            metavar="FILE",
            help="an anchor made by archive_anchor: prove the archive still extends it",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        match_ids, competition_ids = options["match_ids"], options["competition"]
        try:
            matches = archive_verify(match_ids or None) if match_ids or not competition_ids else {}
            logs = logs_verify(competition_ids or None) if competition_ids or not match_ids else {}
        except Refused as error:
            raise CommandError(str(error)) from None
        faults = trigger_faults()
        if faults:
            self.stderr.write(faults_in_words(faults))
        failing = self.report(matches, "{} seq {}: {}")
        if matches or not logs:
            self.stdout.write(
                f"{counted(len(matches), 'match', 'matches')} checked, {failing} failing"
            )
        failing_logs = self.report(logs, "competition {} seq {}: {}")
        if logs:
            checked = counted(len(logs), "competition log", "competition logs")
            self.stdout.write(f"{checked} checked, {failing_logs} failing")
        against = self.against_anchor(options["anchor"]) if options["anchor"] else 0
        beyond = self.beyond_the_chains()
        failed = [
            f"{count} {what}"
            for count, what in (
                (failing, "match(es)"),
                (failing_logs, "competition log(s)"),
                (against, "anchored log(s)"),
            )
            if count
        ]
        if failed:
            raise CommandError(f"{', '.join(failed)} fail verification")
        if beyond:
            raise CommandError(f"{beyond} fault(s) beyond the hash chains: see above")
        if faults:
            raise CommandError(f"the archive is not protected: run `{REPAIR}`")

    def report(self, results: dict[str, list[tuple[int, str]]], line: str) -> int:
        """Write each problem on standard error; return how many logs have one."""
        for name, problems in results.items():
            for seq, problem in problems:
                self.stderr.write(line.format(name, seq, problem))
        return sum(bool(problems) for problems in results.values())

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
        """Report each anchored match or competition's log the archive no longer extends;
        return how many."""
        try:
            anchored = anchor_parse(load_json(read_text(path)))
        except Refused as error:
            raise CommandError(f"{path}: {error}") from None
        problems = anchor_verify(anchored)
        for name, found in problems.items():
            for problem in found:
                self.stderr.write(f"{name}: {problem}")
        failing = sum(bool(found) for found in problems.values())
        self.stdout.write(self.anchored_in_words(anchored, failing))
        self.growth_in_words(anchored)
        return failing

    @staticmethod
    def anchored_in_words(anchored: Anchored, failing: int) -> str:
        checked = f"{len(anchored.matches)} anchored matches"
        if anchored.logs is not None:
            checked += f" and {counted(len(anchored.logs), 'competition log', 'competition logs')}"
        return f"{checked} checked, {failing} failing"

    def growth_in_words(self, anchored: Anchored) -> None:
        # Not failures (play goes on), but the one sign of an event a database writer
        # appended with its hash computed anew: the keeper checks them against the matches.
        growth = anchor_growth(anchored)
        for name, (first, last) in growth.events.items():
            added = f"event seq {first}" if first == last else f"events seq {first} to {last}"
            self.stdout.write(f"{name}: {added} added since the anchor")
        if growth.matches:
            self.stdout.write(f"{growth.matches} match(es) added since the anchor")
        if growth.competitions:
            self.stdout.write(f"{growth.competitions} competition(s) added since the anchor")
