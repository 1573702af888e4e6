"""A championship folded on from the fold before it answers as a fold from scratch, and
ranks again only the groups whose matches changed."""

from __future__ import annotations

import random

import pytest

from matches.domain.championship import Championship
from matches.domain.championship_draws import draw_event
from matches.domain.competition_log import CompetitionLog, Played, fold_competition_log, player_key
from matches.domain.draws import group_plan
from matches.domain.rules.ranking import Result
from matches.domain.stages import parse_stages

RULESET = {"target": 60, "best_of": 3}
STAGES = parse_stages(
    [
        {"id": "groups", "kind": "groups", "groups": 4, "advance": 2},
        {"id": "ko", "kind": "knockout", "from": "groups", "third_place": True},
    ],
    RULESET,
)


def entered(players: int = 16) -> CompetitionLog:
    return fold_competition_log(
        [
            {"type": "player_entered", "player": {"name": f"Player {seed:02d}"}, "seed": seed}
            for seed in range(1, players + 1)
        ]
    )


def drawn() -> tuple[CompetitionLog, dict[str, tuple[str, str]]]:
    """The competition log with its groups drawn, and each group match's players (A's and
    B's keys)."""
    competition_log = entered()
    competition_log.apply(draw_event(Championship("euro", STAGES, competition_log, {}), STAGES[0]))
    fold = Championship("euro", STAGES, competition_log, {})
    pairs = {}
    for group in competition_log.draws["groups"]["groups"]:
        for match_id, a, b, _ in fold.group_matches("groups", group):
            pairs[match_id] = (a, b)
    return competition_log, pairs


def finished(players: tuple[str, str], winner: str, rng: random.Random) -> Played:
    loser_games = rng.randint(0, 1)
    games = (2, loser_games) if winner == "A" else (loser_games, 2)
    points = (rng.randint(100, 140), rng.randint(100, 140))
    result = Result(players, True, winner, games, points, points, (20, 20))
    return Played("finished", result, winner)


def views_and_ranking(fold: Championship) -> tuple[list, list]:
    return fold.views(), fold.ranking()


@pytest.mark.parametrize("seed", range(12))
def test_a_fold_on_from_the_last_one_answers_as_a_fold_from_scratch(seed):
    rng = random.Random(seed)
    competition_log, pairs = drawn()
    played: dict[str, Played] = {}
    previous = Championship("euro", STAGES, competition_log, played)
    views_and_ranking(previous)
    for match_id in rng.sample(sorted(pairs), len(pairs)):
        played = {**played, match_id: finished(pairs[match_id], rng.choice("AB"), rng)}
        if rng.random() < 0.2:  # a finished match goes back under review
            again = rng.choice(sorted(played))
            played[again] = Played("review", Result(pairs[again]))
        following = Championship("euro", STAGES, competition_log, played, previous)
        assert views_and_ranking(following) == views_and_ranking(
            Championship("euro", STAGES, competition_log, played)
        )
        previous = following


def test_only_the_groups_whose_matches_changed_are_ranked_again():
    competition_log, pairs = drawn()
    rng = random.Random(7)
    played = {match_id: finished(pair, "A", rng) for match_id, pair in pairs.items()}
    before = Championship("euro", STAGES, competition_log, played)
    before_groups = before.views()[0]["groups"]
    ended = group_plan("euro", "groups", "B", 4)[0].id
    after = Championship(
        "euro", STAGES, competition_log, {**played, ended: finished(pairs[ended], "B", rng)}, before
    )
    after_groups = after.views()[0]["groups"]
    reused = [a is b for a, b in zip(before_groups, after_groups, strict=True)]
    assert reused == [True, False, True, True]
    b_rows = {row["player"]: row["won"] for row in after_groups[1]["standings"]}
    winner = pairs[ended][1]
    assert b_rows[competition_log.entrants[winner].name] == 1 + sum(
        1 for match_id, (a, _) in pairs.items() if a == winner and match_id != ended
    )


def test_a_fold_of_another_competition_log_takes_nothing_from_the_last_one():
    competition_log, pairs = drawn()
    rng = random.Random(3)
    played = {match_id: finished(pair, "A", rng) for match_id, pair in pairs.items()}
    before = Championship("euro", STAGES, competition_log, played)
    before.views()
    withdrawn = CompetitionLog(dict(competition_log.entrants), dict(competition_log.draws))
    key = player_key({"name": "Player 01"})
    withdrawn.apply({"type": "player_withdrawn", "player": {"name": "Player 01"}})
    after = Championship("euro", STAGES, withdrawn, played, before)
    group_a = after.views()[0]["groups"][0]
    assert group_a["standings"][-1]["player"] == "Player 01"
    assert group_a["standings"][-1]["withdrawn"] is True
    assert withdrawn.entrants[key].withdrawn and not competition_log.entrants[key].withdrawn
