"""A competition's tables: which table a match is at, kept apart from its record."""

import threading

import pytest
from django.db import connections

from matches import services
from matches.domain.chain import header_hash
from matches.domain.errors import NotFound, Refused
from matches.models import Match, TableAssignment
from matches.records import record_export
from matches.services.tables import TableTaken, current_table
from replay.queries.hall import hall_get
from tests.support.builders import new_match, open_game, play

STAFF = "federation"


@pytest.fixture
def hall(db):
    """The cup's hall: tables 1, 2 and 3 in that order, two matches scheduled."""
    new_match("cup-a-1")
    new_match("cup-a-2")
    return services.tables_set(competition_id="cup", names=["1", "2", "3"], by=STAFF)


def test_tables_are_set_in_order_and_kept_by_name(hall):
    assert [(t.name, t.order) for t in hall] == [("1", 1), ("2", 2), ("3", 3)]
    again = services.tables_set(competition_id="cup", names=["3", "1", "Show"], by=STAFF)
    assert [(t.name, t.order) for t in again] == [("3", 1), ("1", 2), ("Show", 3)]
    assert again[0].pk == hall[2].pk  # kept, with its matches
    added = services.table_add(competition_id="cup", name="4", by=STAFF)
    assert (added.name, added.order) == ("4", 4)


@pytest.mark.parametrize(
    ("names", "field"),
    [
        (["1", "1"], "tables[1]"),
        (["1", ""], "tables[1]"),
        ("1,2", "tables"),
        (["x" * 300], "tables[0]"),
    ],
)
def test_bad_tables_are_refused_naming_the_field(hall, names, field):
    with pytest.raises(Refused) as refused:
        services.tables_set(competition_id="cup", names=names, by=STAFF)
    assert refused.value.field == field


def test_a_table_that_had_a_match_is_not_removed(hall):
    services.match_assign_table(match_id="cup-a-1", table="2", by=STAFF)
    with pytest.raises(Refused) as refused:
        services.tables_set(competition_id="cup", names=["1", "3"], by=STAFF)
    assert refused.value.field == "tables"


def test_each_assignment_is_a_new_row_and_the_latest_stands(hall):
    services.match_assign_table(match_id="cup-a-1", table="1", by=STAFF)
    services.match_assign_table(match_id="cup-a-1", table="3", by="director")
    assert current_table("cup-a-1").name == "3"
    rows = TableAssignment.objects.filter(match_id="cup-a-1")
    assert [(row.table.name, row.assigned_by) for row in rows] == [("1", STAFF), ("3", "director")]
    services.match_assign_table(match_id="cup-a-1", table=None, by=STAFF)
    assert current_table("cup-a-1") is None


def test_an_unknown_table_or_match_is_refused(hall):
    with pytest.raises(NotFound) as refused:
        services.match_assign_table(match_id="cup-a-1", table="9", by=STAFF)
    assert refused.value.field == "table"
    with pytest.raises(NotFound):
        services.match_assign_table(match_id="nope", table="1", by=STAFF)


def test_the_record_keeps_the_table_of_the_first_event_not_later_moves(hall):
    services.match_assign_table(match_id="cup-a-1", table="2", by=STAFF)
    match = Match.objects.get(pk="cup-a-1")
    sealed = header_hash(match.header())
    assert record_export("cup-a-1")["match"].get("table", "") == ""

    seq = open_game("cup-a-1")
    services.match_assign_table(match_id="cup-a-1", table="3", by=STAFF)
    play("cup-a-1", seq)

    match.refresh_from_db()
    assert match.table == "2"
    exported = record_export("cup-a-1")
    assert exported["match"]["table"] == "2"
    assert "assign" not in repr(exported)  # who moved it is not part of the record
    assert header_hash(match.header()) == sealed  # nor of what the chain seals
    assert current_table(match).name == "3"  # the hall has it at 3


def test_calling_a_match_puts_a_waiting_match_at_a_table(hall):
    services.match_call(competition_id="cup", table="1", match_id="cup-a-1", by=STAFF)
    assert current_table("cup-a-1").name == "1"
    # The same call again changes nothing; another match called there is refused.
    services.match_call(competition_id="cup", table="1", match_id="cup-a-1", by=STAFF)
    with pytest.raises(Refused) as refused:
        services.match_call(competition_id="cup", table="1", match_id="cup-a-2", by=STAFF)
    assert refused.value.field == "table"
    # Once it starts, the table is free to call the next one.
    open_game("cup-a-1")
    services.match_call(competition_id="cup", table="1", match_id="cup-a-2", by=STAFF)
    assert current_table("cup-a-2").name == "1"


def test_a_started_match_or_one_of_another_competition_cannot_be_called(hall):
    open_game("cup-a-1")
    with pytest.raises(Refused) as refused:
        services.match_call(competition_id="cup", table="2", match_id="cup-a-1", by=STAFF)
    assert refused.value.field == "match"
    new_match("other-1", competition="other")
    with pytest.raises(Refused) as refused:
        services.match_call(competition_id="cup", table="2", match_id="other-1", by=STAFF)
    assert refused.value.field == "match"


def test_a_waiting_match_put_where_another_is_called_is_refused_naming_the_table(hall):
    services.match_call(competition_id="cup", table="1", match_id="cup-a-1", by=STAFF)

    with pytest.raises(TableTaken) as refused:
        services.match_assign_table(match_id="cup-a-2", table="1", by=STAFF)

    assert (refused.value.status, refused.value.field) == (409, "table")
    assert current_table("cup-a-2") is None
    # A match under way moves in the hall as before: the table's called match stays.
    open_game("cup-a-2")
    services.match_assign_table(match_id="cup-a-2", table="1", by=STAFF)
    assert hall_get("cup")["tables"][0]["next"]["id"] == "cup-a-1"


CALLERS = 20


def call_from_threads(match_ids: list[str]) -> list[object]:
    """Call each match to table 1 from a thread of its own, all at once; return each outcome."""
    start = threading.Barrier(len(match_ids))
    outcomes: list[object] = [None] * len(match_ids)

    def director(index: int) -> None:
        try:
            start.wait()
            outcomes[index] = services.match_call(
                competition_id="cup", table="1", match_id=match_ids[index], by=STAFF
            )
        except Exception as error:  # reported by the test, not lost in the thread
            outcomes[index] = error
        finally:
            connections.close_all()

    workers = [threading.Thread(target=director, args=(n,)) for n in range(len(match_ids))]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=60)
    assert not any(worker.is_alive() for worker in workers), "a caller's thread hung"
    return outcomes


def test_twenty_matches_called_to_one_table_at_once_call_one_and_lose_none(event_db):
    match_ids = [f"cup-a-{n}" for n in range(1, CALLERS + 1)]
    for match_id in match_ids:
        new_match(match_id)
    services.tables_set(competition_id="cup", names=["1", "2"], by=STAFF)

    outcomes = call_from_threads(match_ids)

    called = [o.match_id for o in outcomes if isinstance(o, TableAssignment)]
    refused = [o for o in outcomes if isinstance(o, TableTaken)]
    assert len(called) == 1 and len(refused) == CALLERS - 1, outcomes
    assert all(error.field == "table" for error in refused)
    shown = hall_get("cup")
    assert [card["next"] and card["next"]["id"] for card in shown["tables"]] == [called[0], None]
    assert sorted(m["id"] for m in shown["waiting"]) == sorted(set(match_ids) - set(called))
