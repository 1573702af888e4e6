"""The match simulator: seeded, legal, finished matches that import and export like real ones."""

import json
import math
import statistics
import subprocess
import sys
from collections import Counter
from itertools import combinations
from pathlib import Path

import pytest

from matches import store
from matches.domain.events import parse_record
from matches.domain.fold import check_log, fold
from matches.domain.notation import ENVELOPE, RECORD_FORMAT
from matches.domain.rules import BALL_RADIUS, SPOTS
from matches.domain.simulator import DEFAULT_PLAYERS, simulate_competition, simulate_match
from matches.models import Match
from matches.records import record_export, record_import

ROOT = Path(__file__).resolve().parents[1]
SEEDS = range(24)


def facts_of(record):
    return [{k: v for k, v in e.items() if k not in ENVELOPE} for e in record["events"]]


def state_of(record):
    return fold(parse_record(record).header, facts_of(record))


@pytest.fixture(scope="module")
def records():
    return {seed: simulate_match(seed) for seed in SEEDS}


@pytest.fixture(scope="module")
def states(records):
    return {seed: state_of(record) for seed, record in records.items()}


def test_the_same_seed_gives_the_same_record():
    assert simulate_match(7) == simulate_match(7)
    assert simulate_match(7) != simulate_match(8)


def test_the_same_seed_gives_the_same_competition():
    assert simulate_competition(3, 5) == simulate_competition(3, 5)


@pytest.mark.parametrize("seed", SEEDS)
def test_every_simulated_record_parses_and_every_event_is_legal(records, seed):
    record = records[seed]
    assert record["format"] == RECORD_FORMAT

    parsed = parse_record(record)
    checked = check_log(parsed.header, facts_of(record))

    # Stored as simulated: every shot already names its player.
    assert checked == facts_of(record)


def test_simulated_matches_finish_with_a_winner(states):
    for seed, state in states.items():
        assert state["status"] == "finished", seed
        assert state["winner"] in ("A", "B"), seed
        assert state["games_won"][state["winner"]] == 2, seed  # best of 3
        assert state["next"] is None, seed


def test_a_game_to_60_takes_roughly_25_to_50_shots(states):
    shots = [g["shots"] for s in states.values() for g in s["games"] if g["end"] == "target"]

    assert 30 <= statistics.mean(shots) <= 42
    assert 20 <= statistics.quantiles(shots, n=10)[0]
    assert statistics.quantiles(shots, n=10)[-1] <= 55


def test_seeds_cover_fouls_caroms_corrections_and_incidents(records, states):
    events = Counter(e["type"] for r in records.values() for e in r["events"])
    placements = Counter(
        e["reason"] for r in records.values() for e in r["events"] if e["type"] == "ball_placed"
    )
    rulings = [s["ruling"] for state in states.values() for s in state["shots"]]
    fouls = Counter(code for ruling in rulings for code in ruling["fouls"])
    caroms = Counter(ruling["carom"] for ruling in rulings)

    for kind in ("lag", "shot_amended", "shot_retracted", "foul", "balls_respotted"):
        assert events[kind], kind
    assert events["intermission"]
    assert set(placements) == {"break", "in_hand", "respot"}
    for code in ("miss", "red_first", "pins_first", "cue_pins", "off_table", "wrong_ball"):
        assert fouls[code], code
    assert {"feet", "double_hit"} & set(fouls)
    assert caroms["kiss"] and caroms["ricochet"]
    assert any(
        s["amended"] and s["original"] != s["ruling"] for st in states.values() for s in st["shots"]
    )
    assert all(
        e.get("reason")
        for r in records.values()
        for e in r["events"]
        if e["type"] == "shot_amended"
    )


def test_high_rates_give_many_corrections_and_still_a_legal_finished_match():
    record = simulate_match(11, amend_rate=0.3, retract_rate=0.1, outside_foul_rate=0.1)
    kinds = Counter(e["type"] for e in record["events"])

    state = fold(
        parse_record(record).header, check_log(parse_record(record).header, facts_of(record))
    )

    assert kinds["shot_amended"] >= 10 and kinds["shot_retracted"] >= 3 and kinds["foul"] >= 3
    assert state["winner"] is not None


def test_forfeits_end_games_and_matches():
    ends = Counter()
    for seed in range(12):
        record = simulate_match(seed, forfeit_rate=1.0)
        state = state_of(record)
        assert state["winner"] is not None
        ends.update(e["type"] for e in record["events"] if e["type"].endswith("_forfeited"))
        assert any(g["end"] == "forfeit" for g in state["games"])

    assert ends["game_forfeited"] and ends["match_forfeited"]


def test_a_longer_ruleset_is_played_to_its_end():
    record = simulate_match(5, ruleset={"best_of": 5, "target": 40, "center_alone": 10})
    state = state_of(record)

    assert state["games_won"][state["winner"]] == 3
    assert all(g["score"][g["winner"]] == 40 for g in state["games"] if g["end"] == "target")


def test_no_simulated_ball_comes_to_rest_on_the_pins_where_the_matchs_ruleset_stands_them():
    pitch = 150.0  # the outer pins stand twice as far out as the rulebook's 71.5 mm
    record = simulate_match(3, ruleset={"pin_pitch": pitch})
    events = record["events"]
    placed = [e["pos"] for e in events if e["type"] == "ball_placed" and e["reason"] != "respot"]
    rests = [pos for e in events if e["type"] == "shot" for pos in e.get("rest", {}).values()]

    assert placed and rests
    # Clear of the pin cross: beyond an outer pin's centre by more than a ball's radius.
    assert all(math.dist(pos, SPOTS["centre"]) > pitch + BALL_RADIUS for pos in placed + rests)


def test_a_competition_is_a_round_robin_of_its_players():
    players = DEFAULT_PLAYERS[:4]
    records = simulate_competition(9, 6, players=players, competition="cup")

    names = [frozenset(p["name"] for p in r["match"]["players"].values()) for r in records]
    assert sorted(names, key=sorted) == sorted(
        (frozenset((a["name"], b["name"])) for a, b in combinations(players, 2)), key=sorted
    )
    assert [r["match"]["id"] for r in records] == [f"cup-{n:04d}" for n in range(1, 7)]
    assert {r["match"]["competition"] for r in records} == {"cup"}


def test_the_simulator_imports_no_framework():
    probe = "import sys, json, matches.domain.simulator; print(json.dumps(sorted(sys.modules)))"
    result = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True
    )

    loaded = {name.split(".")[0] for name in json.loads(result.stdout)}
    assert loaded.isdisjoint({"django", "channels", "celery"})


@pytest.mark.django_db
def test_a_simulated_record_imports_and_exports_with_a_verifying_chain():
    record = simulate_match(3, match_id="sim-import", competition="sim-cup")

    imported = record_import(record, by="tester")
    exported = record_export("sim-import")

    assert imported.outcome == "created" and imported.appended == len(record["events"])
    match = Match.objects.get(pk="sim-import")
    assert store.verify_chain(match) == []
    assert match.status == "finished"
    assert facts_of(exported) == facts_of(record)
    assert [e["at"] for e in exported["events"]] == [e["at"] for e in record["events"]]
    assert fold(parse_record(exported).header, facts_of(exported)) == state_of(record)
    # The export carries its hashes: importing it again changes nothing.
    assert record_import(exported).outcome == "unchanged"
