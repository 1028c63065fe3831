"""Reading rows on the paths every request takes, without the ORM's cost per query.

Building a query with the ORM costs more than running it: compiling the token lookup or
the session read takes about half a millisecond of Python each, every request, for SQL
that never changes. Here each model's column list and converters are worked out once per
process (``columns``), the SQL is put together from them (a few string joins), the rows
are turned into model instances with the same converters the ORM applies
(``Model.from_db``). On PostgreSQL, psycopg prepares them once a connection has sent
them a few times (the database's options in ``scorekeeper.settings``), so the server
plans them once per connection too.

Only for reads whose shape is fixed: the device token with its user, alone or with the
session a deal is recorded into (``games.services.deal_reads``), the live table's rows
(``games.live.rows``) and a seat link with its session (``games.live.seat_links``).
Everything else uses the ORM.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Generic, TypeVar

from django.db import connection
from django.db.models import Model

M = TypeVar("M", bound=Model)


def quoted(model: type[Model]) -> str:
    """The model's table name, quoted for SQL."""
    return str(connection.ops.quote_name(model._meta.db_table))


class Columns(Generic[M]):
    """A model's concrete columns, under its table's name: the SQL that selects them and
    the conversion of their values back into an instance, as the ORM does."""

    def __init__(self, model: type[M]) -> None:
        self.model = model
        table = quoted(model)
        fields = model._meta.concrete_fields
        self.attnames = [field.attname for field in fields]
        self.sql = ", ".join(f"{table}.{connection.ops.quote_name(str(f.column))}" for f in fields)
        self.width = len(fields)
        self.converters: list[tuple[int, list[Any], Any]] = []
        for index, field in enumerate(fields):
            column = field.get_col(model._meta.db_table)
            found = connection.ops.get_db_converters(column) + column.get_db_converters(connection)
            if found:
                self.converters.append((index, found, column))

    def instance(self, values: Sequence[Any]) -> M:
        """An instance from this model's values, in column order (the ORM's conversions
        applied: dates on SQLite, JSON, decimals)."""
        row = list(values)
        for index, converters, column in self.converters:
            for convert in converters:
                row[index] = convert(row[index], column, connection)
        return self.model.from_db(connection.alias, self.attnames, row)


_columns: dict[tuple[str, type[Model]], Columns[Any]] = {}


def columns(model: type[M]) -> Columns[M]:
    """``Columns(model)``, made once per database vendor."""
    key = (connection.vendor, model)
    if key not in _columns:
        _columns[key] = Columns(model)
    return _columns[key]
