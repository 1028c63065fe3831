"""scorekeeper.postgresql: the health check of a reused connection needs no round trip
while the connection is sound, and still finds one the server has ended."""

from __future__ import annotations

import time
from typing import Any

import psycopg
import pytest
from django.conf import settings
from django.db import connection
from django.db.backends.postgresql import base as django_base

POSTGRES = settings.DATABASES["default"]["ENGINE"] == "scorekeeper.postgresql"
pytestmark = [
    pytest.mark.skipif(not POSTGRES, reason="scorekeeper.postgresql is PostgreSQL's backend"),
    pytest.mark.django_db(transaction=True),  # autocommit, as a server runs
]


@pytest.fixture
def select_ones(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Each time Django's own check (``SELECT 1``) runs."""
    calls: list[str] = []
    check = django_base.DatabaseWrapper.is_usable

    def counted(self: Any) -> bool:
        calls.append("SELECT 1")
        return bool(check(self))

    monkeypatch.setattr(django_base.DatabaseWrapper, "is_usable", counted)
    return calls


def end_from_elsewhere(pid: int) -> None:
    """Ends the backend ``pid`` as an administrator or a restart would."""
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("prepare_threshold", None)
    with psycopg.connect(**params, autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", [pid])


def test_a_sound_idle_connection_is_usable_without_a_query(select_ones: list[str]) -> None:
    connection.ensure_connection()
    assert connection.is_usable()
    assert select_ones == []


def test_a_connection_the_server_ended_is_found_and_replaced(select_ones: list[str]) -> None:
    connection.ensure_connection()
    old = connection.connection
    end_from_elsewhere(old.info.backend_pid)
    deadline = time.monotonic() + 5
    while connection.is_usable() and time.monotonic() < deadline:
        time.sleep(0.05)  # the server's last message is on its way

    assert not connection.is_usable()
    assert select_ones, "a socket with something to read is checked with SELECT 1"
    # As at the start of a request: the check fails, the connection is replaced.
    connection.health_check_done = False  # type: ignore[attr-defined]
    with connection.cursor() as cursor:
        cursor.execute("SELECT 2")
        assert cursor.fetchone() == (2,)
    assert connection.connection is not old


def test_inside_a_transaction_the_check_asks_the_server(select_ones: list[str]) -> None:
    connection.ensure_connection()
    connection.set_autocommit(False)
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        assert connection.is_usable()
        assert select_ones == ["SELECT 1"]
    finally:
        connection.rollback()
        connection.set_autocommit(True)


def test_a_request_on_a_reused_connection_sends_no_select_1(select_ones: list[str]) -> None:
    """What Django does at the start of each request with CONN_HEALTH_CHECKS on (as
    production's DATABASE_URL sets): the first cursor checks the connection."""
    assert settings.DATABASES["default"]["CONN_HEALTH_CHECKS"]
    connection.ensure_connection()
    reused = connection.connection
    connection.health_check_done = False  # type: ignore[attr-defined]  # a new request on a kept connection
    with connection.cursor() as cursor:
        cursor.execute("SELECT 3")
        assert cursor.fetchone() == (3,)
    assert connection.health_check_done  # type: ignore[attr-defined]
    assert connection.connection is reused
    assert select_ones == []
