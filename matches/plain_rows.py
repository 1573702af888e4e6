"""Model instances read by one plain statement, each value converted as the ORM converts it.

The hot reads (the projector's batch, a preview, an append) fetch one or two rows by key;
compiling the ORM's query cost more than folding the match they serve (`make bench`).
The statement and the converters come from the model, so a renamed field or a new
column is still one place to change, and what comes back equals what the ORM gives.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
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


def with_related(
    model: type[Model],
    relation: str,
    condition: str,
    params: list[Any],
    extra: Sequence[str] = (),
) -> list[tuple[Model, tuple[Any, ...]]]:
    """Return the rows meeting a condition, each with the row its foreign key `relation`
    names set on it (as `select_related` sets it), and the values of the `extra` SQL
    expressions read beside it: one statement where two or three would each cost a round
    trip. `condition` and `extra` name columns by `column`."""
    join = _join(model, relation, connection.vendor)
    shape, parent, related = join.shape, join.parent, join.related
    sql = f"SELECT {', '.join([join.columns, *extra])} {join.source} WHERE {condition}"
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    found = []
    width = len(shape.names)
    for row in rows:
        item = model.from_db(connection.alias, shape.names, shape.values(row[:width]))
        values = parent.values(row[width : width + len(parent.names)])
        setattr(item, relation, related.from_db(connection.alias, parent.names, values))
        found.append((item, tuple(row[width + len(parent.names) :])))
    return found


def column(model: type[models.Model], attname: str) -> str:
    """Return a column of a model as plain SQL names it, with its table."""
    return _column(model, attname, connection.vendor)


@cache
def _column(model: type[models.Model], attname: str, vendor: str) -> str:
    field = next(field for field in model._meta.concrete_fields if field.attname == attname)
    quote = connection.ops.quote_name
    return f"{quote(model._meta.db_table)}.{quote(field.column)}"


class _Join:
    """A model's columns and its foreign key's model's, and the tables joined by that key."""

    def __init__(self, model: type[models.Model], relation: str, vendor: str) -> None:
        field = model._meta.get_field(relation)
        if not isinstance(field, models.ForeignKey) or not isinstance(field.related_model, type):
            raise TypeError(f"{model.__name__}.{relation} is not a foreign key to a model")
        self.related: type[models.Model] = field.related_model
        self.shape, self.parent = _shape(model, vendor), _shape(self.related, vendor)
        self.columns = f"{self.shape.columns}, {self.parent.columns}"
        self.source = (
            f"FROM {self.shape.table} JOIN {self.parent.table} "
            f"ON {column(self.related, field.target_field.attname)} "
            f"= {column(model, field.attname)}"
        )


@cache
def _join(model: type[models.Model], relation: str, vendor: str) -> _Join:
    return _Join(model, relation, vendor)


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
