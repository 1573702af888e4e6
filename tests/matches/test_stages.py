"""A competition's stages as written: the spec's shape accepted, each fault refused by its field."""

from __future__ import annotations

import pytest

from matches.domain.errors import Refused
from matches.domain.stages import Stage, parse_stages

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


def groups(count: int, advance: int, stage_id: str = "groups", **more) -> dict:
    return {"id": stage_id, "kind": "groups", "groups": count, "advance": advance, **more}


def knockout(**more) -> dict:
    return {"id": "ko", "kind": "knockout", "from": "groups", **more}


@pytest.mark.parametrize(
    "stages",
    [
        [groups(8, 2), knockout(size=16)],
        [groups(8, 2), knockout(direct=16, size=32, third_place=True)],
        [groups(3, 2), knockout(direct=1, size=8)],
        [groups(2, 2), knockout(third_place=True)],
        [groups(4, 2), groups(2, 3, "final", **{"from": "groups"})],
        [groups(4, 2), groups(2, 1, "second", **{"from": "groups", "direct": 4})],
        [
            groups(4, 3),
            groups(3, 1, "second", **{"from": "groups"}),
            knockout(**{"from": "second"}),
        ],
        [{"id": "ko", "kind": "knockout", "size": 4, "third_place": True}],
    ],
)
def test_a_shape_whose_counts_fit_is_accepted(stages):
    assert len(parse_stages(stages)) == len(stages)


@pytest.mark.parametrize(
    ("stages", "field"),
    [
        # 16 qualifiers: the size must be from 16 to 16.
        ([groups(8, 2), knockout(size=8)], "stages[1].size"),
        ([groups(8, 2), knockout(size=32)], "stages[1].size"),
        # 16 seeded entries join them: 32 players.
        ([groups(8, 2), knockout(direct=16, size=16)], "stages[1].size"),
        ([groups(8, 2), knockout(direct=16, size=64)], "stages[1].size"),
        ([groups(1, 1), knockout()], "stages[1].from"),
        ([groups(26, 10), knockout()], "stages[1].from"),
        ([groups(8, 2), knockout(direct=241)], "stages[1].direct"),
        ([groups(1, 3), knockout(third_place=True)], "stages[1].third_place"),
        (
            [{"id": "ko", "kind": "knockout", "size": 2, "third_place": True}],
            "stages[0].third_place",
        ),
        # 4 qualifiers: 3 groups would leave one with a single player.
        ([groups(2, 2), groups(3, 1, "final", **{"from": "groups"})], "stages[1].groups"),
        # 8 qualifiers in 2 groups of 4: no group has a fifth place to send on.
        ([groups(4, 2), groups(2, 5, "final", **{"from": "groups"})], "stages[1].advance"),
        (
            [
                groups(4, 2),
                groups(2, 2, "final", **{"from": "groups", "direct": 1}),
                knockout(**{"from": "final"}, direct=1),
            ],
            "stages[2].direct",
        ),
    ],
)
def test_a_shape_whose_counts_cannot_fit_is_refused_at_creation_naming_the_field(stages, field):
    with pytest.raises(Refused) as refused:
        parse_stages(stages)

    assert refused.value.field == field
