"""python manage.py bench: the benchmark suite on a throwaway database; a table and JSON."""

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = (
        "Simulate and import an archive into a throwaway SQLite database, then measure "
        "rebuild speed and state on demand against raw sqlite3 + orjson reads of the same rows."
    )
    # The benchmark makes its own database; the user's is never opened.
    requires_system_checks: list[str] = []

    def add_arguments(self, parser):
        parser.add_argument("--matches", type=int, default=200, help="matches in the archive")
        parser.add_argument("--seed", type=int, default=1, help="seed of the simulated archive")
        parser.add_argument("--repeat", type=int, default=7, help="full rebuilds to time")
        parser.add_argument(
            "--json",
            type=Path,
            default=Path(settings.BASE_DIR) / "bench-results.json",
            help="where to write the results (default: bench-results.json)",
        )
        parser.add_argument("--no-progress", action="store_true", help="no progress bars")
        parser.add_argument("--keep-db", action="store_true", help="keep the throwaway database")

    def handle(self, *args, **options):
        # Imported here: the suite measures the read side too, and `matches` never imports it.
        import orjson

        from bench.suite import Options, run, table

        results = run(
            Options(
                matches=options["matches"],
                seed=options["seed"],
                repeat=options["repeat"],
                progress=not options["no_progress"],
                keep_db=options["keep_db"],
            ),
            log=self.stderr,
        )
        options["json"].write_bytes(orjson.dumps(results, option=orjson.OPT_INDENT_2) + b"\n")
        self.stdout.write(table(results))
        self.stdout.write(f"\nresults written to {options['json']}")
