"""``/healthz``: can this process reach its database, its broker and its channel layer, and
is a worker up?

Answers ``{"database": "ok", "broker": "ok", "channel_layer": "ok", "worker": "ok"}`` with
200 when the database, broker and channel-layer checks pass, 503 with the failing check's
error otherwise (``"error: OperationalError"``; the full message goes to the log, not to
whoever probes). Without a broker, tasks run inline: ``"eager"`` counts as passing; without
Redis for the live updates, the channel layer is this process's memory (``"memory"``,
passing: ``make run``'s one process needs no more). A Redis channel layer that does not
carry a message is a failure: Daphne could not hear the deals gunicorn records.

No login, no host check, no HTTPS redirect: the middleware answers before any of them, so
a load balancer or Docker can probe by any address. Each check gives up after about a second.

``worker`` (a Celery control ping) is reported but never makes the answer 503: without a
worker, deals are still recorded and only PDFs wait, and a web container marked unhealthy
(or restarted) for it would stop the scoring too. Watch that field separately.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Callable
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.conf import settings
from django.db import InterfaceError, OperationalError, connections
from django.http import HttpRequest, HttpResponse, JsonResponse
from kombu import Connection

from games.errors import error_body
from scorekeeper.celery import app

log = logging.getLogger("scorekeeper.health")

PATHS = frozenset({"/healthz", "/healthz/"})
OK = "ok"
TIMEOUT_SECONDS = 1
# A worker that is up answers a ping in milliseconds; this is how long a probe waits when
# none is.
PING_SECONDS = 0.5
NO_WORKER = "error: no worker answered"


def database_status() -> str:
    connection = connections["default"]
    try:
        # A connection left broken by a restart was dropped when the request began
        # (CONN_HEALTH_CHECKS); a failure here closes it so the next probe reconnects.
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:
        connection.close()
        return failure("database", exc)
    return OK


def broker_connection() -> Connection:
    """A connection to the broker that gives up after about a second."""
    return Connection(
        str(settings.CELERY_BROKER_URL),
        connect_timeout=TIMEOUT_SECONDS,
        transport_options={"socket_timeout": TIMEOUT_SECONDS},
    )


def broker_status() -> str:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return "eager"
    try:
        with broker_connection() as broker:
            broker.ensure_connection(max_retries=1, interval_start=0, timeout=TIMEOUT_SECONDS)
    except Exception as exc:
        return failure("broker", exc)
    return OK


def worker_status() -> str:
    """Whether a Celery worker answers a ping; the first answer is enough.

    Any worker on the broker's database answers, whichever queue it takes tasks from.
    """
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return "eager"
    try:
        with broker_connection() as broker:
            broker.ensure_connection(max_retries=1, interval_start=0, timeout=TIMEOUT_SECONDS)
            replies = app.control.ping(timeout=PING_SECONDS, limit=1, connection=broker)
    except Exception as exc:
        return failure("worker", exc)
    if not replies:
        log.warning("health check worker failed: no answer", extra={"check": "worker"})
        return NO_WORKER
    return OK


def channel_layer_status() -> str:
    """A message sent to a fresh channel and received back from it."""
    layer = get_channel_layer()
    if layer is None:
        return "error: no channel layer"
    if isinstance(layer, InMemoryChannelLayer):
        return "memory"
    try:
        async_to_sync(_round_trip)(layer)
    except Exception as exc:
        return failure("channel_layer", exc)
    return OK


async def _round_trip(layer: Any) -> None:
    async with asyncio.timeout(TIMEOUT_SECONDS):
        channel = await layer.new_channel("healthz.")
        probe = {"type": "healthz.probe", "nonce": secrets.token_hex(8)}
        await layer.send(channel, probe)
        answer = await layer.receive(channel)
    if answer != probe:
        raise ValueError("the channel layer answered another message")


def failure(check: str, exc: Exception) -> str:
    log.warning("health check %s failed: %s", check, exc, extra={"check": check})
    return f"error: {type(exc).__name__}"


# Name -> check; a check answers OK, "eager" or "error: ...". CHECKS decide the status;
# REPORTED ones are only shown (see the module's docstring for why the worker is).
CHECKS: dict[str, Callable[[], str]] = {
    "database": database_status,
    "broker": broker_status,
    "channel_layer": channel_layer_status,
}
REPORTED: dict[str, Callable[[], str]] = {"worker": worker_status}
PASSING = frozenset({OK, "eager", "memory"})


def healthz(request: HttpRequest) -> JsonResponse:
    report = {name: check() for name, check in CHECKS.items()}
    healthy = all(value in PASSING for value in report.values())
    report |= {name: check() for name, check in REPORTED.items()}
    response = JsonResponse(report, status=200 if healthy else 503)
    response["Cache-Control"] = "no-store"
    return response


class HealthCheckMiddleware:
    """Answers GET/HEAD ``/healthz`` itself; everything else passes on."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path in PATHS and request.method in ("GET", "HEAD"):
            return healthz(request)
        return self.get_response(request)


class DatabaseUnavailableMiddleware:
    """A request that fails because the database does not answer (restarting, unreachable)
    gets ``503`` with ``Retry-After`` and the API's error shape instead of a bare 500, so a
    client knows to send it again (with the same Idempotency-Key for a deal)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, (OperationalError, InterfaceError)):
            return None
        log.error(
            "database unavailable: %s", exception, extra={"path": request.path}, exc_info=exception
        )
        connections["default"].close()
        response = JsonResponse(
            error_body("The database is not answering; try again in a few seconds."),
            status=503,
        )
        response["Retry-After"] = "5"
        return response
