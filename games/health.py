"""``/healthz``: can this process reach its database and its broker?

Answers ``{"database": "ok", "broker": "ok"}`` with 200 when every check passes, 503 with
the failing check's error otherwise (``"error: OperationalError"``; the full message goes
to the log, not to whoever probes). Without a broker, tasks run inline: ``"eager"``
counts as passing. No login, no host check, no HTTPS redirect: the middleware answers
before any of them, so a load balancer or Docker can probe by any address. Each check
gives up after about a second.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.conf import settings
from django.db import InterfaceError, OperationalError, connections
from django.http import HttpRequest, HttpResponse, JsonResponse
from kombu import Connection

log = logging.getLogger("scorekeeper.health")

PATHS = frozenset({"/healthz", "/healthz/"})
OK = "ok"
TIMEOUT_SECONDS = 1


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


def broker_status() -> str:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return "eager"
    try:
        with Connection(
            str(settings.CELERY_BROKER_URL),
            connect_timeout=TIMEOUT_SECONDS,
            transport_options={"socket_timeout": TIMEOUT_SECONDS},
        ) as broker:
            broker.ensure_connection(max_retries=1, interval_start=0, timeout=TIMEOUT_SECONDS)
    except Exception as exc:
        return failure("broker", exc)
    return OK


def failure(check: str, exc: Exception) -> str:
    log.warning("health check %s failed: %s", check, exc, extra={"check": check})
    return f"error: {type(exc).__name__}"


# Name -> check; a check answers OK, "eager" or "error: ...". More (a Celery worker's
# ping, once documents render in the background) are added here.
CHECKS: dict[str, Callable[[], str]] = {"database": database_status, "broker": broker_status}
PASSING = frozenset({OK, "eager"})


def healthz(request: HttpRequest) -> JsonResponse:
    report = {name: check() for name, check in CHECKS.items()}
    healthy = all(value in PASSING for value in report.values())
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
            {"error": "The database is not answering; try again in a few seconds.", "field": None},
            status=503,
        )
        response["Retry-After"] = "5"
        return response
