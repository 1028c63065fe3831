"""Django's PostgreSQL backend (psycopg 3), with two changes that spare round trips.

**The health check reads the socket instead of asking the server.** With
CONN_HEALTH_CHECKS on, Django checks a reused connection at the start of each request by
sending ``SELECT 1``: a round trip on every request, whatever it does. A connection at rest
has nothing to read, so this backend looks at the socket first, without waiting: when it
is silent and psycopg saw nothing wrong, the connection is taken as usable. A server that
restarts, or ends the connection (an administrator, an idle timeout), sends a last message
and closes the socket, which then reads as ready, and only then is ``SELECT 1`` sent, so
that a broken connection is still found and replaced before the request uses it. A
connection in the middle of a transaction, or with anything pending, gets ``SELECT 1`` as
before.

**Prepared statements on request.** ``prepared_cursor()`` gives a cursor (wrapped by
Django like any other, so its statements are logged and counted in tests) that binds its
parameters on the server and prepares each statement the first time it sees it on a
connection: PostgreSQL then parses and plans it once per connection instead of once per
execution. Only the few statements every deal recording sends use it (``games.lib.hot_sql``);
everything else keeps Django's default client-side binding.
"""

from __future__ import annotations

import select
from typing import Any

from django.db.backends.postgresql import base, operations
from psycopg import pq

# Django's psycopg 3 cursor classes, which its type stubs leave out.
_ServerBindingCursor: Any = base.ServerBindingCursor


class PreparingCursor(_ServerBindingCursor):
    """Binds on the server and prepares every statement it executes."""

    def execute(self, query: Any, params: Any = None, **kwargs: Any) -> Any:
        kwargs["prepare"] = True
        return super().execute(query, params, **kwargs)


# psycopg prepares a statement once it has run this many times on a connection, or at
# once when asked (``prepare=True``). Django turns that off (None), which refuses the asking
# too; a threshold never reached prepares only what asks.
ONLY_WHEN_ASKED = 2**31


class DatabaseOperations(operations.DatabaseOperations):
    def last_executed_query(self, cursor: Any, sql: str, params: Any) -> str:
        """The statement as logged (DEBUG, tests): a prepared one's parameters are sent
        apart from it, so they are written in here, as Django's own cursors show them."""
        logged: str | None = super().last_executed_query(cursor, sql, params)
        if logged is None and isinstance(cursor, PreparingCursor):
            return str(self.compose_sql(sql, params))
        return logged  # type: ignore[return-value]


class DatabaseWrapper(base.DatabaseWrapper):
    ops_class = DatabaseOperations

    def get_new_connection(self, conn_params: dict[str, Any]) -> Any:
        connection = super().get_new_connection(conn_params)
        if connection.prepare_threshold is None:
            connection.prepare_threshold = ONLY_WHEN_ASKED
        return connection

    def is_usable(self) -> bool:
        connection = self.connection
        if connection is None or connection.closed or connection.broken:
            return False
        idle = connection.info.transaction_status == pq.TransactionStatus.IDLE
        if idle and connection.pgconn.status == pq.ConnStatus.OK and _silent(connection):
            return True
        return bool(super().is_usable())  # SELECT 1

    def prepared_cursor(self) -> Any:
        """A cursor whose statements are prepared (see the module's docstring)."""
        self.close_if_health_check_failed()
        self.ensure_connection()
        with self.wrap_database_errors:
            return self._prepare_cursor(PreparingCursor(self.connection))  # type: ignore[attr-defined]


def _silent(connection: Any) -> bool:
    """Nothing to read on the connection's socket, without waiting for it."""
    try:
        readable, _, _ = select.select([connection.fileno()], [], [], 0)
    except (OSError, ValueError):
        return False
    return not readable
