"""Work that can wait until the response has gone out.

Sending a task to the broker takes a millisecond or two that the person at the table
should not wait for: inside a request, ``after_response(work)`` keeps ``work`` until
Django's ``request_finished`` signal, which the WSGI server sends once it has written the
response (when it closes it). Outside a request (a management command, a Celery task, a
shell) the work runs at once.

A failure is logged, never raised: by then the response has been sent.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from contextvars import ContextVar
from typing import Any

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
    leftover = _pending.get()
    _pending.set([])
    if leftover:
        _run(leftover)


def request_finished(**kwargs: Any) -> None:
    pending = _pending.get()
    _pending.set(None)
    if pending:
        _run(pending)


def _run(works: list[Work]) -> None:
    for work in works:
        try:
            work()
        except Exception:
            log.exception("work after the response failed")
