"""The Python side of the tables a script must agree with (tests/fixtures/scripts/).

tests/js/shared-fixtures.test.js reads the same cases for scoreboard.js, words.js and
player-key.js, and tests/js/globals.js gives every script test the constants checked here.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.template import engines
from django.utils import translation

from replay.presentation.sentences import ruling_in_words, shot_in_words
from replay.queries.player_keys import player_key
from replay.templatetags.script_constants import ELEMENT_ID, script_constants_data
from replay.web.board_context import _points, moment

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "scripts"


def table(name: str) -> Any:
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


@pytest.fixture(autouse=True)
def in_english():
    with translation.override("en"):
        yield


BOARD = table("board.json")
SENTENCES = table("sentences.json")


@pytest.mark.parametrize("case", BOARD["moments"], ids=lambda case: case["name"])
def test_the_board_says_each_moment_as_the_script_does(case):
    assert moment(case["state"], BOARD["names"], case["last_event_type"]) == case["moment"]


@pytest.mark.parametrize("case", BOARD["points"], ids=lambda case: case["name"])
def test_the_board_gives_each_shot_the_points_the_script_gives(case):
    assert _points(case["shot"]) == case["points"]


@pytest.mark.parametrize("case", SENTENCES["rulings"], ids=lambda case: case["name"])
def test_a_ruling_reads_as_the_script_writes_it(case):
    assert ruling_in_words(case["ruling"], SENTENCES["names"], case["player"]) == case["words"]


@pytest.mark.parametrize("case", SENTENCES["shots"], ids=lambda case: case["name"])
def test_a_shot_reads_as_the_script_writes_it(case):
    assert shot_in_words(case["shot"], SENTENCES["names"], SENTENCES["games"]) == case["words"]


@pytest.mark.parametrize("case", table("player_keys.json"), ids=lambda case: case["name"])
def test_a_players_key_is_the_one_the_script_writes(case):
    assert player_key(case["federation_id"], case["pk"]) == case["key"]


def test_the_scripts_tests_use_the_constants_the_pages_are_given():
    assert script_constants_data() == table("constants.json")


def test_the_constants_tag_writes_them_as_json_the_csp_lets_through():
    tag = engines["django"].from_string("{% load script_constants %}{% script_constants %}")
    page = tag.render()
    opening = f'<script id="{ELEMENT_ID}" type="application/json">'
    assert page.startswith(opening)
    body = page.removeprefix(opening)
    assert json.loads(body.removesuffix("</script>")) == script_constants_data()
