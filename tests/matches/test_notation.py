"""The notation: shot facts, match records and the hash chain."""

import copy
import hashlib
from typing import Any

import pytest

from matches.domain.chain import event_hash, header_hash
from matches.domain.errors import Refused
from matches.domain.events import parse_record
from matches.domain.header import parse_header
from matches.domain.notation import canonical_json, parse_shot
from matches.domain.rules import Contact, Ruleset

W_Y = {"ball": "white", "hit": "yellow"}


def contact(ball: str, hit: str, *pins: str, **extra: Any) -> dict[str, Any]:
    raw: dict[str, Any] = {"ball": ball, "hit": hit, **extra}
    if pins:
        raw["pins"] = list(pins)
    return raw


# -- Shot facts ---------------------------------------------------------------------


def test_shot_facts_of_the_notation_example_are_parsed_in_order():
    facts = {
        "struck": "white",
        "contacts": [
            contact("white", "yellow"),
            contact("yellow", "red"),
            contact("red", "pins", "left", "center"),
            contact("white", "cushion"),
            contact("white", "red", same_time=True),
            contact("yellow", "off"),
        ],
        "called": ["feet"],
        "rest": {"white": [355.0, 1200.5], "red": [700.0, 2300.0]},
    }

    parsed = parse_shot(facts, "white")

    assert parsed.struck == "white"
    assert parsed.contacts[2] == Contact(ball="red", hit="pins", pins=("left", "center"))
    assert parsed.contacts[4].same_time is True
    assert parsed.called == ("feet",)
    assert parsed.rest == {"white": (355.0, 1200.5), "red": (700.0, 2300.0)}


@pytest.mark.parametrize(
    ("facts", "own", "struck"),
    [
        pytest.param({}, "white", "white", id="absent"),
        pytest.param({"struck": None}, "yellow", "yellow", id="null"),
        pytest.param({"struck": "red"}, "white", "red", id="given"),
    ],
)
def test_struck_ball_defaults_to_the_shooters_own(facts, own, struck):
    assert parse_shot(facts, own).struck == struck


ACCEPTED = [
    pytest.param({"contacts": [contact("yellow", "white")]}, id="ball and hit in either order"),
    pytest.param(
        {"contacts": [W_Y, contact("yellow", "red"), contact("red", "pins", "center")]},
        id="a ball moves once something hits it",
    ),
    pytest.param(
        {"struck": "yellow", "contacts": [contact("yellow", "red"), contact("red", "pins", "top")]},
        id="a wrong struck ball moves first",
    ),
    pytest.param(
        {"contacts": [W_Y, contact("yellow", "off"), contact("white", "pins", "left")]},
        id="others act after one ball left",
    ),
    pytest.param(
        {"contacts": [W_Y, contact("white", "red", same_time=True)], "called": []},
        id="same_time and empty called",
    ),
]


@pytest.mark.parametrize("facts", ACCEPTED)
def test_contacts_that_can_happen_are_accepted(facts):
    parsed = parse_shot(facts, "white")

    assert len(parsed.contacts) == len(facts["contacts"])


def test_rest_positions_touching_each_other_and_the_cushions_are_accepted():
    rest = {"white": [30.75, 30.75], "yellow": [92.25, 30.75], "red": [1389.25, 2809.25]}

    assert parse_shot({"rest": rest}, "white").rest == {
        "white": (30.75, 30.75),
        "yellow": (92.25, 30.75),
        "red": (1389.25, 2809.25),
    }


REJECTED_SHOTS = [
    # Unknown names.
    pytest.param({"struck": "blue"}, "struck", id="unknown struck ball"),
    pytest.param({"contacts": [contact("blue", "yellow")]}, "contacts[0].ball", id="unknown ball"),
    pytest.param(
        {"contacts": [W_Y, contact("yellow", "green")]}, "contacts[1].hit", id="unknown hit ball"
    ),
    pytest.param(
        {"contacts": [W_Y, contact("white", "pocket")]},
        "contacts[1].hit",
        id="unknown contact kind",
    ),
    pytest.param(
        {"contacts": [W_Y, W_Y, W_Y, contact("yellow", "pins", "left", "middle")]},
        "contacts[3].pins[1]",
        id="unknown pin",
    ),
    pytest.param({"called": ["feet", "slow_play"]}, "called[1]", id="unknown foul code"),
    pytest.param({"called": ["miss"]}, "called[0]", id="stroke foul cannot be called"),
    # Impossible contacts.
    pytest.param({"contacts": [contact("white", "white")]}, "contacts[0].hit", id="touches itself"),
    pytest.param(
        {"contacts": [contact("yellow", "red")]},
        "contacts[0].ball",
        id="two balls not moving yet",
    ),
    pytest.param(
        {
            "contacts": [
                contact("white", "cushion"),
                contact("white", "cushion"),
                contact("white", "cushion"),
                contact("red", "yellow"),
            ]
        },
        "contacts[3].ball",
        id="two balls not moving after cushions",
    ),
    pytest.param(
        {"contacts": [W_Y, contact("red", "pins", "center")]},
        "contacts[1].ball",
        id="pins knocked by a ball not moving",
    ),
    pytest.param(
        {"contacts": [contact("yellow", "cushion")]},
        "contacts[0].ball",
        id="cushion of a ball not moving",
    ),
    pytest.param(
        {"contacts": [W_Y, contact("red", "off")]},
        "contacts[1].ball",
        id="a ball not moving leaves the table",
    ),
    pytest.param(
        {"struck": "yellow", "contacts": [contact("white", "cushion")]},
        "contacts[0].ball",
        id="own ball not moving after a wrong ball",
    ),
    pytest.param(
        {"contacts": [W_Y, contact("yellow", "pins", "top", "top")]},
        "contacts[1].pins[1]",
        id="pin falls twice in one contact",
    ),
    pytest.param(
        {
            "contacts": [
                W_Y,
                contact("yellow", "pins", "left"),
                contact("white", "pins", "center", "left"),
            ]
        },
        "contacts[2].pins[1]",
        id="pin falls twice in two contacts",
    ),
    pytest.param(
        {"contacts": [W_Y, contact("yellow", "off"), contact("yellow", "cushion")]},
        "contacts[2].ball",
        id="ball acts after it left the table",
    ),
    pytest.param(
        {"contacts": [W_Y, contact("yellow", "off"), contact("white", "yellow")]},
        "contacts[2].hit",
        id="ball is hit after it left the table",
    ),
    pytest.param(
        {"contacts": [contact("white", "off"), contact("white", "off")]},
        "contacts[1].ball",
        id="ball leaves the table twice",
    ),
    pytest.param({"called": ["feet", "jump", "feet"]}, "called[2]", id="called code repeats"),
    # Rest positions.
    pytest.param({"rest": {"yellow": [10.0, 500.0]}}, "rest.yellow[0]", id="rest over left"),
    pytest.param({"rest": {"yellow": [1400.0, 500.0]}}, "rest.yellow[0]", id="rest over right"),
    pytest.param({"rest": {"red": [700.0, -5.0]}}, "rest.red[1]", id="rest below the table"),
    pytest.param({"rest": {"red": [700.0, 2830.0]}}, "rest.red[1]", id="rest over top"),
    pytest.param(
        {"rest": {"white": [700.0, 1000.0], "yellow": [730.0, 1000.0]}},
        "rest.yellow",
        id="rest overlapping another ball",
    ),
    pytest.param({"rest": {"blue": [700.0, 1000.0]}}, "rest.blue", id="rest of unknown ball"),
    pytest.param(
        {"contacts": [W_Y, contact("yellow", "off")], "rest": {"yellow": [700.0, 1000.0]}},
        "rest.yellow",
        id="rest of a ball that left the table",
    ),
    pytest.param({"rest": {"white": [700.0]}}, "rest.white", id="rest not x and y"),
    pytest.param({"rest": {"white": [700.0, "far"]}}, "rest.white[1]", id="rest not a number"),
    # Shapes.
    pytest.param({"spin": "top"}, "spin", id="unknown shot field"),
    pytest.param({"contacts": {}}, "contacts", id="contacts not a list"),
    pytest.param({"contacts": ["white"]}, "contacts[0]", id="contact not an object"),
    pytest.param(
        {"contacts": [dict(W_Y, speed=3)]}, "contacts[0].speed", id="unknown contact field"
    ),
    pytest.param(
        {"contacts": [W_Y, contact("white", "red", same_time="yes")]},
        "contacts[1].same_time",
        id="same_time not boolean",
    ),
    pytest.param(
        {"contacts": [contact("white", "cushion", "left")]},
        "contacts[0].pins",
        id="pins on a cushion contact",
    ),
    pytest.param(
        {"contacts": [W_Y, {"ball": "yellow", "hit": "pins", "pins": []}]},
        "contacts[1].pins",
        id="pins contact without pins",
    ),
    pytest.param({"called": "feet"}, "called", id="called not a list"),
]


@pytest.mark.parametrize(("facts", "field"), REJECTED_SHOTS)
def test_impossible_shot_facts_are_rejected_naming_the_field(facts, field):
    with pytest.raises(Refused) as caught:
        parse_shot(facts, "white")

    assert caught.value.field == field
    assert caught.value.message
    assert caught.value.seq is None


def test_shot_field_paths_start_with_the_given_prefix():
    with pytest.raises(Refused) as caught:
        parse_shot({"called": ["feet", "feet"]}, "white", prefix="facts")

    assert caught.value.field == "facts.called[1]"


def test_shot_that_is_not_an_object_is_rejected():
    with pytest.raises(Refused, match="object"):
        parse_shot(["white"], "white")


# -- Match records ------------------------------------------------------------------


def record(*events: dict[str, Any], **match: Any) -> dict[str, Any]:
    header = {
        "id": "cup-2026-a-3",
        "players": {
            "A": {"name": "Olena Kovalenko", "federation_id": "UA-101"},
            "B": {"name": "Marco Marchetti"},
        },
        "balls": {"A": "white", "B": "yellow"},
        "ruleset": {"target": 30},
    }
    header.update(match)
    return {"format": "carambole.match/1", "match": header, "events": list(events)}


LAG = {"type": "lag", "A": {"distance": 120}, "B": {"distance": 95}}
START = {"type": "game_started", "game": 1, "breaker": "A"}
SHOT = {"type": "shot", "player": "A", "contacts": [W_Y]}


def test_record_of_the_notation_example_is_accepted_with_every_event_type():
    events = [
        {"type": "lag", "A": {"distance": 120}, "B": {"distance": 95, "fault": "long_cushion"}},
        START,
        {"type": "ball_placed", "ball": "white", "pos": [700, 500], "reason": "break"},
        {"type": "shot", "player": "A", "struck": "white", "contacts": [W_Y], "called": []},
        {"type": "shot", "player": "B", "contacts": [contact("yellow", "cushion")]},
        {"type": "shot_amended", "shot": 4, "facts": {"contacts": [W_Y]}, "reason": "video"},
        {"type": "ball_placed", "ball": "white", "pos": [700, 2000], "reason": "in_hand"},
        {"type": "shot", "player": "A", "contacts": []},
        {"type": "shot_retracted", "shot": 8, "reason": "entered twice"},
        {"type": "balls_respotted", "reason": "contact"},
        {"type": "foul", "player": "A", "code": "placement", "reason": "touched"},
        {"type": "intermission", "minutes": 5},
        {"type": "game_forfeited", "player": "B", "reason": "left without permission"},
        {"type": "match_forfeited", "player": "B", "reason": "refused to continue"},
    ]

    parsed = parse_record(record(*events))

    assert [event["type"] for event in parsed.events] == [event["type"] for event in events]
    assert parsed.header.ruleset == Ruleset(target=30)
    assert parsed.match["ruleset"] == Ruleset(target=30).as_dict()


@pytest.mark.parametrize(
    "lag",
    [
        {"type": "lag", "winner": "A"},
        {"type": "lag", "winner": "B", "A": {"fault": "crossed"}},
        {"type": "lag", "winner": "B", "A": {"distance": 300}, "B": {"distance": None}},
        {"type": "lag", "winner": None, "A": {"distance": 120}, "B": {"distance": 95}},
    ],
    ids=["winner alone", "winner and a fault", "winner and one distance", "winner null"],
)
def test_a_lag_given_its_winner_needs_no_distance_and_is_kept_as_written(lag):
    parsed = parse_record(record(lag, START))

    assert parsed.events[0] == lag


REJECTED_EVENTS = [
    pytest.param({"type": "break"}, "type", id="unknown event type"),
    pytest.param({"player": "A"}, "type", id="event without a type"),
    pytest.param(["shot"], None, id="event not an object"),
    pytest.param({"type": "shot", "player": "C", "contacts": []}, "player", id="unknown player"),
    pytest.param(
        {"type": "shot", "player": "A", "contacts": [contact("yellow", "red")]},
        "contacts[0].ball",
        id="impossible shot facts",
    ),
    pytest.param(
        {"type": "shot", "player": "B", "contacts": [contact("white", "cushion")]},
        "contacts[0].ball",
        id="shot facts judged with the player's ball",
    ),
    pytest.param({"type": "shot", "player": "A", "power": 3}, "power", id="unknown event field"),
    pytest.param({"type": "game_started", "game": 0, "breaker": "B"}, "game", id="game zero"),
    pytest.param({"type": "game_started", "game": "2", "breaker": "B"}, "game", id="game text"),
    pytest.param({"type": "game_started", "game": True, "breaker": "B"}, "game", id="game bool"),
    pytest.param({"type": "game_started", "game": 1.5, "breaker": "B"}, "game", id="game 1.5"),
    pytest.param({"type": "game_started", "game": 2, "breaker": "C"}, "breaker", id="breaker"),
    pytest.param(
        {"type": "lag", "A": {"distance": 1}, "B": {"distance": 2, "fault": "slow"}},
        "B.fault",
        id="unknown lag fault",
    ),
    pytest.param(
        {"type": "lag", "A": {"distance": -1}, "B": {"distance": 2}},
        "A.distance",
        id="negative lag distance",
    ),
    pytest.param({"type": "lag", "A": {"distance": 1}}, "B", id="lag without B"),
    pytest.param({"type": "lag", "winner": "C"}, "winner", id="lag won by no player"),
    pytest.param({"type": "lag", "winner": "A", "A": None}, "A", id="lag result null"),
    pytest.param(
        {"type": "lag", "winner": "A", "B": {"distance": 2900}},
        "B.distance",
        id="lag off the table",
    ),
    pytest.param(
        {"type": "lag", "winner": None, "A": {"distance": 1}, "B": {}},
        "B.distance",
        id="lag without a winner or a distance",
    ),
    pytest.param(
        {"type": "lag", "A": {"distance": 1}, "B": {"distance": 2}, "collision": "yes"},
        "collision",
        id="collision not boolean",
    ),
    pytest.param(
        {"type": "ball_placed", "ball": "white", "pos": [700, 2900], "reason": "in_hand"},
        "pos[1]",
        id="placement off the surface",
    ),
    pytest.param(
        {"type": "ball_placed", "ball": "white", "pos": [700, 500], "reason": "whim"},
        "reason",
        id="unknown placement reason",
    ),
    pytest.param(
        {"type": "ball_placed", "ball": "green", "pos": [700, 500], "reason": "break"},
        "ball",
        id="unknown placed ball",
    ),
    pytest.param(
        {"type": "shot_amended", "shot": 0, "facts": {}, "reason": "x"}, "shot", id="shot zero"
    ),
    pytest.param(
        {"type": "shot_amended", "shot": 3, "facts": {}}, "reason", id="amendment without reason"
    ),
    pytest.param({"type": "shot_retracted", "shot": "3", "reason": "x"}, "shot", id="shot text"),
    pytest.param({"type": "foul", "player": "A", "code": "miss"}, "code", id="foul not called"),
    pytest.param({"type": "intermission", "minutes": 0}, "minutes", id="no minutes"),
    pytest.param({"type": "game_forfeited"}, "player", id="forfeit without player"),
    pytest.param(dict(SHOT, seq=4), "seq", id="seq out of place"),
    pytest.param(dict(SHOT, hash="ABC"), "hash", id="malformed hash"),
    pytest.param(dict(SHOT, by=""), "by", id="empty by"),
]


@pytest.mark.parametrize(("event", "field"), REJECTED_EVENTS)
def test_malformed_event_is_rejected_naming_its_seq_and_field(event, field):
    with pytest.raises(Refused) as caught:
        parse_record(record(LAG, START, event, SHOT))

    assert caught.value.seq == 3
    assert caught.value.field == field
    assert caught.value.as_dict()["seq"] == 3


REJECTED_HEADERS = [
    pytest.param({"balls": {"A": "white", "B": "white"}}, "match.balls.B", id="same ball"),
    pytest.param({"balls": {"A": "red", "B": "white"}}, "match.balls.A", id="red ball"),
    pytest.param(
        {"players": {"A": {"name": "Olena"}, "B": {}}}, "match.players.B.name", id="no name"
    ),
    pytest.param(
        {"players": {"A": {"name": "Olena"}, "B": {"name": "  "}}},
        "match.players.B.name",
        id="blank name",
    ),
    pytest.param({"players": {"A": {"name": "Olena"}}}, "match.players.B", id="no player B"),
    pytest.param({"players": None}, "match.players", id="no players"),
    pytest.param({"ruleset": {"goal": 30}}, "match.ruleset.goal", id="unknown parameter"),
    pytest.param({"ruleset": {"best_of": 2}}, "match.ruleset.best_of", id="even best_of"),
    pytest.param({"id": "cup 2026/3"}, "match.id", id="id not a slug"),
    pytest.param({"competition": "Cup 2026!"}, "match.competition", id="competition slug"),
]


@pytest.mark.parametrize(("match", "field"), REJECTED_HEADERS)
def test_malformed_header_is_rejected_naming_the_field_and_no_seq(match, field):
    with pytest.raises(Refused) as caught:
        parse_record(record(LAG, **match))

    assert caught.value.field == field
    assert caught.value.seq is None


def with_federation_id(federation_id: Any) -> dict[str, Any]:
    """Return a record whose player B has this federation id."""
    players = {"A": {"name": "Olena Kovalenko"}, "B": {"name": "Marco Marchetti"}}
    players["B"]["federation_id"] = federation_id
    return record(LAG, players=players)


@pytest.mark.parametrize(
    ("federation_id", "message"),
    [
        pytest.param("x" * 101, "must be at most 100 characters", id="101 characters"),
        pytest.param("UA\t7", "must not contain a control character", id="a tab"),
        pytest.param("UA-7\n", "must not contain a control character", id="a newline at the end"),
        pytest.param("UA\r\n7", "must not contain a control character", id="a line break"),
        pytest.param("UA\x7f7", "must not contain a control character", id="DEL"),
        pytest.param("UA\x857", "must not contain a control character", id="a C1 control"),
        pytest.param("UA\u20287", "must not contain a control character", id="a line separator"),
        pytest.param("\x00", "must not contain a NUL character", id="NUL"),
        pytest.param(" UA-7", "must not begin or end with a space", id="a leading space"),
        pytest.param(
            "UA-7\u3000", "must not begin or end with a space", id="a trailing wide space"
        ),
        pytest.param("  ", "must not begin or end with a space", id="spaces alone"),
        pytest.param(7, "must be a string", id="a number"),
    ],
)
def test_a_federation_id_the_rule_refuses_is_refused_naming_the_field(federation_id, message):
    with pytest.raises(Refused) as caught:
        parse_record(with_federation_id(federation_id))

    assert caught.value.field == "match.players.B.federation_id"
    assert message in caught.value.message


@pytest.mark.parametrize(
    "federation_id",
    ["UA/7", "a b", "100%", "?x#y", "~5", "id-5", "..", "Ünïcödé-日本", "x" * 100, "😀" * 100],
)
def test_a_federation_id_of_printable_characters_is_kept_as_written(federation_id):
    match, _ = parse_header(with_federation_id(federation_id)["match"])

    assert match["players"]["B"]["federation_id"] == federation_id


@pytest.mark.parametrize("none", [None, ""])
def test_a_federation_id_of_null_or_empty_is_no_id(none):
    match, _ = parse_header(with_federation_id(none)["match"])

    assert match["players"]["B"]["federation_id"] == none


@pytest.mark.parametrize(
    ("change", "field"),
    [
        pytest.param({"format": "carambole.match/2"}, "format", id="unknown format"),
        pytest.param({"events": {}}, "events", id="events not a list"),
        pytest.param({"match": None}, "match", id="no match header"),
    ],
)
def test_malformed_record_is_rejected_naming_the_field(change, field):
    raw = record(LAG)
    raw.update(change)

    with pytest.raises(Refused) as caught:
        parse_record(raw)

    assert caught.value.field == field


def test_header_without_balls_gives_white_to_a_and_yellow_to_b():
    raw = record()["match"]
    del raw["balls"]

    _, header = parse_header(raw)

    assert dict(header.balls) == {"A": "white", "B": "yellow"}


def test_older_placement_written_under_at_is_read_as_pos():
    placed = {"type": "ball_placed", "ball": "white", "at": [700, 500], "reason": "break"}

    parsed = parse_record(record(LAG, START, placed))

    assert parsed.events[2]["pos"] == [700, 500]
    assert "at" not in parsed.events[2]


def test_notation_error_names_seq_and_field_in_its_text():
    error = Refused("unknown player 'C'", "player", seq=7)

    assert str(error) == "seq 7, player: unknown player 'C'"
    assert error.as_dict() == {"error": "unknown player 'C'", "field": "player", "seq": 7}


# -- The hash chain -----------------------------------------------------------------


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@pytest.mark.parametrize(
    ("value", "text"),
    [
        pytest.param({"b": 1, "a": 2}, '{"a":2,"b":1}', id="keys sorted"),
        pytest.param({"a": [1, {"d": 0, "c": None}]}, '{"a":[1,{"c":null,"d":0}]}', id="nested"),
        pytest.param({"name": "Олена Коваленко"}, '{"name":"Олена Коваленко"}', id="UTF-8 kept"),
        pytest.param({"x": 1.0, "y": 2, "z": 355.5}, '{"x":1.0,"y":2,"z":355.5}', id="numbers"),
        pytest.param({"ok": True, "s": "a b"}, '{"ok":true,"s":"a b"}', id="no added spaces"),
    ],
)
def test_canonical_json_sorts_keys_has_no_spaces_and_keeps_utf8(value, text):
    assert canonical_json(value) == text.encode("utf-8")


def test_event_hash_is_sha256_of_previous_hash_and_canonical_event_without_hash():
    previous = "0" * 64
    event = {"type": "shot", "player": "A", "seq": 4, "hash": "f" * 64}

    expected = sha256(previous.encode() + b'{"player":"A","seq":4,"type":"shot"}')

    assert event_hash(previous, event) == expected
    assert event_hash(previous, {k: v for k, v in event.items() if k != "hash"}) == expected


def test_event_hashes_chain_so_changing_an_early_event_changes_every_later_hash():
    _, header = parse_header(record()["match"])
    events = [dict(LAG, seq=1), dict(START, seq=2), dict(SHOT, seq=3)]

    def chain(log: list[dict[str, Any]]) -> list[str]:
        hashes, previous = [], header_hash(header)
        for event in log:
            previous = event_hash(previous, event)
            hashes.append(previous)
        return hashes

    altered = copy.deepcopy(events)
    altered[0]["A"]["distance"] = 121

    original, changed = chain(events), chain(altered)
    assert all(a != b for a, b in zip(original, changed, strict=True))
    assert len(set(original)) == 3


def test_header_hash_seals_balls_players_and_the_full_ruleset():
    _, header = parse_header(record()["match"])

    sealed = {
        "balls": {"A": "white", "B": "yellow"},
        "players": {
            "A": {"name": "Olena Kovalenko", "federation_id": "UA-101"},
            "B": {"name": "Marco Marchetti"},
        },
        "ruleset": Ruleset(target=30).as_dict(),
    }
    assert len(sealed["ruleset"]) == 11
    assert header_hash(header) == sha256(canonical_json(sealed))


@pytest.mark.parametrize(
    ("ruleset", "same"),
    [
        pytest.param({"target": 30, "best_of": 3}, True, id="a default written out"),
        pytest.param({"target": 30, "center_alone": 10}, False, id="another parameter"),
        pytest.param({"target": 30, "cumulative_fouls": False}, False, id="cumulative"),
        pytest.param({"target": 60}, False, id="the target"),
    ],
)
def test_header_hash_depends_on_the_ruleset_in_force_not_how_it_was_written(ruleset, same):
    _, sealed = parse_header(record()["match"])
    _, other = parse_header(record(ruleset=ruleset)["match"])

    assert (header_hash(sealed) == header_hash(other)) is same


def test_header_hash_changes_with_a_player_or_the_balls():
    _, header = parse_header(record()["match"])
    _, swapped = parse_header(record(balls={"A": "yellow", "B": "white"})["match"])
    renamed_players = {"A": {"name": "Olena Kovalenko"}, "B": {"name": "Marco Marchetti"}}
    _, renamed = parse_header(record(players=renamed_players)["match"])

    assert len({header_hash(header), header_hash(swapped), header_hash(renamed)}) == 3
