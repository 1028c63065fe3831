"""games.lib.busy: behind a proxy that stamps X-Request-Start, a request that waited longer
than REQUEST_QUEUE_LIMIT for a web worker is turned away with 503 and Retry-After before
any work, in the API's error shape or as a short page in the reader's language."""

from __future__ import annotations

import json
import logging
import time

import pytest
from django.contrib.auth.models import User
from django.test import Client
from pytest_django.fixtures import Settings as SettingsWrapper

from games.lib.busy import arrived
from games.models import Group
from tests.api.conftest import API, client_for

GROUP = {"name": "Friday", "currency": "EUR", "unit_value": "0.5", "preset": "classic-1-6"}


def stamp(seconds_ago: float) -> str:
    return f"t={time.time() - seconds_ago:.3f}"


@pytest.fixture
def limit(settings: SettingsWrapper) -> int:
    settings.REQUEST_QUEUE_LIMIT = 5
    return 5


def test_a_request_queued_too_long_is_turned_away_and_nothing_is_done(
    limit: int, db: None, caplog: pytest.LogCaptureFixture
) -> None:
    alice = User.objects.create_user("alice")
    caplog.set_level(logging.INFO)

    response = client_for(alice).post(
        f"{API}/groups/", GROUP, format="json", HTTP_X_REQUEST_START=stamp(limit + 3)
    )

    assert response.status_code == 503
    assert response["Retry-After"] == "2"
    assert response["Cache-Control"] == "no-store"
    assert json.loads(response.content) == {
        "error": "The server is busy; try again in a moment. Nothing was lost.",
        "field": None,
    }
    assert not Group.objects.exists()
    [warning] = [r for r in caplog.records if r.name == "scorekeeper.busy"]
    assert "queue" in warning.getMessage() and f"{API}/groups/" in warning.getMessage()
    # The request log still writes the request's one line, with its status.
    assert [r.status for r in caplog.records if r.name == "scorekeeper.requests"] == [503]  # type: ignore[attr-defined]


def test_a_request_within_the_limit_is_served(limit: int, db: None) -> None:
    alice = User.objects.create_user("alice")

    response = client_for(alice).post(
        f"{API}/groups/", GROUP, format="json", HTTP_X_REQUEST_START=stamp(limit - 4)
    )

    assert response.status_code == 201
    assert Group.objects.count() == 1


def test_without_a_limit_or_a_stamp_nothing_is_turned_away(
    settings: SettingsWrapper, db: None
) -> None:
    settings.REQUEST_QUEUE_LIMIT = 0
    assert Client().get("/", HTTP_X_REQUEST_START=stamp(3600)).status_code == 200
    settings.REQUEST_QUEUE_LIMIT = 5
    assert Client().get("/").status_code == 200
    assert Client().get("/", HTTP_X_REQUEST_START="t=garbage").status_code == 200


def test_a_page_is_turned_away_in_the_readers_language(limit: int, db: None) -> None:
    client = Client()
    client.cookies["django_language"] = "vi"

    response = client.get("/", HTTP_X_REQUEST_START=stamp(60))

    assert response.status_code == 503
    assert response["Content-Type"] == "text/html; charset=utf-8"
    page = response.content.decode()
    assert '<html lang="vi">' in page
    assert "Máy chủ đang bận" in page


@pytest.mark.parametrize(
    ("value", "seconds"),
    [
        ("t=1765000000.250", 1765000000.25),  # nginx ${msec}
        ("1765000000250", 1765000000.25),  # milliseconds
        ("t=1765000000250000", 1765000000.25),  # microseconds (Apache's %t)
        ("t=", None),
        ("t=nan", None),
        ("t=-5", None),
        ("soon", None),
    ],
)
def test_the_stamp_is_read_in_each_unit(value: str, seconds: float | None) -> None:
    assert arrived(value) == seconds
