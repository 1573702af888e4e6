"""Plain statements for the projector's writes, with values prepared as the ORM prepares them.

The projector writes a few rows for each event; compiling each ORM query would cost more
than the recompute itself (`make bench`, standings). The columns come from the models, so
a renamed field is still one place to change.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import orjson
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
    return [_value(column, getattr(item, column.attname)) for column in columns]


def _value(column: Any, value: Any) -> Any:
    """Return a value as its column stores it; JSON encoded by orjson (a stage view is 60 KB:
    the standard library's encoder took a fifth of the projector's run), as Django's own
    JSONField stores it otherwise (None is SQL's NULL)."""
    if not isinstance(column, models.JSONField) or column.encoder is not None or value is None:
        return column.get_db_prep_save(value, connection)
    if connection.vendor == "postgresql":
        from psycopg.types.json import Jsonb

        return Jsonb(value, dumps=_json_text)
    return _json_text(value)


def _json_text(value: Any) -> str:
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
