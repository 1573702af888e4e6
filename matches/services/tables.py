"""A competition's tables, and which table each match is played at (staff's actions).

Assignments are kept apart from the record, as referees' logins are: every change is a
new `TableAssignment` row, with who made it and when, and the latest row of a match
stands. The record's `table` is the match's table when its first event is recorded
(`table_pin`, called in that event's transaction); moving a match after that moves it
in the hall, not in its record.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction

from matches import store
from matches.domain.errors import NotFound, Refused, excerpt
from matches.models import TABLE_LENGTH, USERNAME_LENGTH, Match, Table, TableAssignment
from matches.selectors import check_id, competition_get, match_get
from matches.services.competitions import check_text
from matches.signals import tables_changed

MOST_TABLES = 64  # a hall of 8 to 16 tables, and room to spare


class TableTaken(Refused):
    """A match called to a table that has another called already, not started (409): as a
    stale `expected_seq`, someone else was first, and the table's card says who."""

    status = 409


def _name_of(value: Any, field: str) -> str:
    name = check_text(value, field, TABLE_LENGTH, required=True).strip()
    return name


def table_add(*, competition_id: str, name: str, by: str) -> Table:
    """Add a table after the competition's last one; a name taken already is refused."""
    check_text(by, "by", USERNAME_LENGTH, required=True)
    name = _name_of(name, "name")
    with transaction.atomic():
        competition = competition_get(competition_id)
        tables = Table.objects.select_for_update().filter(competition=competition)
        if tables.filter(name=name).exists():
            raise Refused.because("table_exists", "name", table=excerpt(name))
        if tables.count() >= MOST_TABLES:
            raise Refused.because("too_many_tables", "name", most=MOST_TABLES)
        last = max((table.order for table in tables), default=0)
        _announce(competition.pk)
        return Table.objects.create(competition=competition, name=name, order=last + 1)


def tables_set(*, competition_id: str, names: Sequence[str], by: str) -> list[Table]:
    """Make the competition's tables exactly `names`, in that order.

    A table kept by name keeps its matches; a new name is a new table; a table left out
    is removed, unless a match was ever assigned to it (refused, naming it: the hall's
    history keeps it).
    """
    check_text(by, "by", USERNAME_LENGTH, required=True)
    if not isinstance(names, (list, tuple)):
        raise Refused("must be a list of table names", "tables")
    if len(names) > MOST_TABLES:
        raise Refused.because("too_many_tables_named", "tables", most=MOST_TABLES)
    wanted = [_name_of(name, f"tables[{index}]") for index, name in enumerate(names)]
    for index, name in enumerate(wanted):
        if name in wanted[:index]:
            raise Refused.because("table_named_twice", f"tables[{index}]", table=excerpt(name))
    with transaction.atomic():
        competition = competition_get(competition_id)
        known = {
            table.name: table
            for table in Table.objects.select_for_update().filter(competition=competition)
        }
        for name, table in known.items():
            if name not in wanted and TableAssignment.objects.filter(table=table).exists():
                raise Refused.because("table_stays", "tables", table=excerpt(name))
        Table.objects.filter(competition=competition).exclude(name__in=wanted).delete()
        kept = []
        for order, name in enumerate(wanted, start=1):
            found = known.get(name)
            if found is None:
                found = Table.objects.create(competition=competition, name=name, order=order)
            elif found.order != order:
                found.order = order
                found.save(update_fields=["order"])
            kept.append(found)
        _announce(competition.pk)
        return kept


def _announce(competition_id: str) -> None:
    transaction.on_commit(
        lambda: tables_changed.send_robust(sender=Table, competition_id=competition_id)
    )


def table_get(competition_id: str, name: Any, field: str = "table", *, lock: bool = False) -> Table:
    """Return a competition's table by name, or refuse (404) naming the field.

    `lock` holds the table's row until the transaction ends: calls to one table queue, so
    each sees the match the one before it called.
    """
    if not isinstance(name, str):
        raise Refused("must be a table name", field)
    tables = Table.objects.filter(competition_id=competition_id, name=name)
    table = (tables.select_for_update() if lock else tables).first()
    if table is None:
        raise NotFound.because(
            "no_table", field, table=excerpt(name), competition=excerpt(competition_id)
        )
    return table


def current_table(match: Match | str) -> Table | None:
    """Return the table a match is assigned to now (None: none, or taken off its table)."""
    latest = (
        TableAssignment.objects.filter(match=match)
        .select_related("table")
        .order_by("-assigned_at", "-id")
        .first()
    )
    return None if latest is None else latest.table


def match_assign_table(*, match_id: str, table: str | None, by: str) -> TableAssignment:
    """Put a match at one of its competition's tables (None: off any table), kept with who
    did it and when. A match already started moves in the hall; its record keeps the table
    of its first event. A waiting match put at a table is called there, as `match_call`
    calls it: refused (409) where another is called already."""
    check_text(by, "by", USERNAME_LENGTH, required=True)
    with transaction.atomic():
        match = match_get(check_id(match_id, "match", "match"))
        found = None if table is None else table_get(match.competition_id, table, lock=True)
        if found is not None and match.status != Match.Status.VOID and store.head(match)[0] == 0:
            _check_free(found, match)
        _announce(match.competition_id)
        return TableAssignment.objects.create(match=match, table=found, assigned_by=by)


def match_call(*, competition_id: str, table: str, match_id: str, by: str) -> TableAssignment:
    """Call a waiting match (no event recorded yet) to a table: the next match played there.

    Refused when the match has started or belongs to another competition (422 naming
    `match`), or the table has a match called already that has not started (409 naming
    `table`): of any number of calls to one table at once, one calls its match."""
    check_text(by, "by", USERNAME_LENGTH, required=True)
    with transaction.atomic():
        competition = competition_get(competition_id)
        found = table_get(competition.pk, table, lock=True)
        try:
            match = match_get(check_id(match_id, "match", "match"))
        except NotFound as error:
            raise NotFound(error.message, "match", code=error.code, params=error.params) from None
        if match.competition_id != competition.pk:
            raise Refused.because("match_elsewhere", "match", match=excerpt(match_id))
        if match.status == Match.Status.VOID:
            raise Refused.because("match_void", "match", match=excerpt(match_id))
        if store.head(match)[0] > 0:
            raise Refused.because("match_started", "match", match=excerpt(match_id))
        _check_free(found, match)
        _announce(competition.pk)
        return TableAssignment.objects.create(match=match, table=found, assigned_by=by)


def _check_free(table: Table, match: Match) -> None:
    """Refuse (409 naming `table`) a match called where another waits to be played."""
    for waiting in _called_to(table):
        if waiting.pk != match.pk:
            raise TableTaken.because(
                "table_taken", "table", table=excerpt(table.name), match=excerpt(waiting.pk)
            )


def _called_to(table: Table) -> list[Match]:
    """Return the matches whose current table is `table` and that have not started."""
    candidates = Match.objects.filter(table_assignments__table=table).distinct()
    return [
        match
        for match in store.with_head(candidates)
        if match.head == 0 and match.status != Match.Status.VOID and current_table(match) == table
    ]


def table_pin(match: Match) -> None:
    """Write the match's current table into its record, at its first event (in its
    transaction): unless the record names a table already (given when it was made)."""
    if match.table:
        return
    table = current_table(match)
    if table is not None:
        match.table = table.name
        match.save(update_fields=["table"])
