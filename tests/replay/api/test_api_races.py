"""Races on a served carambole: twenty requests at once to create one thing, never a 500.

Each race sends its twenty requests from twenty threads released together, to one uvicorn
process on the test database (PostgreSQL when DATABASE_URL says so, as in production), or
to two, as production runs several: one process runs its requests' views one at a time.
On SQLite one writer at a time may also answer 503 (the database locked): never a 500.
"""

from __future__ import annotations

import threading
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from itertools import combinations
from typing import Any

import pytest

from matches import services
from matches.models import Competition, Entry, Match
from replay.api.tokens import token_issue
from replay.queries.hall import hall_get
from tests.support.servers import call, serving

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("event_db")]

RACERS = 20
PLAYERS = [{"name": f"Player {n}", "federation_id": f"UA-{n}"} for n in range(1, 6)]


@pytest.fixture(scope="module")
def served_uvicorn(django_db_setup):
    with serving(None) as server:
        yield server


@pytest.fixture(scope="module")
def second_uvicorn(django_db_setup):
    """Another process on the same database: its requests run beside the first one's."""
    with serving(None) as server:
        yield server


@pytest.fixture
def staff_key():
    return token_issue("federation", staff=True).key


def at_once(url: str, key: str, body: Any) -> list[tuple[int, Any]]:
    """Send the same request RACERS times at once; return every answer."""
    return each_at_once([url], key, [body] * RACERS)


def each_at_once(urls: list[str], key: str, bodies: list[Any]) -> list[tuple[int, Any]]:
    """Send one request per body, all at once, to each URL in turn; return every answer,
    in the bodies' order."""
    start = threading.Barrier(len(bodies))

    def one(index: int) -> tuple[int, Any]:
        start.wait()
        answer = call(urls[index % len(urls)], bodies[index], key=key)
        return answer.status, answer.json() if answer.content else None

    with ThreadPoolExecutor(len(bodies)) as pool:
        return list(pool.map(one, range(len(bodies))))


def refusals_name(answers: list[tuple[int, Any]], field: str) -> None:
    """Check that no answer is a 500 and each refusal is the house's error naming `field`."""
    statuses = Counter(status for status, _ in answers)
    assert set(statuses) <= {200, 201, 409, 422, 503}, answers
    for status, body in answers:
        if status in (409, 422):
            assert body["field"] == field, body
            assert "exists already" in body["error"], body


def test_twenty_creations_of_one_competition_at_once_create_it_once(served_uvicorn, staff_key):
    body = {"id": "race-cup", "name": "Race Cup"}

    answers = at_once(f"{served_uvicorn.url}/api/competitions/", staff_key, body)

    refusals_name(answers, "id")
    assert [status for status, _ in answers].count(201) == 1, answers
    assert Competition.objects.filter(pk="race-cup").count() == 1


def test_twenty_creations_of_one_match_at_once_create_it_once(served_uvicorn, staff_key):
    services.competition_create(id="race-cup", name="Race Cup")
    body = {
        "id": "race-cup-1",
        "competition": "race-cup",
        "players": {"A": PLAYERS[0], "B": PLAYERS[1]},
    }

    answers = at_once(f"{served_uvicorn.url}/api/matches/", staff_key, body)

    refusals_name(answers, "id")
    assert [status for status, _ in answers].count(201) == 1, answers
    assert list(Match.objects.values_list("id", flat=True)) == ["race-cup-1"]


def test_twenty_entries_of_one_player_at_once_enter_them_once(served_uvicorn, staff_key):
    services.competition_create(id="race-cup", name="Race Cup")
    # A player known already, as most are: no new row of theirs to wait for.
    services.competition_create(id="last-cup", name="Last Cup")
    services.player_enter(competition_id="last-cup", player=PLAYERS[0], by="federation")

    answers = at_once(
        f"{served_uvicorn.url}/api/competitions/race-cup/players", staff_key, PLAYERS[0]
    )

    refusals_name(answers, "id")
    entered = {body["player_key"] for status, body in answers if status == 201}
    assert len(entered) == 1, answers
    assert Entry.objects.filter(competition="race-cup").count() == 1


def test_twenty_round_robins_of_one_competition_at_once_pair_each_two_players_once(
    served_uvicorn, staff_key
):
    services.competition_create(id="race-cup", name="Race Cup")
    for player in PLAYERS:
        services.player_enter(competition_id="race-cup", player=player, by="federation")

    answers = at_once(f"{served_uvicorn.url}/api/competitions/race-cup/round-robin", staff_key, {})

    refusals_name(answers, "id")
    scheduled = [m for status, body in answers if status == 201 for m in body["matches"]]
    pairs = [frozenset(pair) for pair in Match.objects.values_list("player_a_id", "player_b_id")]
    assert len(pairs) == len(set(pairs)) == len(list(combinations(PLAYERS, 2)))
    assert sorted(scheduled) == sorted(Match.objects.values_list("id", flat=True)), answers


def test_twenty_matches_called_to_one_table_at_once_call_one_and_leave_the_rest_waiting(
    served_uvicorn, second_uvicorn, staff_key
):
    services.competition_create(id="race-cup", name="Race Cup")
    services.tables_set(competition_id="race-cup", names=["1", "2"], by="federation")
    waiting = [f"race-cup-{n}" for n in range(1, RACERS + 1)]
    for match_id in waiting:
        services.match_create(
            id=match_id, competition="race-cup", players={"A": PLAYERS[0], "B": PLAYERS[1]}
        )

    path = "/api/competitions/race-cup/tables/1/call"
    answers = each_at_once(
        [f"{served_uvicorn.url}{path}", f"{second_uvicorn.url}{path}"],
        staff_key,
        [{"match": match_id} for match_id in waiting],
    )

    statuses = Counter(status for status, _ in answers)
    # On SQLite a writer may wait past its timeout: a 503, its match still waiting.
    assert statuses[201] == 1 and set(statuses) <= {201, 409, 503}, answers
    for status, body in answers:
        if status == 409:
            assert body["field"] == "table" and "table '1'" in body["error"], body
    (called,) = [body["next"]["id"] for status, body in answers if status == 201]
    hall = hall_get("race-cup")
    assert [card["next"] and card["next"]["id"] for card in hall["tables"]] == [called, None]
    assert sorted(match["id"] for match in hall["waiting"]) == sorted(set(waiting) - {called})
