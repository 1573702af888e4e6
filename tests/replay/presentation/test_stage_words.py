"""A competition's stages in words: named by what they are, rounds and slots as a director
says them, in both languages, never by their ids unless two stages would read alike."""

from __future__ import annotations

import pytest
from django.utils import translation

from matches.domain.stages import parse_stages
from replay.presentation.stage_words import (
    Terms,
    alike_marked,
    match_place,
    out_words,
    setup_words,
    slot_words,
    stage_name,
)

GROUPS = Terms("groups", "groups", groups=2)
KNOCKOUT = Terms("ko", "knockout", rounds=3)


@pytest.mark.parametrize(
    ("slot", "rounds", "en", "uk"),
    [
        ("W:ko-2-1", 3, "Winner of semi-final 1", "Переможець півфіналу 1"),
        ("L:ko-2-2", 3, "Loser of semi-final 2", "Гравець із поразкою в півфіналі 2"),
        ("W:ko-1-3", 3, "Winner of quarter-final 3", "Переможець чвертьфіналу 3"),
        ("W:ko-1-5", 4, "Winner of match 5 of round 1", "Переможець матчу 5 раунду 1"),
        ("groups:B2", 0, "2nd of group B", "2-ге місце в групі B"),
        ("ko:S5", 0, "Seed 5", "Посів 5"),
        ("BYE", 0, "Bye", "Вільний прохід"),
    ],
)
def test_a_slot_names_what_will_fill_it_in_the_page_s_language(slot, rounds, en, uk):
    for language, words in (("en", en), ("uk", uk)):
        with translation.override(language):
            assert slot_words(slot, rounds) == words


def test_stages_are_named_by_what_they_are_and_by_their_id_only_when_two_read_alike():
    with translation.override("en"):
        assert [stage_name(GROUPS), stage_name(KNOCKOUT)] == ["Group stage", "Knockout"]
        assert stage_name(Terms("league", "groups", groups=1)) == "Round robin"
        twice = alike_marked([Terms("q", "groups", groups=4), Terms("main", "groups", groups=2)])
        assert [stage_name(terms) for terms in twice.values()] == [
            "Group stage (q)",
            "Group stage (main)",
        ]
    with translation.override("uk"):
        assert [stage_name(GROUPS), stage_name(KNOCKOUT)] == ["Груповий етап", "Плей-оф"]


def test_a_match_s_place_and_where_a_player_went_out_are_worded_without_ids():
    terms = {"groups": GROUPS, "ko": KNOCKOUT}
    with translation.override("en"):
        assert match_place(GROUPS, "B", "B3") == "Group stage · group B"
        assert match_place(KNOCKOUT, "", "3-1") == "Knockout · Final"
        assert match_place(KNOCKOUT, "", "2-2") == "Knockout · Semi-final"
        assert match_place(KNOCKOUT, "", "3rd") == "Knockout · third-place match"
        assert out_words("ko:2", terms) == "Knockout · Semi-finals"
        assert out_words("groups", terms) == "Group stage"
        assert out_words(None, terms) == "—"
    with translation.override("uk"):
        assert match_place(KNOCKOUT, "", "3-1") == "Плей-оф · Фінал"
        assert match_place(GROUPS, "A", "A1") == "Груповий етап · група A"


STAGES = [
    {"id": "groups", "kind": "groups", "groups": 4, "advance": 2},
    {
        "id": "ko",
        "kind": "knockout",
        "from": "groups",
        "direct": 2,
        "third_place": True,
        "ruleset": {"target": 120, "best_of": 5},
    },
]


def test_a_stages_set_up_is_said_back_as_it_was_stored():
    groups, knockout = parse_stages(STAGES, {"target": 100})
    names = {"groups": "Group stage", "ko": "Knockout"}

    with translation.override("en"):
        assert setup_words(groups, {"target": 100}, names) == (
            "4 groups; the first 2 of each go on; games to 100 points, best of 3."
        )
        assert setup_words(knockout, {"target": 100}, names) == (
            "the qualifiers of Group stage; seeds 1 to 2 join without playing Group stage; "
            "round one as large as the players need; a match for third place; games to 120 "
            "points, best of 5."
        )


def test_a_knockout_of_the_entries_says_its_size_and_no_third_place_match_in_ukrainian():
    (knockout,) = parse_stages([{"id": "ko", "kind": "knockout", "size": 8}])

    with translation.override("uk"):
        words = setup_words(knockout, None, {})

    assert "8 місць у першому раунді" in words and "без матчу за третє місце" in words


@pytest.mark.parametrize(
    ("advance", "direct", "said"),
    [
        (1, 1, ["далі проходить переможець кожної", "посів 1 приєднується без етапу «Групи»"]),
        (2, 21, ["далі проходять перші 2 з кожної", "посіви з 1 до 21 приєднуються"]),
    ],
)
def test_one_qualifier_or_seed_is_said_alone_and_several_as_a_range_in_ukrainian(
    advance, direct, said
):
    groups, knockout = parse_stages(
        [
            {"id": "groups", "kind": "groups", "groups": 16, "advance": advance},
            {"id": "ko", "kind": "knockout", "from": "groups", "direct": direct},
        ]
    )

    with translation.override("uk"):
        words = setup_words(groups, None, {}) + setup_words(knockout, None, {"groups": "Групи"})

    assert all(part in words for part in said), words


@pytest.mark.parametrize(
    ("target", "best_of", "said"),
    [
        (21, 1, "партії до 21 очка, зустріч до 1 партії"),
        (60, 3, "партії до 60 очок, зустріч до 3 партій"),
        (2, 5, "партії до 2 очок, зустріч до 5 партій"),
    ],
)
def test_the_games_of_a_stage_take_the_form_of_their_count_in_ukrainian(target, best_of, said):
    (knockout,) = parse_stages(
        [{"id": "ko", "kind": "knockout", "ruleset": {"target": target, "best_of": best_of}}]
    )

    with translation.override("uk"):
        words = setup_words(knockout, None, {})

    assert said in words, words


@pytest.mark.parametrize(
    ("size", "said"), [(2, "2 місця в першому"), (32, "32 місця"), (8, "8 місць")]
)
def test_a_knockouts_places_take_the_form_of_their_count_in_ukrainian(size, said):
    (knockout,) = parse_stages([{"id": "ko", "kind": "knockout", "size": size}])

    with translation.override("uk"):
        assert said in setup_words(knockout, None, {})
