"""Plain statements for the projector's writes, with values prepared as the ORM prepares them.

The projector writes a few rows for each event; compiling each ORM query would cost more
than the recompute itself (`make bench`, standings). The columns come from the models, so
a renamed field is still one place to change.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import connection, models


def insert(model: type[models.Model], fields: Sequence[str], objects: Sequence[Any]) -> None:
    """Insert `objects` with these fields, one statement for them all."""
    columns = _columns(model, fields)
    sql = (
        f"INSERT INTO {model._meta.db_table} ({', '.join(c.column for c in columns)}) "
        f"VALUES ({', '.join(['%s'] * len(columns))})"
    )
    rows = [_values(columns, item) for item in objects]
    if rows:
        with connection.cursor() as cursor:
            cursor.executemany(sql, rows)


def update(
    model: type[models.Model], fields: Sequence[str], item: Any, where: str = "", *params: Any
) -> int:
    """Update one row (by primary key, and `where` if given) with these fields; return the count."""
    columns = _columns(model, fields)
    key = model._meta.pk
    sql = (
        f"UPDATE {model._meta.db_table} SET {', '.join(f'{c.column} = %s' for c in columns)} "
        f"WHERE {key.column} = %s{f' AND {where}' if where else ''}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [*_values(columns, item), getattr(item, key.attname), *params])
        count: int = cursor.rowcount  # a DB-API cursor's: untyped
        return count


def _columns(model: type[models.Model], fields: Sequence[str]) -> list[models.Field[Any, Any]]:
    """Return the model's fields of these names, each a column of its table."""
    columns = []
    for name in fields:
        field = model._meta.get_field(name)
        if not isinstance(field, models.Field):  # a relation's other side: no column here
            raise TypeError(f"{model.__name__}.{name} is not a column")
        columns.append(field)
    return columns


def _values(columns: Sequence[Any], item: Any) -> list[Any]:
    return [
        column.get_db_prep_save(getattr(item, column.attname), connection) for column in columns
    ]
