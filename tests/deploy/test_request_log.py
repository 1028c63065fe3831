"""One structured log line per request: method, path, status, duration, user, request id."""

import json
import logging

import pytest
from django.contrib.auth.models import User
from django.db import OperationalError
from django.http import HttpResponse
from django.test import Client, RequestFactory
from django.utils.functional import SimpleLazyObject

from scorekeeper.logging import JsonFormatter, RequestLogMiddleware
from tests.api.conftest import API, client_for

LOGGER = "scorekeeper.requests"


def request_records(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [record for record in caplog.records if record.name == LOGGER]


def test_an_authenticated_request_is_logged_once_with_its_user(
    caplog: pytest.LogCaptureFixture, db: None
) -> None:
    alice = User.objects.create_user("alice")
    caplog.set_level(logging.INFO, logger=LOGGER)

    response = client_for(alice).get(f"{API}/groups/?page=1")

    [record] = request_records(caplog)
    assert (record.method, record.path, record.status) == ("GET", f"{API}/groups/", 200)  # type: ignore[attr-defined]
    assert record.user_id == alice.pk  # type: ignore[attr-defined]
    assert isinstance(record.duration_ms, float) and record.duration_ms >= 0  # type: ignore[attr-defined]
    assert record.request_id == response["X-Request-ID"]  # type: ignore[attr-defined]
    assert len(record.request_id) == 32  # type: ignore[attr-defined]


def test_an_anonymous_failure_is_logged_and_a_sent_request_id_kept(
    caplog: pytest.LogCaptureFixture, db: None
) -> None:
    caplog.set_level(logging.INFO, logger=LOGGER)

    response = Client().get(f"{API}/groups/", HTTP_X_REQUEST_ID="proxy-7f3a:1")

    [record] = request_records(caplog)
    assert (record.status, record.user_id) == (401, None)  # type: ignore[attr-defined]
    assert record.request_id == response["X-Request-ID"] == "proxy-7f3a:1"  # type: ignore[attr-defined]


def test_a_request_id_that_is_not_one_is_replaced(
    caplog: pytest.LogCaptureFixture, db: None
) -> None:
    caplog.set_level(logging.INFO, logger=LOGGER)

    response = Client().get(f"{API}/presets/", HTTP_X_REQUEST_ID='"><script>')

    assert response["X-Request-ID"] != '"><script>'
    assert request_records(caplog)[0].request_id == response["X-Request-ID"]  # type: ignore[attr-defined]


def test_the_formatter_writes_one_json_object_per_line() -> None:
    record = logging.LogRecord(LOGGER, logging.INFO, __file__, 1, "GET %s", ("/x",), None)
    record.status = 200
    record.user_id = None

    line = JsonFormatter().format(record)

    assert "\n" not in line
    entry = json.loads(line)
    assert entry["message"] == "GET /x"
    assert (entry["level"], entry["logger"], entry["status"], entry["user_id"]) == (
        "INFO",
        LOGGER,
        200,
        None,
    )
    assert entry["time"].endswith("+00:00")


def test_a_user_the_database_cannot_name_still_gets_its_line(
    caplog: pytest.LogCaptureFixture,
) -> None:
    # The user is looked up only when the line is written; the database may be gone by
    # then (Django's debug page answered an error that escaped every handler).
    def lost() -> User:
        raise OperationalError("server closed the connection unexpectedly")

    request = RequestFactory().get("/groups/")
    request.user = SimpleLazyObject(lost)  # type: ignore[assignment]
    caplog.set_level(logging.INFO, logger=LOGGER)

    response = RequestLogMiddleware(lambda _: HttpResponse(status=500))(request)

    [record] = request_records(caplog)
    assert (record.status, record.user_id) == (500, None)  # type: ignore[attr-defined]
    assert record.request_id == response["X-Request-ID"]  # type: ignore[attr-defined]
