"""The projector: summaries and standings from the log, incrementally and rebuilt alike."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from bench.amendment import unannounced
from matches import services
from matches.domain.simulator import simulate_competition
from matches.immutability import EVENTS_TABLE, triggers_lifted
from matches.models import Event, Match
from matches.records import record_import
from replay import tasks
from replay.models import MatchSummary, ProjectorCursor, StandingsChange
from replay.projections import projector
from replay.queries.standings_reader import standings_get
from tests.support.builders import QUIET, open_game
from tests.support.caches import answered_alike, clear_all_caches
from tests.support.league import (
    CAROM_B,
    ENTRANTS,
    RULESET,
    flip,
    shot,
    win,
)

# Each starts and ends with no fold or table kept from another test's database.
pytestmark = pytest.mark.usefixtures("projector_forgotten")

PLAYERS = [
    {"name": "Olena Kovalenko", "federation_id": "UA-101"},
    {"name": "Marco Marchetti", "federation_id": "IT-202"},
    {"name": "Ivan Petrenko", "federation_id": "UA-102"},
    {"name": "anna Bianchi"},
]


@pytest.fixture
def simulated(db):
    records = simulate_competition(7, 6, PLAYERS, competition="league")
    for record in records:
        record_import(record)
    return records


def snapshot(competition: str = "league"):
    standings = standings_get(competition)
    standings.pop("computed_at")
    changes = [
        (c.version, c.previous, c.pending, c.changes)
        for c in StandingsChange.objects.filter(competition_id=competition).order_by("version")
    ]
    summaries = list(MatchSummary.objects.order_by("match_id").values().iterator())
    for summary in summaries:
        summary.pop("updated_at")
    return standings, changes, summaries


def test_a_round_robin_is_ranked_with_every_finished_match_counted(simulated):
    projector.catch_up()

    standings = standings_get("league")

    assert [row["rank"] for row in standings["rows"]] == [1, 2, 3, 4]
    assert sum(row["played"] for row in standings["rows"]) == 2 * 6 - 2 * standings["pending"]
    assert standings["version"] > 0
    points = [row["match_points"] for row in standings["rows"]]
    assert points == sorted(points, reverse=True)


def test_a_rebuild_gives_exactly_the_incremental_read_models(simulated):
    def caught_up() -> tuple:
        projector.catch_up()
        return snapshot()

    def rebuilt() -> None:
        clear_all_caches()
        projector.rebuild()

    # With the folds and tables the projector keeps, again, and from nothing.
    answered_alike(caught_up, cold=rebuilt)


def test_reading_the_log_in_one_batch_or_event_by_event_gives_the_same_versions(
    simulated, monkeypatch
):
    monkeypatch.setattr(projector, "BATCH_EVENTS", 1)
    projector.catch_up()
    one_by_one = snapshot()

    monkeypatch.setattr(projector, "BATCH_EVENTS", 100_000)
    projector.rebuild()

    assert snapshot() == one_by_one


# -- A league played shot by shot ------------------------------------------------------------


def test_a_round_robin_pairs_every_two_entrants_once_one_round_a_day(round_robin):
    pairs = {frozenset((m.player_a_id, m.player_b_id)) for m in Match.objects.all()}
    assert len(round_robin) == 6 and len(pairs) == 6
    assert services.round_robin_create(competition_id="cup", by="federation") == []


def test_an_amendment_that_flips_a_result_changes_the_standings_and_says_why(round_robin):
    first = round_robin[0]
    seq = win(first, "B")
    projector.catch_up()
    before = standings_get("cup")

    seq = flip(first, seq, by="petrenko")
    projector.catch_up()
    after = standings_get("cup")

    amendment = Event.objects.get(match_id=first, seq=seq)
    assert after["version"] == amendment.id > before["version"]
    match = Match.objects.get(pk=first)
    winners = {row["player"]: row["match_points"] for row in after["rows"]}
    assert winners[match.players["A"]["name"]] == 2 and winners[match.players["B"]["name"]] == 0
    change = StandingsChange.objects.get(competition_id="cup", version=amendment.id)
    assert change.previous == before["version"]
    assert (
        change.changes["cause"] | {"shot": 4, "type": "shot_amended", "by": "petrenko"}
        == (change.changes["cause"])
    )
    assert change.changes["result"]["before"]["winner"] == match.players["B"]["name"]
    assert change.changes["result"]["after"]["winner"] == match.players["A"]["name"]
    assert {m["player"] for m in change.changes["moves"]} == {
        match.players["A"]["name"],
        match.players["B"]["name"],
    }
    summary = MatchSummary.objects.get(pk=first)
    assert (summary.winner, summary.amendments, summary.event_id) == ("A", 1, amendment.id)


def test_the_version_is_the_newest_event_that_changed_a_counted_result_or_the_pending_count(
    round_robin,
):
    seq = open_game(round_robin[0])
    projector.catch_up()
    lag = Event.objects.get(match_id=round_robin[0], seq=1)
    assert standings_get("cup")["version"] == lag.id  # the match started: pending 0 -> 1
    assert standings_get("cup")["pending"] == 1

    seq = shot(round_robin[0], seq, QUIET)
    projector.catch_up()
    assert standings_get("cup")["version"] == lag.id  # a shot that decides nothing
    assert StandingsChange.objects.filter(competition_id="cup").count() == 1

    shot(round_robin[0], seq, CAROM_B)
    projector.catch_up()
    standings = standings_get("cup")
    assert standings["version"] == Event.objects.get(match_id=round_robin[0], seq=5).id
    assert standings["pending"] == 0


def test_catching_up_again_writes_nothing(round_robin):
    win(round_robin[0], "A")
    projector.catch_up()
    version = standings_get("cup")["version"]

    caught = projector.catch_up()

    assert caught.events == 0 and caught.versions == {}
    assert standings_get("cup")["version"] == version
    assert StandingsChange.objects.filter(competition_id="cup").count() == 2


def test_a_version_is_never_written_twice_nor_backwards(round_robin):
    win(round_robin[0], "A")
    projector.catch_up()
    version = standings_get("cup")["version"]
    # Run the last batch again, as a task rerun after a lost acknowledgement might.
    ProjectorCursor.objects.filter(name=projector.NAME).update(position=0)
    projector.clear_caches()
    MatchSummary.objects.update(result=None, seq=0, event_id=0, head_hash="", amendments=0)

    projector.catch_up()

    assert standings_get("cup")["version"] == version
    assert StandingsChange.objects.filter(competition_id="cup").count() == 2


def test_a_forfeited_match_counts_as_won_by_the_other_player(round_robin):
    seq = open_game(round_robin[0])
    services.match_forfeit(
        match_id=round_robin[0], expected_seq=seq, by="petrenko", player="A", reason="left"
    )
    projector.catch_up()

    rows = {row["player"]: row for row in standings_get("cup")["rows"]}
    b = Match.objects.get(pk=round_robin[0]).players["B"]["name"]
    assert rows[b]["won"] == 1 and rows[b]["match_points"] == 2


def test_a_match_under_review_is_pending_and_not_counted(round_robin):
    seq = win(round_robin[0], "A")  # A's carom at seq 4 wins
    services.ruling_amend(
        match_id=round_robin[0],
        expected_seq=seq,
        by="petrenko",
        shot=4,
        facts=QUIET,
        reason="no carom",
    )
    projector.catch_up()

    standings = standings_get("cup")
    assert standings["pending"] == 1
    assert all(row["played"] == 0 for row in standings["rows"])
    assert MatchSummary.objects.get(pk=round_robin[0]).needs_review


def test_a_rebuild_after_amendments_gives_the_same_standings_and_history(round_robin):
    seq = win(round_robin[0], "B")
    projector.catch_up()
    win(round_robin[1], "A")
    flip(round_robin[0], seq)
    projector.catch_up()
    win(round_robin[2], "B")
    projector.catch_up()
    tasks.projector_sweep()  # the matches not started yet get their summaries
    incremental = snapshot("cup")

    call_command("rebuild_projections", "--no-progress", stdout=StringIO(), stderr=StringIO())

    assert snapshot("cup") == incremental


def test_every_match_has_a_summary_even_before_its_first_event(round_robin):
    projector.catch_up(scheduled=True)
    assert set(MatchSummary.objects.values_list("status", flat=True)) == {"scheduled"}
    assert MatchSummary.objects.count() == 6


def test_the_standings_command_prints_the_json(round_robin):
    win(round_robin[0], "A")
    out = StringIO()

    call_command("standings", "cup", stdout=out)

    printed = json.loads(out.getvalue())
    assert printed["competition"] == "cup" and printed["rows"][0]["match_points"] == 2


def test_the_standings_command_names_an_unknown_competition(db):
    with pytest.raises(CommandError, match="no competition"):
        call_command("standings", "nope", "--as-stored")


def test_a_summary_holds_what_the_archive_searches_and_shows(round_robin):
    seq = win(round_robin[0], "B")
    flip(round_robin[0], seq)
    projector.catch_up()

    summary = MatchSummary.objects.get(pk=round_robin[0])
    match = Match.objects.get(pk=round_robin[0])
    last = Event.objects.filter(match_id=round_robin[0]).order_by("-seq").first()
    assert (summary.competition_id, summary.date, summary.stage) == ("cup", match.date, match.stage)
    assert (summary.player_a_id, summary.player_b_id) == (match.player_a_id, match.player_b_id)
    assert summary.player_a_name == match.players["A"]["name"]
    assert (summary.status, summary.winner, summary.winner_player_id) == (
        "finished",
        "A",
        match.player_a_id,
    )
    assert (summary.games_won_a, summary.games_won_b) == (1, 0)
    assert (summary.points_a, summary.points_b) == (4, 0)
    assert summary.average_a == 4.0 and not summary.needs_review
    assert (summary.own_points_a, summary.shots_a) == (4, 1)
    assert (summary.amendments, summary.seq, summary.event_id) == (1, last.seq, last.id)
    assert summary.head_hash == last.hash


def test_a_corrupt_stored_row_makes_its_match_unreadable_and_the_projector_goes_on(round_robin):
    win(round_robin[0], "A")
    seq = open_game(round_robin[1])
    with unannounced():
        shot(round_robin[1], seq, QUIET)
        win(round_robin[2], "B")
    with triggers_lifted(), connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {EVENTS_TABLE} SET data = %s WHERE match_id = %s AND seq = 4",
            ['{"type": "shot", "contacts": [', round_robin[1]],
        )
    projector.clear_caches()

    projector.catch_up()

    assert MatchSummary.objects.get(pk=round_robin[1]).status == "unreadable"
    assert MatchSummary.objects.get(pk=round_robin[2]).status == "finished"
    assert projector.position() == projector.head()
    assert sum(row["played"] for row in standings_get("cup")["rows"]) == 4  # two matches


def test_a_recompute_reads_no_other_match_while_the_competitions_results_are_kept(round_robin):
    services.competition_create(id="open", name="Open", ruleset=RULESET)
    for player in ENTRANTS[:2]:
        services.player_enter(competition_id="open", player=player, by="federation")
    other = services.round_robin_create(competition_id="open", by="federation")[0].pk
    seq = win(round_robin[0], "B")
    projector.catch_up()
    win(other, "A")
    projector.catch_up()  # another competition's events in between
    flip(round_robin[0], seq)

    with CaptureQueriesContext(connection) as queries:
        projector.catch_up()

    summaries = MatchSummary._meta.db_table
    read_all = [
        q for q in queries if f'FROM "{summaries}"' in q["sql"] and "IS NOT NULL" in q["sql"]
    ]
    assert not read_all
    assert (
        standings_get("cup")["rows"][0]["player"]
        == Match.objects.get(pk=round_robin[0]).players["A"]["name"]
    )
