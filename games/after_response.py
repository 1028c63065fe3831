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
task and thread of the request copies, ``request_finished`` (sent when Django closes the
response, after the last byte) drains it, and whatever is left when the request ends
(a client that went away) runs then.

A failure is logged, never raised: by then the response has been sent.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping
from contextvars import ContextVar
from typing import Any

from asgiref.sync import sync_to_async

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
        token = _pending.set(works)
        try:
            await app(scope, receive, send)
        finally:
            _pending.reset(token)
            if works:
                await sync_to_async(_run)(list(works))
                works.clear()

    return application


def _run(works: list[Work]) -> None:
    for work in works:
        try:
            work()
        except Exception:
            log.exception("work after the response failed")
