"""A correction's consequences in words: the third-place match, played in the final's round,
is never called the final."""

from __future__ import annotations

from django.utils import translation

from replay.presentation.consequence_words import consequence_sentences, log_sentence
from replay.presentation.stage_words import Terms

KNOCKOUT = {"ko": Terms("ko", "knockout", rounds=2)}


def test_a_preview_names_a_disputed_third_place_match_so_and_the_final_the_final():
    said = consequence_sentences(
        {
            "slots": {
                "disputes": [
                    {
                        "match": "euro-ko-3rd",
                        "players": ["Bianchi", "Marchetti"],
                        "round": 2,
                        "rounds": 2,
                    },
                    {
                        "match": "euro-ko-2-1",
                        "players": ["Rossi", "Fernández"],
                        "round": 2,
                        "rounds": 2,
                    },
                ],
                "moves": [
                    {
                        "match": "euro-ko-3rd-r2",
                        "place": "ko-2-0",
                        "round": 2,
                        "rounds": 2,
                        "before": ["Bianchi", "Marchetti"],
                        "after": ["Dubois", "Marchetti"],
                    },
                ],
            }
        }
    )

    assert said == [
        "Dubois, not Bianchi, meets Marchetti in the third-place match",
        "The third-place match Bianchi v Marchetti has started and would be disputed",
        "The final Rossi v Fernández has started and would be disputed",
    ]


def test_the_history_names_a_decision_and_a_move_in_the_third_place_match_so():
    decided = {
        "type": "dispute_decided",
        "place": "ko-2-0",
        "players": ["Bianchi", "Marchetti"],
        "keep": True,
        "reason": "it stands",
    }
    moved = {
        "type": "players_moved",
        "slot": "3rd",
        "cause": {"type": "dispute_decided"},
        "was": {"A": {"name": "Bianchi"}, "B": {"name": "Marchetti"}},
        "now": {"A": {"name": "Dubois"}, "B": {"name": "Marchetti"}},
    }

    assert log_sentence(decided, KNOCKOUT).startswith("Decision on the third-place match")
    assert log_sentence(moved, KNOCKOUT).endswith("in the third-place match")
    with translation.override("uk"):
        assert "фінал " not in log_sentence(decided, KNOCKOUT)


def test_a_move_names_the_corrected_shot_by_its_number_or_else_by_its_event():
    moved = {
        "type": "players_moved",
        "slot": "3rd",
        "cause": {"type": "shot_amended", "shot": 4, "number": 1, "players": ["Ann", "Bea"]},
        "was": {"A": {"name": "Bianchi"}, "B": {"name": "Marchetti"}},
        "now": {"A": {"name": "Dubois"}, "B": {"name": "Marchetti"}},
    }
    logged_before = {**moved, "cause": {**moved["cause"], "number": None}}

    assert log_sentence(moved, KNOCKOUT).startswith("Amendment to shot 1 of Ann v Bea: ")
    assert log_sentence(logged_before, KNOCKOUT).startswith(
        "Amendment to the shot of event 4 of Ann v Bea: "
    )
    with translation.override("uk"):
        assert "удар 1 у зустрічі Ann" in log_sentence(moved, KNOCKOUT)
