"""A competition's stages as written: the spec's shape accepted, each fault refused by its field."""

from __future__ import annotations

import pytest

from matches.errors import Refused
from matches.stages import Stage, parse_stages

EURO = [
    {"id": "groups", "kind": "groups", "groups": 8, "advance": 2},
    {
        "id": "ko",
        "kind": "knockout",
        "from": "groups",
        "size": 16,
        "ruleset": {"best_of": 5},
        "third_place": False,
    },
]


def test_the_spec_example_is_two_stages_the_knockout_taking_the_groups_qualifiers():
    groups, knockout = parse_stages(EURO, {"target": 60, "best_of": 3})

    assert groups == Stage("groups", "groups", groups=8, advance=2)
    assert knockout == Stage("ko", "knockout", {"best_of": 5}, source="groups", size=16)


def test_a_stage_ruleset_overrides_the_competitions_key_by_key():
    knockout = parse_stages(EURO)[1]

    ruleset = knockout.ruleset_under({"target": 60, "best_of": 3})

    assert (ruleset.target, ruleset.best_of) == (60, 5)


def test_a_plain_round_robin_is_one_groups_stage_of_one_group_and_a_direct_entry_is_counted():
    assert parse_stages([{"id": "rr", "kind": "groups", "groups": 1}]) == [
        Stage("rr", "groups", groups=1)
    ]
    world = [*EURO[:1], {"id": "last32", "kind": "knockout", "from": "groups", "direct": 16}]
    assert parse_stages(world)[1].direct == 16


@pytest.mark.parametrize(
    ("stages", "field"),
    [
        ("groups", "stages"),
        ([], "stages"),
        ([{"id": "rr", "kind": "groups", "groups": 1}] * 9, "stages"),
        (["groups"], "stages[0]"),
        ([{"id": "rr", "kind": "swiss", "groups": 1}], "stages[0].kind"),
        ([{"id": "rr", "kind": "groups", "groups": 1, "size": 8}], "stages[0].size"),
        ([{"id": "r-r", "kind": "groups", "groups": 1}], "stages[0].id"),
        ([{"id": "ko:1", "kind": "knockout"}], "stages[0].id"),
        ([{"id": "", "kind": "knockout"}], "stages[0].id"),
        ([{"kind": "knockout"}], "stages[0].id"),
        ([{"id": "rr", "kind": "groups"}], "stages[0].groups"),
        ([{"id": "rr", "kind": "groups", "groups": 27}], "stages[0].groups"),
        ([{"id": "rr", "kind": "groups", "groups": 2, "advance": 0}], "stages[0].advance"),
        ([{"id": "ko", "kind": "knockout", "size": 12}], "stages[0].size"),
        ([{"id": "ko", "kind": "knockout", "size": 1}], "stages[0].size"),
        ([{"id": "ko", "kind": "knockout", "third_place": "yes"}], "stages[0].third_place"),
        ([{"id": "ko", "kind": "knockout", "direct": 4}], "stages[0].direct"),
        ([{"id": "ko", "kind": "knockout", "from": "groups"}], "stages[0].from"),
        ([EURO[0], {**EURO[1], "from": "ko"}], "stages[1].from"),
        ([{**EURO[0], "advance": None}, EURO[1]], "stages[1].from"),
        ([EURO[0], {**EURO[1], "id": "groups"}], "stages[1].id"),
        ([EURO[0], {**EURO[1], "ruleset": {"best_of": 4}}], "stages[1].ruleset.best_of"),
        ([EURO[0], {**EURO[1], "ruleset": {"speed": 1}}], "stages[1].ruleset.speed"),
        ([EURO[0], {**EURO[1], "ruleset": []}], "stages[1].ruleset"),
    ],
)
def test_a_faulty_stage_is_refused_naming_its_field(stages, field):
    with pytest.raises(Refused) as refused:
        parse_stages(stages, {"target": 60, "best_of": 3})

    assert refused.value.field == field
