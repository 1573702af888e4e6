"""The viewer's pages on a 390×844 phone, in both languages: none scrolls sideways, nothing
is cut off at the screen's edge, no text is smaller than 14 px."""

from __future__ import annotations

import pytest
from django.urls import reverse

from matches import services
from matches.domain.simulator import iter_competition
from matches.models import Player
from replay.queries.player_keys import player_key
from tests.support.browser import wait_until
from tests.support.builders import open_game
from tests.support.pages import PROBLEMS
from tests.support.replays import imported
from tests.support.screens import PHONE, save_shot, screen
from tests.support.stages_to_show import sixteen, two_groups

# The width the page's content takes, and the screen's.
WIDTHS = "return [document.documentElement.scrollWidth, document.documentElement.clientWidth]"


def key(name: str) -> str:
    player = Player.objects.get(name=name)
    return player_key(player.federation_id, player.pk)


@pytest.mark.parametrize("language", ["en", "uk"])
def test_no_viewer_s_page_scrolls_sideways_on_a_phone(served, browsers, language):
    two_groups()
    match_id, _ = imported(next(iter_competition(2026, 1, competition="browser")))
    sixteen()  # a bracket, its first match won by Wojciechowski over Schmidt
    services.tables_set(competition_id="cup", names=["1"], by="federation")
    services.match_assign_table(match_id="cup-groups-A1", table="1", by="federation")
    open_game("cup-groups-A1")
    player = reverse("replay:player", args=[key("Maximiliano Wojciechowski")])
    pages = {
        "replay": reverse("replay:replay", args=[match_id]),
        "board": reverse("replay:board", args=[match_id]),
        "competition in groups": reverse("replay:competition", args=["cup"]),
        "competition in a bracket": reverse("replay:competition", args=["open"]),
        "hall": reverse("replay:competition-hall", args=["cup"]),
        "players": reverse("replay:players"),
        "player": player,
        "head-to-head": f"{player}?versus={key('Lena Schmidt')}",
    }
    phone = screen(browsers, PHONE, language)
    problems = {}

    for name, page in pages.items():
        phone.get(served.url + page)
        wait_until(phone, lambda d: d.execute_script("return document.readyState") == "complete")
        width, screen_width = phone.execute_script(WIDTHS)
        found = phone.execute_script(PROBLEMS, "main > *")
        if width > screen_width or found:
            problems[name] = [f"{width} px wide", *found]
        save_shot(phone, f"phone-{name.replace(' ', '-')}-{language}")

    assert problems == {}
