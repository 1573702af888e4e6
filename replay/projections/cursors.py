"""The projector's cursors, read by a plain statement: the projector's own (`projector`)
and the first day whose ratings are to be worked out again (`ratings-from`).

Each recompute reads both, once a shot on the embedded venue, in the transaction that
holds SQLite's one write lock; the ORM took 0.25 ms to build each statement, a read of
0.02 ms, and every other append waits out that lock (the venue's answer p99).
"""

from __future__ import annotations

from django.db import connection

from replay.models import ProjectorCursor

POSITION_SQL = f"SELECT position FROM {ProjectorCursor._meta.db_table} WHERE name = %s"


def position_of(name: str, *, locked: bool = False) -> int | None:
    """Return a cursor's position (None when it has no row yet); with `locked`, its row
    stays locked until the transaction ends (SQLite's IMMEDIATE transaction holds its one
    write lock already; PostgreSQL locks the row)."""
    lock = " FOR UPDATE" if locked and connection.vendor == "postgresql" else ""
    with connection.cursor() as cursor:
        cursor.execute(POSITION_SQL + lock, [name])
        found = cursor.fetchone()
    return None if found is None else int(found[0])
