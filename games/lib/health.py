"""``/healthz``: can this process reach its database, its broker and its channel layer, is a
worker up, and where do its rate limits count?

Answers ``{"database": "ok", "broker": "ok", "channel_layer": "ok", "worker": "ok",
"rate_limits": "shared"}`` with 200 when the database, broker and channel-layer checks
pass, 503 (with ``Retry-After``) with the failing check's error otherwise (``"error:
OperationalError"``; the full message goes to the log, not to whoever probes). Without a
broker, tasks run inline: ``"eager"`` counts as passing; without Redis for the live
updates, the channel layer is this process's memory (``"memory"``, passing: ``make run``'s
one process needs no more). A Redis channel layer that does not carry a message is a
failure: Daphne could not hear the deals gunicorn records.

The checks are django-health-check's: its ``Database`` (``SELECT 1``) and its Celery
``Ping``, and two of ours written as its check classes (the broker connection, the channel
layer round trip). They run at once, as its view runs them; the answer is ours, because the
docs, Docker's health check and the scripts read these four names and ``"eager"`` and
``"memory"``, which the library has no word for (it only passes or fails a check it ran).

No login, no host check, no HTTPS redirect: the middleware answers before any of them, so
a load balancer or Docker can probe by any address. Each check gives up after about a second.

``worker`` (a Celery control ping) is reported but never makes the answer 503: without a
worker, deals are still recorded and only PDFs wait, and a web container marked unhealthy
(or restarted) for it would stop the scoring too. Watch that field separately.

``rate_limits`` never makes the answer 503 either: ``"shared"``, every web process counts in
Redis; ``"fallback"``, Redis does not answer and this process counts alone
(``games.lib.limits_cache``): the limits hold per process, weaker but not off, and taking
the web out of rotation for it would stop the scoring; ``"local"``, no Redis is configured
(development), one process's memory.
"""

from __future__ import annotations

import asyncio
import dataclasses
import datetime
import logging
import secrets
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from asgiref.sync import async_to_sync, sync_to_async
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from health_check import checks
from health_check.base import HealthCheck, HealthCheckResult
from health_check.contrib import celery
from health_check.exceptions import HealthCheckException, ServiceUnavailable
from kombu import Connection

from games.lib import outage
from games.lib.limits_cache import where_limits_count
from scorekeeper.celery import app

log = logging.getLogger("scorekeeper.health")

PATHS = frozenset({"/healthz", "/healthz/"})
OK = "ok"
TIMEOUT_SECONDS = 1
# A worker that is up answers a ping in milliseconds; this is how long a probe waits when
# none is.
PING_SECONDS = 0.5
NO_WORKER = "no worker answered"


@contextmanager
def named_failure() -> Iterator[None]:
    """Any error becomes the library's ServiceUnavailable, caused by it: the answer names its
    class, the log has its message. (The library answers "unknown error" to any error but its
    own, and /healthz has always named the class.)"""
    try:
        yield
    except HealthCheckException:
        raise
    except Exception as exc:
        raise ServiceUnavailable(type(exc).__name__) from exc


@dataclasses.dataclass
class Database(checks.Database):
    """The library's ``SELECT 1``, run in the request's own thread: the connection Django
    keeps for that thread between requests is the one that has to work."""

    async def run(self) -> None:
        await sync_to_async(self.select_one, thread_sensitive=True)()

    def select_one(self) -> None:
        with named_failure():
            super().run()


# How long Kombu's Redis transport blocks on one read of the ping's answers (BRPOP; its
# default is a second). Closing the connection waits for the read under way to end: with
# the default, a probe that found no worker waited 0.5 s more to close it (1.1 s in all).
POLL_SECONDS = 0.1


def broker_connection() -> Connection:
    """A connection to the broker that gives up after about a second."""
    return Connection(
        str(settings.CELERY_BROKER_URL),
        connect_timeout=TIMEOUT_SECONDS,
        transport_options={"socket_timeout": TIMEOUT_SECONDS, "polling_interval": POLL_SECONDS},
    )


@dataclasses.dataclass
class Broker(HealthCheck):
    """A connection to CELERY_BROKER_URL (Redis or any other broker Kombu speaks; the
    library's Redis check would cover Redis only)."""

    timeout = datetime.timedelta(seconds=TIMEOUT_SECONDS)

    def run(self) -> None:
        with named_failure(), broker_connection() as broker:
            broker.ensure_connection(max_retries=1, interval_start=0, timeout=TIMEOUT_SECONDS)


@dataclasses.dataclass
class Worker(celery.Ping):
    """The library's ping, through the broker the settings name now, answered by the first
    worker that hears it.

    Any worker on the broker's database answers, whichever queue it takes tasks from: the
    library's further check that every queue has a worker (a second broadcast, a second
    wait) is left out, as /healthz never made it.
    """

    app: Any = dataclasses.field(default=app, repr=False)
    timeout: datetime.timedelta = dataclasses.field(
        default=datetime.timedelta(seconds=PING_SECONDS), repr=False
    )
    limit: int | None = dataclasses.field(default=1, repr=False)

    def run(self) -> None:
        with named_failure(), broker_connection() as broker:
            broker.ensure_connection(max_retries=1, interval_start=0, timeout=TIMEOUT_SECONDS)
            replies = self.app.control.ping(
                timeout=self.timeout.total_seconds(), limit=self.limit, connection=broker
            )
        if not replies:
            raise ServiceUnavailable(NO_WORKER)
        list(self.active_workers(replies))  # raises unless every reply is a pong


@dataclasses.dataclass
class ChannelLayer(HealthCheck):
    """A message sent to a fresh channel of the layer and received back from it."""

    layer: Any = dataclasses.field(repr=False)
    timeout = datetime.timedelta(seconds=TIMEOUT_SECONDS)

    async def run(self) -> None:
        with named_failure():
            async with asyncio.timeout(TIMEOUT_SECONDS):
                channel = await self.layer.new_channel("healthz.")
                probe = {"type": "healthz.probe", "nonce": secrets.token_hex(8)}
                await self.layer.send(channel, probe)
                answer = await self.layer.receive(channel)
            if answer != probe:
                raise ValueError("the channel layer answered another message")


@dataclasses.dataclass
class RateLimits(HealthCheck):
    """Where the rate limits count now (``games.lib.limits_cache``): never a failure, the
    answer is the word it finds."""

    answer: str = dataclasses.field(default="", init=False, repr=False)
    timeout = datetime.timedelta(seconds=TIMEOUT_SECONDS)

    def run(self) -> None:
        self.answer = where_limits_count()


def registry() -> dict[str, HealthCheck | str]:
    """Name -> the check to run now, or the answer known without one (``"eager"``, no broker
    configured; ``"memory"``, the in-process channel layer; no layer at all is an error)."""
    eager = settings.CELERY_TASK_ALWAYS_EAGER
    layer = get_channel_layer()
    channel_layer: HealthCheck | str
    if layer is None:
        channel_layer = "error: no channel layer"
    elif isinstance(layer, InMemoryChannelLayer):
        channel_layer = "memory"
    else:
        channel_layer = ChannelLayer(layer)
    return {
        "database": Database(),
        "broker": "eager" if eager else Broker(),
        "channel_layer": channel_layer,
        "worker": "eager" if eager else Worker(),
        "rate_limits": RateLimits(),
    }


# The checks whose failure makes the answer 503; the others are only shown (see the
# module's docstring for why the worker and the rate limits are).
DECIDING = ("database", "broker", "channel_layer")
PASSING = frozenset({OK, "eager", "memory"})


def status(name: str, result: HealthCheckResult) -> str:
    """``"ok"``, or ``"error: "`` and the class of what failed (the library's own message
    when nothing caused it: no worker, or its timeout). The whole message is logged."""
    if result.error is None:
        return OK
    cause = result.error.__cause__ or result.error.__context__
    log.warning("health check %s failed: %s", name, cause or result.error.message)
    return f"error: {type(cause).__name__ if cause else result.error.message}"


async def run_checks(to_run: dict[str, HealthCheck]) -> dict[str, str]:
    """Every check at once, as the library's view runs them."""
    results = await asyncio.gather(*(check.get_result() for check in to_run.values()))
    return {name: status(name, result) for name, result in zip(to_run, results, strict=True)}


def answer(check: HealthCheck | str, status: str | None) -> str:
    """What the report says of one check: the answer known without running it, the word a
    check that never fails found, or ``status``."""
    if isinstance(check, str):
        return check
    if isinstance(check, RateLimits) and status == OK:
        return check.answer
    return str(status)


def healthz(request: HttpRequest) -> JsonResponse:
    checks_now = registry()
    to_run = {name: check for name, check in checks_now.items() if isinstance(check, HealthCheck)}
    statuses = async_to_sync(run_checks)(to_run)
    report = {name: answer(check, statuses.get(name)) for name, check in checks_now.items()}
    healthy = all(report[name] in PASSING for name in DECIDING)
    response = JsonResponse(report, status=200 if healthy else 503)
    response["Cache-Control"] = "no-store"
    if healthy:
        return response
    # As every other answer while a service is down; each failing check has logged its own
    # line (status), so Django's "Service Unavailable" line would say nothing more.
    response["Retry-After"] = str(outage.RETRY_AFTER_SECONDS)
    return outage.logged_already(response)


class HealthCheckMiddleware:
    """Answers GET/HEAD ``/healthz`` itself; everything else passes on."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path in PATHS and request.method in ("GET", "HEAD"):
            return healthz(request)
        return self.get_response(request)
