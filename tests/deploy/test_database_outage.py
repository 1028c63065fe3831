"""While the database cannot be reached, every request that needs it answers 503 with
Retry-After: the API in its error shape, the pages, the admin and the forms with a page of
their own that needs neither the database nor the session. Each such request leaves one
request-log line (status 503) and one WARNING naming the error, no traceback.

The outage is simulated by making every new cursor fail as a lost PostgreSQL does
(``ensure_connection`` raising OperationalError); on PostgreSQL, one test also points the
connection at a port where nothing listens.
"""

from __future__ import annotations

import logging
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any
from unittest import mock

import pytest
from asgiref.sync import async_to_sync
from django.contrib.auth.models import User
from django.contrib.sessions.backends.db import SessionStore
from django.db import OperationalError, connection, connections
from django.test import AsyncClient, Client, RequestFactory, override_settings
from hypothesis import given
from hypothesis import strategies as st

from games.lib import outage
from games.live import seat_links
from games.models import Group, Player, Session
from tests.api.conftest import API, client_for

PASSWORD = "a long table password"
API_ERROR = {
    "error": "The database is not answering; try again in a few seconds.",
    "field": None,
}
PAGE_TEXT = "Scorekeeper can't reach its records right now"
REFUSED = 'connection to server at "127.0.0.1", port 5432 failed: Connection refused'


@contextmanager
def database_down() -> Iterator[None]:
    """Every query from here on fails as it does while PostgreSQL is unreachable."""
    default = connections["default"]
    with (
        mock.patch.object(default, "ensure_connection", side_effect=OperationalError(REFUSED)),
        # The test's own transaction stays open for its teardown.
        mock.patch.object(default, "close"),
    ):
        yield


@pytest.fixture
def alice(db: None) -> User:
    return User.objects.create_user("alice", password=PASSWORD)


@pytest.fixture
def bob(db: None) -> User:
    return User.objects.create_user("bob", password=PASSWORD)


def signed_in(user: User) -> Client:
    """A browser signed in through the session cookie (the bug: the middlewares read that
    session before any view)."""
    client = Client(raise_request_exception=False)
    client.force_login(user)
    return client


@dataclass(frozen=True)
class Case:
    who: str  # "signed in" (session cookie), "anonymous", or "token" (an API client)
    method: str
    path: str  # with {session} and {seat} filled in by the test
    kind: str  # "api" or "page"
    data: dict[str, Any] | None = None

    def __str__(self) -> str:
        return f"{self.who} {self.method} {self.path}"


CASES = [
    Case("signed in", "GET", "/groups/", "page"),
    Case("signed in", "GET", "/admin/", "page"),
    Case("signed in", "GET", f"{API}/groups/", "api"),
    Case("signed in", "POST", "/groups/new/", "page", {"name": "Saturday club"}),
    Case("signed in", "GET", "/sessions/{session}/live/", "page"),
    Case("signed in", "GET", f"{API}/sessions/{{session}}/live/", "api"),
    Case("anonymous", "GET", "/seat/{seat}/", "page"),
    Case("anonymous", "POST", "/admin/login/", "page", {"username": "alice", "password": "x"}),
    Case("anonymous", "POST", "/accounts/login/", "page", {"username": "alice", "password": "x"}),
    Case("anonymous", "POST", f"{API}/auth/token/", "api", {"username": "alice", "password": "x"}),
    Case("token", "GET", f"{API}/groups/", "api"),
]


def records(caplog: pytest.LogCaptureFixture, name: str) -> list[logging.LogRecord]:
    return [record for record in caplog.records if record.name == name]


def assert_answered_503(response: Any, kind: str) -> None:
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert response["Cache-Control"] == "no-store"
    if kind == "api":
        assert response.json() == API_ERROR
    else:
        assert response["Content-Type"] == "text/html; charset=utf-8"
        assert PAGE_TEXT in response.content.decode()


def assert_logged_once(caplog: pytest.LogCaptureFixture, path: str) -> None:
    [line] = records(caplog, "scorekeeper.requests")
    assert (line.path, line.status, line.user_id) == (path, 503, None)  # type: ignore[attr-defined]
    # One warning saying why, without a traceback; nothing else at WARNING or above.
    [warning] = [record for record in caplog.records if record.levelno >= logging.WARNING]
    assert (warning.name, warning.levelname) == ("scorekeeper.outage", "WARNING")
    assert warning.getMessage() == (
        f"database unreachable: {line.method} {path}: OperationalError: {REFUSED}"  # type: ignore[attr-defined]
    )
    assert warning.exc_info is None


@pytest.mark.parametrize("case", CASES, ids=str)
def test_every_request_answers_503_and_is_logged_once(
    case: Case,
    caplog: pytest.LogCaptureFixture,
    alice: User,
    bob: User,
    group: Group,
    players: dict[str, Player],
    session: Session,
) -> None:
    seat = seat_links.token_for(seat_links.make_links(session)[0])
    path = case.path.format(session=session.pk, seat=seat)
    client: Any
    if case.who == "signed in":
        client = signed_in(alice)
    elif case.who == "token":
        client = client_for(alice)
        client.raise_request_exception = False
    else:
        client = Client(raise_request_exception=False)
    caplog.set_level(logging.INFO)
    caplog.clear()

    with database_down():
        if case.method == "GET":
            response = client.get(path)
        elif case.kind == "api":
            response = client.post(path, case.data, content_type="application/json")
        else:
            response = client.post(path, case.data)

    assert_answered_503(response, case.kind)
    assert_logged_once(caplog, path)


def test_the_page_is_in_the_browsers_language_without_the_database(alice: User) -> None:
    client = signed_in(alice)

    with database_down():
        response = client.get("/groups/", HTTP_ACCEPT_LANGUAGE="vi")

    assert response.status_code == 503
    page = response.content.decode()
    assert '<html lang="vi">' in page
    assert "Scorekeeper hiện không truy cập được dữ liệu đã lưu" in page
    # Nothing of the signed-in user is shown: no one could be looked up.
    assert "alice" not in page
    assert 'href="/groups/"' in page  # try again: the page asked for


def test_a_form_sent_is_not_offered_as_a_link_to_send_again(alice: User) -> None:
    client = signed_in(alice)

    with database_down():
        response = client.post("/groups/new/", {"name": "Saturday club"})

    assert response.status_code == 503
    assert 'class="button"' not in response.content.decode()


def test_health_keeps_its_own_answer_with_retry_after(
    db: None, client: Client, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)

    with database_down():
        response = client.get("/healthz")

    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert response.json()["database"] == "error: OperationalError"
    # The failing check's own line, and not Django's "Service Unavailable" besides.
    [warning] = [record for record in caplog.records if record.levelno >= logging.WARNING]
    assert warning.name == "scorekeeper.health"


@override_settings(SESSION_SAVE_EVERY_REQUEST=True)
def test_a_failure_after_the_view_answers_503_too(
    alice: User, caplog: pytest.LogCaptureFixture
) -> None:
    # The database goes while the page is sent: saving the session on the way out fails,
    # outside any view and after the middlewares that read it.
    client = signed_in(alice)
    caplog.set_level(logging.INFO)
    lost = OperationalError("server closed the connection unexpectedly")

    with (
        mock.patch.object(SessionStore, "save", side_effect=lost),
        mock.patch.object(connections["default"], "close"),
    ):
        response = client.get("/groups/")
    with mock.patch.object(SessionStore, "save", side_effect=KeyError("x")):
        other = client.get("/groups/")

    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert PAGE_TEXT in response.content.decode()
    [line, _] = records(caplog, "scorekeeper.requests")
    assert line.status == 503  # type: ignore[attr-defined]
    [warning, *_] = [record for record in caplog.records if record.levelno >= logging.WARNING]
    assert (warning.name, warning.exc_info) == ("scorekeeper.outage", None)
    # Any other error there is still Django's 500.
    assert other.status_code == 500
    assert "Retry-After" not in other


def test_under_asgi_the_answer_is_the_same(alice: User, caplog: pytest.LogCaptureFixture) -> None:
    # Daphne (runserver, the live process) serves HTTP through Django's ASGI handler.
    client = AsyncClient()
    client.force_login(alice)
    caplog.set_level(logging.INFO)

    with database_down():
        page = async_to_sync(client.get)("/groups/")

    assert_answered_503(page, "page")
    assert_logged_once(caplog, "/groups/")


@given(
    prefix=st.sampled_from(["/", "/api/", "/api/v1/", "/admin/", "/apis/"]),
    rest=st.from_regex(r"[a-z0-9._/-]{0,30}", fullmatch=True),
    method=st.sampled_from(["GET", "POST", "PUT", "DELETE"]),
)
def test_the_answer_is_json_exactly_under_the_api(prefix: str, rest: str, method: str) -> None:
    request = RequestFactory().generic(method, prefix + rest)

    response = outage.answer(request, OperationalError(REFUSED))

    assert (response.status_code, response["Retry-After"]) == (503, "5")
    is_api = (prefix + rest).startswith("/api/")
    assert response["Content-Type"].startswith("application/json" if is_api else "text/html")
    assert not request.user.is_authenticated


def closed_port() -> int:
    """A local port nothing listens on (taken from the system, then let go)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="needs PostgreSQL: SQLite's in-memory test database is never reconnected",
)
@pytest.mark.django_db(transaction=True)
def test_a_real_postgresql_out_of_reach(caplog: pytest.LogCaptureFixture) -> None:
    alice = User.objects.create_user("alice", password=PASSWORD)
    browser = signed_in(alice)
    default: Any = connections["default"]  # PostgreSQL's, with close_pool()
    # Changed by replacing values, never inside them: the settings' own OPTIONS come back.
    kept = dict(default.settings_dict)
    caplog.set_level(logging.INFO)
    try:
        default.close()
        default.close_pool()
        default.settings_dict.update(HOST="127.0.0.1", PORT=str(closed_port()))
        # With a pool (as settings make it), a request waits this long for a connection.
        if "pool" in default.settings_dict["OPTIONS"]:
            default.settings_dict["OPTIONS"] = {
                **default.settings_dict["OPTIONS"],
                "pool": {"min_size": 1, "max_size": 2, "timeout": 1},
            }
        page = browser.get("/groups/")
        token = Client(raise_request_exception=False).post(
            f"{API}/auth/token/", {"username": "alice", "password": PASSWORD}
        )
    finally:
        default.close()
        default.close_pool()
        default.settings_dict.clear()
        default.settings_dict.update(kept)

    assert_answered_503(page, "page")
    assert_answered_503(token, "api")
    assert [line.status for line in records(caplog, "scorekeeper.requests")] == [503, 503]  # type: ignore[attr-defined]
    # The pool's own attempts to reconnect (psycopg.pool) are its lines, not the requests'.
    warnings = [
        record
        for record in caplog.records
        if record.levelno >= logging.WARNING and record.name != "psycopg.pool"
    ]
    assert [record.name for record in warnings] == ["scorekeeper.outage"] * 2
    assert all(record.exc_info is None for record in warnings)
    assert "OperationalError" in warnings[0].getMessage()
