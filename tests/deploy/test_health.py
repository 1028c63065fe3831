"""/healthz: 200 when the database, the broker and the channel layer answer, 503 naming
what does not; the worker and where the rate limits count are reported, never 503
(the rate limits' words: tests/deploy/test_limits_without_redis.py)."""

import asyncio
import logging
import time
from typing import Any
from unittest import mock

import pytest
from django.db import OperationalError, connections
from django.test import Client, override_settings

from games.lib import health
from scripts.prodkit import redis_answers
from tests.conftest import skip_or_fail

# Nothing listens on port 9 (discard) of this machine.
DEAD_BROKER = "redis://127.0.0.1:9/0"
# The Redis database of this checkout's fault tests: no worker listens on it.
NO_WORKER_DATABASE = 7
PONG = [{"celery@table": {"ok": "pong"}}]


@pytest.fixture
def client(db: None) -> Client:
    return Client()


def test_healthy_without_a_broker_tasks_run_eagerly(client: Client) -> None:
    response = client.get("/healthz")

    assert response.status_code == 200
    assert response.json() == {
        "database": "ok",
        "broker": "eager",
        "channel_layer": "memory",
        "worker": "eager",
        "rate_limits": "local",
    }
    assert response["Cache-Control"] == "no-store"


def test_an_unreachable_broker_answers_503(client: Client) -> None:
    with override_settings(CELERY_TASK_ALWAYS_EAGER=False, CELERY_BROKER_URL=DEAD_BROKER):
        response = client.get("/healthz")

    assert response.status_code == 503
    assert response.json() == {
        "database": "ok",
        "broker": "error: OperationalError",
        "channel_layer": "memory",
        "worker": "error: OperationalError",
        "rate_limits": "local",
    }


def test_each_failure_is_logged_once_with_its_message(
    client: Client, caplog: pytest.LogCaptureFixture
) -> None:
    # One line per failing check on scorekeeper.health; the library's own warning (with a
    # traceback, every probe) is left out by settings.LOGGING.
    caplog.set_level(logging.WARNING)
    with override_settings(CELERY_TASK_ALWAYS_EAGER=False, CELERY_BROKER_URL=DEAD_BROKER):
        client.get("/healthz")

    lines = sorted(
        (record.name, record.getMessage())
        for record in caplog.records
        if record.name.startswith(("health_check", "scorekeeper.health"))
    )
    assert [name for name, _ in lines] == ["scorekeeper.health", "scorekeeper.health"]
    assert lines[0][1].startswith("health check broker failed: ")
    assert lines[1][1].startswith("health check worker failed: ")
    assert "127.0.0.1:9" in lines[0][1]  # the message the probe is not shown


def redis_layer(url: str) -> dict[str, Any]:
    return {
        "default": {"BACKEND": "channels_redis.core.RedisChannelLayer", "CONFIG": {"hosts": [url]}}
    }


def test_a_redis_channel_layer_that_carries_a_message_is_ok(client: Client) -> None:
    url = "redis://127.0.0.1:6379/6"
    if not redis_answers(url):
        skip_or_fail(f"no Redis at {url}")
    with override_settings(CHANNEL_LAYERS=redis_layer(url)):
        response = client.get("/healthz")

    assert response.status_code == 200
    assert response.json()["channel_layer"] == "ok"


def test_an_unreachable_channel_layer_answers_503(client: Client) -> None:
    # Daphne would hold the sockets but never hear a deal recorded by gunicorn.
    with override_settings(CHANNEL_LAYERS=redis_layer(DEAD_BROKER)):
        response = client.get("/healthz")

    assert response.status_code == 503
    assert response.json()["channel_layer"] == "error: ConnectionError"


def test_a_silent_channel_layer_gives_up_after_the_timeout(client: Client) -> None:
    # A layer that takes the message but never hands it back (a Redis that hangs).
    class Silent:
        async def new_channel(self, prefix: str) -> str:
            return f"{prefix}1"

        async def send(self, channel: str, message: dict[str, Any]) -> None:
            return None

        async def receive(self, channel: str) -> dict[str, Any]:
            await asyncio.sleep(60)
            raise AssertionError("never reached")

    started = time.monotonic()
    with mock.patch.object(health, "get_channel_layer", return_value=Silent()):
        response = client.get("/healthz")

    assert response.status_code == 503
    assert response.json()["channel_layer"] == "error: TimeoutError"
    assert time.monotonic() - started < health.TIMEOUT_SECONDS + 1


def test_a_reachable_broker_and_a_worker_are_ok(client: Client, broker_url: str) -> None:
    with (
        override_settings(CELERY_TASK_ALWAYS_EAGER=False, CELERY_BROKER_URL=broker_url),
        mock.patch.object(health.app.control, "ping", return_value=PONG) as ping,
    ):
        response = client.get("/healthz")

    assert response.status_code == 200
    assert response.json() == {
        "database": "ok",
        "broker": "ok",
        "channel_layer": "memory",
        "worker": "ok",
        "rate_limits": "local",
    }
    assert ping.call_args.kwargs["limit"] == 1  # the first answer is enough
    assert ping.call_args.kwargs["timeout"] == health.PING_SECONDS


def test_no_worker_is_reported_but_stays_200(client: Client, broker_url: str) -> None:
    # Deals are still recorded without a worker: the web must stay healthy.
    quiet = f"{broker_url.rsplit('/', 1)[0]}/{NO_WORKER_DATABASE}"
    with override_settings(CELERY_TASK_ALWAYS_EAGER=False, CELERY_BROKER_URL=quiet):
        response = client.get("/healthz")

    assert response.status_code == 200
    assert response.json() == {
        "database": "ok",
        "broker": "ok",
        "channel_layer": "memory",
        "worker": "error: no worker answered",
        "rate_limits": "local",
    }


def test_a_reply_that_is_no_pong_is_reported_but_stays_200(client: Client, broker_url: str) -> None:
    # django-health-check's ping accepts only {"ok": "pong"} from each worker that answers.
    with (
        override_settings(CELERY_TASK_ALWAYS_EAGER=False, CELERY_BROKER_URL=broker_url),
        mock.patch.object(health.app.control, "ping", return_value=[{"celery@t": {"x": 1}}]),
    ):
        response = client.get("/healthz")

    assert response.status_code == 200
    assert response.json()["worker"] == "error: Celery worker celery@t response was incorrect"


def test_a_failing_ping_is_reported_but_stays_200(client: Client, broker_url: str) -> None:
    with (
        override_settings(CELERY_TASK_ALWAYS_EAGER=False, CELERY_BROKER_URL=broker_url),
        mock.patch.object(health.app.control, "ping", side_effect=TimeoutError("slow")),
    ):
        response = client.get("/healthz")

    assert response.status_code == 200
    assert response.json()["worker"] == "error: TimeoutError"


class BrokenCursor:
    def __enter__(self) -> Any:
        raise ConnectionError("the server closed the connection unexpectedly")

    def __exit__(self, *exc: object) -> None:
        return None


def test_an_unreachable_database_answers_503_without_its_message(client: Client) -> None:
    connection = connections["default"]
    # The check closes a failed connection; the test's own transaction must stay open.
    with (
        mock.patch.object(connection, "cursor", BrokenCursor),
        mock.patch.object(connection, "close"),
    ):
        response = client.get("/healthz")

    assert response.status_code == 503
    assert response.json() == {
        "database": "error: ConnectionError",
        "broker": "eager",
        "channel_layer": "memory",
        "worker": "eager",
        "rate_limits": "local",
    }
    assert b"closed the connection" not in response.content


@override_settings(ALLOWED_HOSTS=["scores.example.org"], SECURE_SSL_REDIRECT=True)
def test_probed_over_plain_http_by_any_address(client: Client) -> None:
    # Docker and load balancers call http://<container address>/healthz.
    probe = client.get("/healthz", HTTP_HOST="10.0.0.7:8000")
    page = client.get("/api/v1/presets/", HTTP_HOST="scores.example.org")

    assert probe.status_code == 200
    assert page.status_code == 301
    assert page["Location"].startswith("https://scores.example.org/")


def test_only_get_and_head(client: Client) -> None:
    assert client.head("/healthz").status_code == 200
    assert client.post("/healthz").status_code == 404


def test_a_database_outage_answers_503_with_retry_after(db: None, as_alice: Any) -> None:
    # The deal list's query fails as it would while PostgreSQL restarts.
    lost = OperationalError("server closed the connection unexpectedly")
    with (
        mock.patch("games.api.groups.GroupViewSet.get_queryset", side_effect=lost),
        mock.patch.object(connections["default"], "close"),
    ):
        response = as_alice.get("/api/v1/groups/")

    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert response.json() == {
        "error": "The database is not answering; try again in a few seconds.",
        "field": None,
    }


def test_other_errors_stay_errors(db: None, as_alice: Any) -> None:
    with (
        mock.patch("games.api.groups.GroupViewSet.get_queryset", side_effect=KeyError("x")),
        pytest.raises(KeyError),
    ):
        as_alice.get("/api/v1/groups/")
