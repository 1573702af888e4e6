"""Championships of any shape for the property and regression tests of corrections: the
shapes, the steps a sequence takes, and the laws checked after every step.

A shape is a list of stages and a number of players: groups into a knockout, groups into
groups into a knockout, a knockout with byes or with direct entries, a plain knockout.
Every match is played to 4 points in one game (`RULESET`), so a result is a few shots.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from matches import services
from matches.domain.championship import Championship
from matches.domain.competition_log import player_key
from matches.domain.errors import Refused
from matches.domain.fold import state_after
from matches.domain.render import board, status
from matches.models import Competition, Event, Match
from matches.services.championships import championship_at
from matches.store import load_facts
from replay.projections import projector
from replay.queries.championships import ranking_get, stages_get
from tests.support.builders import BY, CAROM_A, QUIET
from tests.support.league import CAROM_B, RULESET, win
from tests.support.stages import folded, stored

NAMES = [
    "Rossi",
    "Kovalenko",
    "Fernández",
    "Marchetti",
    "Petrenko",
    "Bianchi",
    "Dubois",
    "Novak",
    "Horvat",
    "Lindqvist",
    "Moreau",
    "Szabó",
]
CAROM = {"A": CAROM_A, "B": CAROM_B}
# What a service may refuse in a sequence like these, by the field it names: a first event
# while a slot is unsettled, a late or impossible correction, a draw before its source
# settles, a withdrawal twice, a decision on a dispute answered meanwhile, a shot before
# the lag (`type`), a stage its players left by withdrawals cannot fill (`stages[1].groups`).
SENSIBLE_FIELDS = {"slot", "event", "shot", "facts", "match", "stage", "player", "seq", "type"}


def powered(players: int) -> int:
    """Return the smallest power of two at least `players`."""
    size = 1
    while size < players:
        size *= 2
    return size


def knockout(rng: random.Random, source: str | None, players: int) -> dict[str, Any]:
    """Return a knockout stage of `players`, with or without a third place and a size."""
    stage: dict[str, Any] = {"id": "ko", "kind": "knockout"}
    if source is not None:
        stage["from"] = source
    if players >= 4 and rng.random() < 0.5:
        stage["third_place"] = True
    if rng.random() < 0.3:
        stage["size"] = powered(players)
    return stage


def shape(rng: random.Random) -> tuple[str, list[dict[str, Any]], int]:
    """Return a random championship shape: its kind, its stages and its number of players."""
    kind = rng.choice(["groups", "groups-groups", "direct", "knockout"])
    if kind == "knockout":
        players = rng.randint(3, 8)
        return kind, [knockout(rng, None, players)], players
    if kind == "groups-groups":
        first = rng.choice([2, 3])
        players = rng.randint(2 * first, min(9, 3 * first))
        direct = rng.choice([0, 0, 1, 2])
        second = {"id": "second", "kind": "groups", "from": "groups", "groups": 1, "advance": 2}
        if direct:
            second["direct"] = direct
        if 2 * first + direct >= 4 and rng.random() < 0.5:
            second["groups"] = 2
            second["advance"] = 1
        stages = [
            {"id": "groups", "kind": "groups", "groups": first, "advance": 2},
            second,
            knockout(rng, "second", second["groups"] * second["advance"]),
        ]
        return kind, stages, players + direct
    groups = rng.choice([2, 3])
    advance = rng.choice([1, 2]) if groups >= 2 else 2
    direct = rng.choice([1, 2, 3]) if kind == "direct" else 0
    players = rng.randint(max(2 * groups, advance * groups + 1), min(9, 3 * groups))
    ko = knockout(rng, "groups", groups * advance + direct)
    if direct:
        ko["direct"] = direct
    stages = [{"id": "groups", "kind": "groups", "groups": groups, "advance": advance}, ko]
    return kind, stages, players + direct


def entered(competition: str, stages: list[dict[str, Any]], players: int) -> None:
    """Create the competition and enter its players, seeded in the order of `NAMES`."""
    services.competition_create(id=competition, name="Open", ruleset=RULESET, stages=stages)
    for seed, name in enumerate(NAMES[:players], start=1):
        services.player_enter(
            competition_id=competition, player={"name": name}, seed=seed, by="director"
        )


# -- Looking at a competition ------------------------------------------------------------


def fold(competition: str) -> Championship:
    """Return the competition as its whole log folds now."""
    return championship_at(Competition.objects.get(pk=competition)).championship


def state_of(match: Match) -> Any:
    return state_after(match.header(), load_facts(match))


def seq_of(match_id: str) -> int:
    return Event.objects.filter(match_id=match_id).count()


def stage_matches(competition: str) -> list[Match]:
    """Return every match a stage made, voided ones too, in id order."""
    return list(
        Match.objects.filter(competition_id=competition).exclude(stage_id="").order_by("pk")
    )


def live(competition: str) -> list[Match]:
    return [m for m in stage_matches(competition) if m.status != Match.Status.VOID]


def names(match: Match) -> tuple[str, str]:
    return match.players["A"]["name"], match.players["B"]["name"]


# -- The steps ---------------------------------------------------------------------------


def correction(rng: random.Random, match: Match) -> dict[str, Any] | None:
    """A correction of a played match: its first shot made a carom of A's or a miss, or
    its last shot retracted."""
    state = state_of(match)
    if not state.shots:
        return None
    if rng.random() < 0.3:
        last = state.shots[-1]["seq"]
        if last != state.seq:
            return None  # a retraction names the latest event, a shot
        return {"type": "shot_retracted", "shot": last, "reason": "entered twice"}
    facts = rng.choice([CAROM_A, QUIET])
    return {"type": "shot_amended", "shot": 4, "facts": facts, "reason": "video review"}


def play_on(match: Match) -> None:
    """Record a carom for whoever is due, until the match is decided."""
    for _ in range(4):
        state = state_of(match)
        if status(state) in ("finished", "review") or state.seq < 3:
            return
        due = (board(state)["next"] or {}).get("player")
        if due is None:
            return
        services.shot_record(match_id=match.pk, expected_seq=state.seq, by=BY, facts=CAROM[due])


def start(match_id: str) -> None:
    services.lag_record(
        match_id=match_id, expected_seq=0, by=BY, a={"distance": 90}, b={"distance": 150}
    )


def amend(match_id: str, event: dict[str, Any]) -> None:
    """Record a correction as staff."""
    services.event_record(
        match_id=match_id, expected_seq=seq_of(match_id), event=event, by="jury", staff=True
    )


def decide(competition: str, slot: str, keep: bool) -> dict[str, Any]:
    return services.dispute_decide(
        competition_id=competition, slot=slot, keep=keep, reason="the jury", by="chief"
    )


def draw(competition: str, stage: str) -> list[Match]:
    return services.stage_draw(competition_id=competition, stage_id=stage, by="director")


def withdraw(competition: str, name: str) -> None:
    from matches.models import Player

    player = Player.objects.get(name=name)
    services.player_withdraw(
        competition_id=competition, player_key_=player.pk, reason="injured", by="director"
    )


def refused_sensibly(refused: Refused, stats: Counter[str]) -> None:
    """A refusal names a field a caller could have got wrong in the state it saw."""
    sensible = refused.field in SENSIBLE_FIELDS or refused.field.startswith("stages[")
    assert sensible, (refused.field, str(refused))
    stats[f"refused {refused.field}"] += 1


# -- The laws ----------------------------------------------------------------------------


def no_one_twice_in_a_round(views: list[dict[str, Any]]) -> None:
    """In every stage, as played and as amended: no player in two matches of one round,
    nor against himself; in a groups stage, no player in two groups."""
    for stage in views:
        if stage["kind"] == "groups":
            entries = [p for g in stage["groups"] for p in g["entries"] if p]
            assert len(entries) == len(set(entries)), (stage["id"], entries)
            for group in stage["groups"]:
                rounds: dict[int, list[str]] = {}
                for m in group["matches"]:
                    a, b = m["players"]  # None while a place waits for its player
                    assert a is None or a != b, (stage["id"], group["name"], m)
                    rounds.setdefault(m["round"], []).extend(p for p in (a, b) if p)
                for number, named in rounds.items():
                    assert len(named) == len(set(named)), (stage["id"], number, named)
            continue
        for games in stage.get("rounds") or []:
            for key in ("players", "holders"):
                named = []
                for m in games:
                    pair = [p for p in m.get(key) or [] if p]
                    if m["status"] != "void":
                        assert len(pair) == len(set(pair)), (stage["id"], key, m)
                        named += pair
                assert len(named) == len(set(named)), (stage["id"], key, named)


def no_match_against_himself(competition: str) -> None:
    for match in stage_matches(competition):
        a, b = match.players["A"], match.players["B"]
        assert player_key(a) != player_key(b), (match.pk, a, b)


def started_matches_keep_their_players(competition: str, seen: dict[str, tuple[str, str]]) -> None:
    """A match with an event never changes players."""
    for match in stage_matches(competition):
        if seq_of(match.pk):
            players = (player_key(match.players["A"]), player_key(match.players["B"]))
            assert seen.setdefault(match.pk, players) == players, (match.pk, seen[match.pk])


def the_views_name_the_players_of_the_matches(
    competition: str, views: list[dict[str, Any]]
) -> None:
    """Every match a view names is shown with the players its header names: a started one
    as played, one not begun as its slots now hold (it followed them), but for a side
    whose place no one holds now (a withdrawal left it empty): shown as no one."""
    rows = {m.pk: names(m) for m in stage_matches(competition)}
    for stage in views:
        shown = [m for g in stage.get("groups") or [] for m in g["matches"]]
        shown += [m for r in stage.get("rounds") or [] for m in r]
        for m in shown:
            if m["match"] in rows and m["players"]:
                header = rows[m["match"]]
                named = [(a, b) for a, b in zip(m["players"], header, strict=True) if a]
                assert all(a == b for a, b in named), (m, header)
                assert m["status"] == "scheduled" or None not in m["players"], m


def nothing_open(championship: Championship, views: list[dict[str, Any]]) -> bool:
    """Whether every stage is drawn and settled and no dispute waits."""
    return not championship.disputes() and all(s["drawn"] and s["settled"] for s in views)


def final_winner(views: list[dict[str, Any]]) -> str | None:
    last = views[-1]
    if last["kind"] != "knockout" or not last["rounds"]:
        return None
    final = [m for m in last["rounds"][-1] if m["slot"] != "3rd"]
    return final[0]["winner"] if final else None


def every_entry_ranked(
    competition: str, players: int, views: list[dict[str, Any]], ranking: list[dict[str, Any]]
) -> bool:
    """Every entry has one row and a place; once nothing is open, none is provisional,
    everyone but the champion is out somewhere, and the final's winner is first. Return
    whether nothing was open."""
    assert sorted(row["player"] for row in ranking) == sorted(NAMES[:players])
    assert all(isinstance(row["place"], int) and row["place"] >= 1 for row in ranking)
    if not nothing_open(fold(competition), views):
        return False
    assert not [row for row in ranking if row["provisional"]], ranking
    champion = final_winner(views)
    assert champion is not None, views[-1]["rounds"][-1]
    first = [row["player"] for row in ranking if row["place"] == 1]
    assert first == [champion], (first, champion)
    assert [row["player"] for row in ranking if row["out_in"] is None] == [champion], ranking
    return True


def answered_by_the_api(competition: str) -> None:
    """`GET …/stages` and `…/ranking` answer (a server error here is a 500 there)."""
    stages_get(competition)
    ranking_get(competition)


def checked(competition: str, players: int, seen: dict[str, tuple[str, str]]) -> bool:
    """Check every law after a step (the projector caught up); return whether it is over."""
    projector.catch_up()
    version, views, ranking = stored(competition)
    assert (version, views, ranking) == folded(competition)
    answered_by_the_api(competition)
    no_one_twice_in_a_round(views)
    no_match_against_himself(competition)
    the_views_name_the_players_of_the_matches(competition, views)
    started_matches_keep_their_players(competition, seen)
    return every_entry_ranked(competition, players, views, ranking)


def play(match: Match, winner: str) -> None:
    """Play an unstarted match to its end, or a started one on."""
    if seq_of(match.pk):
        play_on(match)
    else:
        win(match.pk, winner)


def disputed_slots(competition: str) -> list[str]:
    return [d.slot for d in fold(competition).disputes()]
