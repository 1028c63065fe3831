"""Work that can wait until the response has gone out.

Sending a task to the broker takes a millisecond or two that the person at the table
should not wait for: inside a request, ``after_response(work)`` keeps ``work`` until
Django's ``request_finished`` signal, which the WSGI server sends once it has written the
response (when it closes it). Outside a request (a management command, a Celery task, a
shell) the work runs at once.

Under ASGI (Daphne) that is not enough: Django sends ``request_started`` from a task of
its own (``Signal.asend`` gathers the receivers), so the list it sets is lost when that
task ends, and the view would find no request and run the work before the answer is out.
``asgi(app)`` wraps the HTTP application instead: the list is set in the context every
task and thread of the request copies, and the work starts as soon as the last byte of
the response has been handed to the server, in a thread of its own; whatever is left when
the request ends (a client that went away) starts then. Not in ``request_finished`` (sent
when Django closes the response) nor in a sync thread the request must wait for (the
process's one shared thread, where the leftovers used to run): under load that wait
outlasts Daphne's ``application_close_timeout``, after which Daphne cancels the request,
and its work with it (benchmarks/live_table.py: a table's phones never told their result).

A failure is logged, never raised: by then the response has been sent.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping
from contextvars import ContextVar
from typing import Any

from asgiref.sync import sync_to_async
from django.db import connections

log = logging.getLogger(__name__)

Work = Callable[[], None]

# The work kept by the request being handled on this thread; None outside a request.
_pending: ContextVar[list[Work] | None] = ContextVar("after_response", default=None)


def after_response(work: Work) -> None:
    """Run ``work`` once the current response has been sent, or now outside a request."""
    pending = _pending.get()
    if pending is None:
        _run([work])
    else:
        pending.append(work)


def request_started(**kwargs: Any) -> None:
    # Work left by a response that was never closed is not dropped: it runs first.
    leftover = _drain()
    _pending.set([])
    if leftover:
        _run(leftover)


def request_finished(**kwargs: Any) -> None:
    pending = _drain()
    _pending.set(None)
    if pending:
        _run(pending)


def _drain() -> list[Work]:
    """The work kept so far, taken out of the list (which an ASGI request shares between
    its threads, so each piece runs once)."""
    pending = _pending.get()
    if not pending:
        return []
    works = list(pending)
    pending.clear()
    return works


Scope = dict[str, Any]
Receive = Callable[[], Awaitable[Mapping[str, Any]]]
Send = Callable[[Mapping[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def asgi(app: ASGIApp) -> ASGIApp:
    """``app`` (Django's ASGI HTTP application) keeping each request's work until its
    response is sent (see the module's docstring)."""

    async def application(scope: Scope, receive: Receive, send: Send) -> None:
        works: list[Work] = []
        running: list[asyncio.Future[None]] = []

        def start() -> None:
            # Not in a sync thread shared with other requests: behind their queue the
            # work would wait past Daphne's application_close_timeout and be cancelled
            # with the request.
            if works:
                batch = list(works)
                works.clear()
                running.append(
                    asyncio.ensure_future(sync_to_async(_run_apart, thread_sensitive=False)(batch))
                )

        async def sending(message: Mapping[str, Any]) -> None:
            await send(message)
            if message.get("type") == "http.response.body" and not message.get("more_body"):
                start()  # the answer is out

        token = _pending.set(works)
        try:
            await app(scope, receive, sending)
        finally:
            _pending.reset(token)
            start()  # whatever is left (a client that went away)
            for future in running:
                await asyncio.shield(future)  # runs to its end even if this is cancelled

    return application


def _run_apart(works: list[Work]) -> None:
    """``_run`` in a thread of its own, whose database connections are closed after."""
    try:
        _run(works)
    finally:
        connections.close_all()


def _run(works: list[Work]) -> None:
    for work in works:
        try:
            work()
        except Exception:
            log.exception("work after the response failed")
