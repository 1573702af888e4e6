"""What a standings version changed, in a sentence: the corrected shot named as pages name it."""

from __future__ import annotations

from replay.models import StandingsChange
from replay.presentation.standings_words import sentence

RESULT = {
    "before": {"counted": True, "winner": "Bea", "games": [0, 1]},
    "after": {"counted": True, "winner": "Ann", "games": [1, 0]},
}


def change(**cause: object) -> StandingsChange:
    base = {"type": "shot_amended", "shot": 4, "by": "petrenko", "players": ["Ann", "Bea"]}
    return StandingsChange(changes={"cause": {**base, **cause}, "result": RESULT})


def test_a_correction_names_its_shot_by_its_number_and_game():
    said = sentence(change(number=1, game=1))

    assert said.startswith("Amendment to shot 1 (game 1) of Ann v Bea, by petrenko: ")


def test_a_change_kept_before_shots_were_numbered_names_its_shot_by_its_event():
    said = sentence(change(game=1))

    assert said.startswith("Amendment to the shot of event 4 of Ann v Bea, by petrenko: ")
