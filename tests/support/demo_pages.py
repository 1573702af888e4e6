"""The demo's pages, one of each family, and what a strict policy refuses in a page."""

from __future__ import annotations

import io
import re
from html.parser import HTMLParser

from django.core.management import call_command
from django.test import Client

from matches.models import Match

LIVE = "demo-live-1"


def demo_pages(client: Client) -> list[str]:
    """Load the demo; return a path of each family of pages (staff's ones for `client`)."""
    call_command("load_demo", matches=1, demo_logins=True, stdout=io.StringIO())
    call_command("rebuild_projections", no_progress=True, stdout=io.StringIO())
    finished = Match.objects.exclude(pk=LIVE).order_by("pk").first().pk
    replay = f"/matches/{finished}/replay/"
    players = re.findall(r'href="(/players/[^"?]+/)"', client.get(replay).content.decode())
    assert len(set(players)) >= 2, "the replay links both players"
    one, other = dict.fromkeys(players)
    versus = other.removeprefix("/players/").removesuffix("/")
    return [
        "/",
        f"/matches/{LIVE}/",
        f"/matches/{LIVE}/overlay/",
        replay,
        "/archive/",
        one,
        f"{one}?versus={versus}",
        "/competitions/",
        "/competitions/demo-cup/",
        "/competitions/demo-cup/history/",
        f"/referee/matches/{LIVE}/",
        "/login/",
        "/api/docs/",
        "/admin/",
        "/no-such-page/",
    ]


class Inline(HTMLParser):
    """Collect what a strict policy refuses in a page: inline scripts, styles, handlers."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []
        self.in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = dict(attrs)
        if tag == "style":
            self.found.append("<style>")
        if "style" in names:
            self.found.append(f'<{tag} style="{names["style"]}">')
        self.found += [f"<{tag} {name}=...>" for name in names if name.startswith("on")]
        values = ((value or "").strip().lower() for value in names.values())
        if any(value.startswith("javascript:") for value in values):
            self.found.append(f"<{tag} ...javascript:>")
        # A data block (json_script) is never run, so the policy does not apply to it.
        self.in_script = (
            tag == "script" and "src" not in names and names.get("type") != ("application/json")
        )

    def handle_data(self, data: str) -> None:
        if self.in_script and data.strip():
            self.found.append(f"<script>{data.strip()[:40]}")

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self.in_script = False


def inline_code(html: str) -> list[str]:
    parser = Inline()
    parser.feed(html)
    return parser.found
