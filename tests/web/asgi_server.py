"""A server that speaks WebSockets for the browser tests: Daphne serving
``scorekeeper.asgi`` in a thread of the test process.

pytest-django's ``live_server`` is WSGI only. Daphne runs in a thread rather than a process
so that it reads the test database the tests write: on SQLite that database lives in
memory (shared between the threads of one process, not with another process); on
PostgreSQL it is the usual test database. Twisted's reactor runs once per process, so the
server is started on first use and serves every test after it; tests that use it need
committed data (``transactional_db``), as with ``live_server``.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.db import connections


@dataclass(frozen=True)
class AsgiServer:
    url: str
    loop: asyncio.AbstractEventLoop

    def close_connections(self) -> None:
        """Closes the database connections of the server's shared worker thread (where the
        consumers' queries run), so that none holds the test database open at teardown."""

        async def close() -> None:
            await sync_to_async(connections.close_all)()

        asyncio.run_coroutine_threadsafe(close(), self.loop).result(10)


def _application() -> Any:
    from channels.routing import ProtocolTypeRouter
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

    from scorekeeper import asgi

    return ProtocolTypeRouter(
        {
            "http": ASGIStaticFilesHandler(asgi.django_application),
            "websocket": asgi.application.application_mapping["websocket"],
        }
    )


def _start() -> AsgiServer:
    from daphne.server import Server  # type: ignore[import-untyped]
    from twisted.internet import reactor

    server = Server(
        application=_application(),
        endpoints=["tcp:port=0:interface=127.0.0.1"],
        signal_handlers=False,
        verbosity=0,
    )
    thread = threading.Thread(target=server.run, name="daphne", daemon=True)
    thread.start()
    for _ in range(200):
        if server.listening_addresses:
            break
        threading.Event().wait(0.05)
    else:
        raise RuntimeError("Daphne did not start listening")
    host, port = server.listening_addresses[0]
    return AsgiServer(url=f"http://{host}:{port}", loop=reactor._asyncioEventloop)


def _release_test_database() -> None:
    """On PostgreSQL, ends the sessions other threads left open on the test database (the
    server's worker threads, Playwright's contexts), which would keep it from being dropped."""
    import psycopg
    from django.db import connection

    if connection.vendor != "postgresql":
        return
    # A connection of its own, not one from the pool: the server's threads may still hold
    # every pooled connection, which is the very thing this ends.
    with psycopg.connect(**connection.get_connection_params(), autocommit=True) as own:
        own.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
    connection.close()


# The one server of the test run (Twisted's reactor cannot start twice in a process).
_STARTED: list[AsgiServer] = []


@pytest.fixture(scope="session")
def _daphne(django_db_setup: None, django_db_blocker: Any) -> Iterator[list[AsgiServer]]:
    """The server, once per test run; the test database released before it is dropped."""
    yield _STARTED
    if _STARTED:
        _STARTED[0].close_connections()
        with django_db_blocker.unblock():
            _release_test_database()


@pytest.fixture
def asgi_server(
    _daphne: list[AsgiServer], transactional_db: None, monkeypatch: pytest.MonkeyPatch
) -> Iterator[AsgiServer]:
    """Daphne at ``asgi_server.url``, against the test database (HTTP and WebSockets)."""
    # The views run in Daphne's threads; the test's own queries stay synchronous.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    if not _daphne:
        _daphne.append(_start())
    yield _daphne[0]
    _daphne[0].close_connections()
