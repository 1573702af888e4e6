"""Examples in the schema: the notation's example match, as a client would send it.

Swagger UI fills its forms with them, and the fuzzing test starts from them.
"""

from drf_spectacular.utils import OpenApiExample

PLAYERS_EXAMPLE = {
    "A": {"name": "Olena Kovalenko", "federation_id": "UA-101"},
    "B": {"name": "Marco Marchetti", "federation_id": "IT-202"},
}
COMPETITION_EXAMPLES = [
    OpenApiExample(
        "a competition",
        value={"id": "cup-2026", "name": "Cup 2026", "ruleset": {"target": 60, "best_of": 3}},
        request_only=True,
    )
]
MATCH_EXAMPLES = [
    OpenApiExample(
        "a match",
        value={
            "id": "cup-2026-a-3",
            "competition": "cup-2026",
            "players": PLAYERS_EXAMPLE,
            "balls": {"A": "white", "B": "yellow"},
            "referee": "petrenko",
            "referee_name": "I. Petrenko",
            "stage": "Group A",
            "table": "3",
            "date": "2026-11-29",
        },
        request_only=True,
    )
]
EVENT_EXAMPLES = [
    OpenApiExample(
        "the lag",
        value={
            "expected_seq": 0,
            "event": {"type": "lag", "A": {"distance": 120}, "B": {"distance": 95}},
        },
        request_only=True,
    ),
    OpenApiExample(
        "the lag, by its winner alone (nothing measured)",
        value={"expected_seq": 0, "event": {"type": "lag", "winner": "B"}},
        request_only=True,
    ),
    OpenApiExample(
        "a shot by whoever is due",
        value={
            "expected_seq": 3,
            "event": {
                "type": "shot",
                "contacts": [
                    {"ball": "white", "hit": "yellow"},
                    {"ball": "white", "hit": "red"},
                    {"ball": "red", "hit": "pins", "pins": ["left", "center"]},
                ],
            },
        },
        request_only=True,
    ),
    OpenApiExample(
        "an amendment",
        value={
            "expected_seq": 9,
            "event": {
                "type": "shot_amended",
                "shot": 4,
                "facts": {"contacts": [{"ball": "white", "hit": "yellow"}]},
                "reason": "video review",
            },
        },
        request_only=True,
    ),
]
JUDGE_EXAMPLES = [
    OpenApiExample(
        "the next shot",
        value={"contacts": [{"ball": "white", "hit": "yellow"}, {"ball": "white", "hit": "red"}]},
        request_only=True,
    ),
    OpenApiExample(
        "an amendment of the shot at seq 4",
        value={"shot": 4, "contacts": [{"ball": "white", "hit": "cushion"}]},
        request_only=True,
    ),
]
REFEREE_EXAMPLES = [
    OpenApiExample("a referee", value={"username": "petrenko"}, request_only=True),
    OpenApiExample("nobody", value={"username": None}, request_only=True),
]
