"""PostgreSQL through Django's own backend and its options (scorekeeper.settings): psycopg's
pool checks each connection as it hands it out, so a connection the server has ended is
replaced before a request uses it; statements bind on the server and psycopg prepares
those that recur."""

from __future__ import annotations

from typing import Any

import psycopg
import pytest
from django.conf import settings
from django.db import connection

OPTIONS = settings.DATABASES["default"].get("OPTIONS", {})
POSTGRES = settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"
pytestmark = [
    pytest.mark.skipif(not POSTGRES, reason="the options are PostgreSQL's"),
    pytest.mark.django_db(transaction=True),  # autocommit, as a server runs
]


def end_from_elsewhere(pid: int) -> None:
    """Ends the backend ``pid`` as an administrator or a restart would."""
    params = connection.get_connection_params()
    for name in ("cursor_factory", "prepare_threshold", "context"):
        params.pop(name, None)
    with psycopg.connect(**params, autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", [pid])


def backend_pid() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        row = cursor.fetchone()
    assert row is not None
    return int(row[0])


def pool() -> Any:
    """The connection's pool (psycopg's; an attribute of Django's PostgreSQL backend)."""
    return connection.pool  # type: ignore[attr-defined]  # (Django's stubs leave it out)


def test_the_pool_holds_the_connections_and_checks_them() -> None:
    assert pool() is not None
    assert settings.DATABASES["default"]["CONN_MAX_AGE"] == 0  # the pool refuses any other
    assert settings.DATABASES["default"]["CONN_HEALTH_CHECKS"]
    assert pool().max_size == OPTIONS["pool"]["max_size"]
    # A database that does not answer fails a request in seconds, the pool's wait included.
    assert pool().timeout == OPTIONS["connect_timeout"]


def test_requests_take_their_connections_from_the_pool() -> None:
    backend_pid()
    before = pool().get_stats()
    for _ in range(8):
        connection.close()  # the end of a request: the connection goes back to the pool
        backend_pid()  # the next request's first query takes one from it
    after = pool().get_stats()
    # Eight connections handed out, none opened: without the pool each request would have
    # opened one of its own.
    assert after["requests_num"] - before.get("requests_num", 0) == 8
    assert after.get("connections_num", 0) == before.get("connections_num", 0)


def test_a_connection_the_server_ended_is_replaced_before_it_is_used() -> None:
    ended = backend_pid()
    connection.close()
    end_from_elsewhere(ended)

    # The next request's first query: the pool's check finds the connection dead and
    # hands out another; the query itself never fails.
    assert backend_pid() != ended
    with connection.cursor() as cursor:
        cursor.execute("SELECT %s::int + 1", [1])
        assert cursor.fetchone() == (2,)


def test_statements_bind_on_the_server_and_recurring_ones_are_prepared() -> None:
    threshold = OPTIONS["prepare_threshold"]
    sql = "SELECT count(*) FROM games_session WHERE id = %s"
    with connection.cursor() as cursor:
        for k in range(threshold + 1):
            cursor.execute(sql, [k])
        # Server-side binding: the parameter travels apart from the statement ($1).
        cursor.execute(
            "SELECT statement FROM pg_prepared_statements WHERE NOT from_sql AND statement LIKE %s",
            ["%games_session WHERE id = $1%"],
        )
        assert len(cursor.fetchall()) == 1
