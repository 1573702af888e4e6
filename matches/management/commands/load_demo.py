"""python manage.py load_demo: a simulated round robin to look at, unless matches exist."""

from django.core.management.base import BaseCommand
from tqdm import tqdm

from matches.models import Match
from matches.records import record_import
from matches.simulator import iter_competition

DEMO_COMPETITION = "demo-cup"


class Command(BaseCommand):
    help = "Load a demo competition of simulated matches (skipped when any match is stored)."

    def add_arguments(self, parser):
        parser.add_argument("--matches", type=int, default=15, help="matches to simulate")
        parser.add_argument("--seed", type=int, default=2026)
        parser.add_argument("--force", action="store_true", help="load even if matches exist")

    def handle(self, *args, **options):
        if Match.objects.exists() and not options["force"]:
            self.stdout.write("matches are stored already: no demo loaded")
            return
        seed, count = options["seed"], options["matches"]
        records = iter_competition(seed, count, competition=DEMO_COMPETITION)
        imported = 0
        for record in tqdm(records, total=count, desc="demo", unit="match"):
            imported += record_import(record, by="demo").outcome != "unchanged"
        self.stdout.write(f"demo competition {DEMO_COMPETITION!r}: {imported} matches loaded")
