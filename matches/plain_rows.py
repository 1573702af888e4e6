"""Model instances read by one plain statement, each value converted as the ORM converts it.

The projector's batch reads its matches and summaries by key; compiling the ORM's query
cost more than folding the match they serve (`make bench`).
The statement and the converters come from the model, so a renamed field or a new
column is still one place to change, and what comes back equals what the ORM gives.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from functools import cache
from typing import Any, TypeVar

from django.db import connection, models

Model = TypeVar("Model", bound=models.Model)
Converter = Callable[[Any, Any, Any], Any]


def by_keys(model: type[Model], keys: Collection[Any]) -> dict[Any, Model]:
    """Return the rows of these primary keys, by key (as `in_bulk` does)."""
    wanted = list(keys)
    if not wanted:
        return {}
    key = connection.ops.quote_name(model._meta.pk.column)
    found = where(model, f"{key} IN ({', '.join(['%s'] * len(wanted))})", wanted)
    return {item.pk: item for item in found}


def where(model: type[Model], condition: str, params: list[Any]) -> list[Model]:
    """Return the rows meeting a condition of plain SQL over the model's columns."""
    shape = _shape(model, connection.vendor)
    with connection.cursor() as cursor:
        cursor.execute(f"{shape.select} WHERE {condition}", params)
        rows = cursor.fetchall()
    return [model.from_db(connection.alias, shape.names, shape.values(row)) for row in rows]


def column(model: type[models.Model], attname: str) -> str:
    """Return a column of a model as plain SQL names it, with its table."""
    return _column(model, attname, connection.vendor)


@cache
def _column(model: type[models.Model], attname: str, vendor: str) -> str:
    field = next(field for field in model._meta.concrete_fields if field.attname == attname)
    quote = connection.ops.quote_name
    return f"{quote(model._meta.db_table)}.{quote(field.column)}"


class _Shape:
    """A model's columns, their attribute names, and each one's converters."""

    def __init__(self, model: type[models.Model]) -> None:
        fields = model._meta.concrete_fields
        self.names = [field.attname for field in fields]
        self.table = connection.ops.quote_name(model._meta.db_table)
        self.columns = ", ".join(column(model, field.attname) for field in fields)
        self.select = f"SELECT {self.columns} FROM {self.table}"
        self.converters: list[tuple[int, Any, list[Converter]]] = []
        for n, field in enumerate(fields):
            expression = field.get_col(model._meta.db_table)
            found = [
                *connection.ops.get_db_converters(expression),
                *expression.get_db_converters(connection),
            ]
            if found:
                self.converters.append((n, expression, found))

    def values(self, row: tuple[Any, ...]) -> list[Any]:
        values = list(row)
        for n, expression, converters in self.converters:
            for convert in converters:
                values[n] = convert(values[n], expression, connection)
        return values


@cache
def _shape(model: type[models.Model], vendor: str) -> _Shape:
    return _Shape(model)
