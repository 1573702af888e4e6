"""python manage.py load_demo: a round robin and a championship in stages to look at, and a
match under way to referee.

A development command (`make run` calls it): the demo logins' passwords are published,
so it creates them only with DEBUG on, or when asked with --demo-logins.
"""

from collections.abc import Sequence
from datetime import date, timedelta
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser
from django.urls import reverse
from tqdm import tqdm

from matches import demo, demo_championship, services
from matches.domain.simulator import DEFAULT_PLAYERS, iter_competition
from matches.models import Competition, Match
from matches.records import record_import

DEMO_COMPETITION = "demo-cup"
DEMO_NAME = "Demo Cup 2026"
DEMO_PLAYERS = DEFAULT_PLAYERS[:6]  # a round robin of 15 matches
FULL_ROUND_ROBIN = len(DEMO_PLAYERS) * (len(DEMO_PLAYERS) - 1) // 2
BY = "demo"


class Command(BaseCommand):
    help = (
        "For development only. Load a demo competition of simulated matches (skipped when "
        "any match is stored), and a match under way with a demo referee and a demo staff "
        "login whose published passwords it prints (with DEBUG on, or --demo-logins)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--matches",
            type=int,
            default=FULL_ROUND_ROBIN,
            help=(
                f"matches of the round robin of {len(DEMO_PLAYERS)} players played (default: "
                f"all {FULL_ROUND_ROBIN}); the others are scheduled, not played"
            ),
        )
        parser.add_argument("--seed", type=int, default=2026)
        parser.add_argument("--force", action="store_true", help="load even if matches exist")
        parser.add_argument(
            "--demo-logins",
            action="store_true",
            help="create the demo logins even with DEBUG off (anyone can read their passwords)",
        )
        parser.add_argument(
            "--address",
            default="http://127.0.0.1:8000",
            help="where the pages will be served, for the addresses printed",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        self.round_robin(options)
        self.championship(options["address"].rstrip("/"))
        if not (settings.DEBUG or options["demo_logins"]):
            self.stdout.write(
                "DEBUG is off: no demo logins nor match to referee (their passwords are "
                "published); pass --demo-logins to create them anyway"
            )
            return
        logins = demo.logins_ensure()
        match = demo.live_match_ensure()
        self.describe(match, logins, options["address"].rstrip("/"))

    def round_robin(self, options: dict[str, Any]) -> None:
        if Match.objects.exists() and not options["force"]:
            self.stdout.write("matches are stored already: no demo loaded")
            return
        seed, count = options["seed"], options["matches"]
        if not Competition.objects.filter(pk=DEMO_COMPETITION).exists():
            services.competition_create(id=DEMO_COMPETITION, name=DEMO_NAME)
        for player in DEMO_PLAYERS:
            services.player_enter(competition_id=DEMO_COMPETITION, player=player, by=BY)
        records = iter_competition(seed, count, DEMO_PLAYERS, competition=DEMO_COMPETITION)
        imported, days = 0, []
        for record in tqdm(records, total=count, desc="demo", unit="match"):
            imported += record_import(record, by=BY).outcome != "unchanged"
            days.append(date.fromisoformat(record["match"]["date"]))
        # The pairs not played yet, from the day after: the schedule shows what is to come.
        scheduled = services.round_robin_create(
            competition_id=DEMO_COMPETITION,
            by=BY,
            first_date=max(days) + timedelta(days=1) if days else None,
        )
        self.stdout.write(
            f"demo competition {DEMO_COMPETITION!r} ({DEMO_NAME}): {len(DEMO_PLAYERS)} players, "
            f"{imported} matches played, {len(scheduled)} scheduled"
        )

    def championship(self, address: str) -> None:
        """Load the championship in stages, and its undrawn copy, whichever is missing."""
        created = demo_championship.championship_ensure()
        for competition in created:
            page = reverse("replay:competition", args=[competition])
            self.stdout.write(f"demo championship {competition!r}: {address}{page}")

    def describe(self, match: Match, logins: Sequence[demo.Login], address: str) -> None:
        players = f"{match.players['A']['name']} v {match.players['B']['name']}"
        pages = [
            ("live board", reverse("replay:board", args=[match.id])),
            ("console", reverse("console:match", args=[match.id])),
            ("overlay", reverse("replay:overlay", args=[match.id])),
            ("hall", reverse("replay:competition-hall", args=[match.competition_id])),
        ]
        lines = [
            "",
            f"demo match {match.id!r} under way: {players}",
            *(f"  {name:<11} {address}{path}" for name, path in pages),
            f"demo logins, for this machine only (log in at {address}{reverse('login')}):",
            *(f"  {login.username} / {login.password}  ({login.may})" for login in logins),
        ]
        self.stdout.write("\n".join(lines))
