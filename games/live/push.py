"""Telling the phones that follow a session that something changed.

Every page that follows a session live (the scoreboard, a seat's entry) holds a WebSocket
(``games.live.consumers``) in the group ``session_group(session_id)``. A write that changes what
those pages show calls ``announce`` inside its transaction; once the transaction commits
and the response has gone out (``games.lib.after_response``), one message goes to the group.

A change of the deal in progress (``"live"``) carries the deal's public state, read right
after the commit (``games.live.state.public_state``: who is done, the recorded
deal's units and the totals; no seat's cards), so that at a table of four no phone has to
ask for it: a phone fetches over HTTP only what is its own (its entry, the cards it
shares). Any other change (``"deals"``) carries nothing, and the pages fetch what they
show, exactly as a page without WebSockets does when it polls. The sockets that may hear a
session are checked when they open, and closed when their right ends while they are open:
a seat link revoked (``revoked``), a member leaving the group (``left``).

A channel layer that cannot be reached is logged, not raised: the write is stored, and the
pages still poll.

From sync code (a WSGI worker, a Celery task) a layer that talks to a server (Redis) is
sent to through one event loop kept by the process in a thread of its own, so its
connection is kept too: ``async_to_sync`` would make a new loop and thread, and the layer a
new Redis connection, for every message (about 3 ms where the kept loop takes 0.5). The
in-memory layer (``make run``: one process) keeps ``async_to_sync``, which runs the send in
the ASGI server's own loop, where its queues live.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.db import transaction

from games.lib.after_response import after_response

log = logging.getLogger(__name__)

# The message types the consumer handles (``SessionConsumer.session_changed`` and so on).
CHANGED = "session.changed"
REVOKED = "session.revoked"
LEFT = "session.left"
NUDGE = "session.nudge"


def session_group(session_id: int) -> str:
    """The channel-layer group of the pages that follow session ``session_id``."""
    return f"session-{session_id}"


# While a live API view writes: the sessions whose deal in progress changed, which the
# view announces itself with the state it reads for its answer (``collected_live``).
_collecting: ContextVar[list[int] | None] = ContextVar("live_collecting", default=None)


@contextmanager
def collected_live() -> Iterator[list[int]]:
    """Within: a change of the deal in progress is not announced but collected (its
    session's id), for the caller to send with the state it reads anyway
    (``announce_state``), rather than reading the same state twice."""
    collected: list[int] = []
    token = _collecting.set(collected)
    try:
        yield collected
    finally:
        _collecting.reset(token)


def announce_state(session_id: int, state: dict[str, Any]) -> None:
    """Once the response is out, tell the session's followers that the deal in progress
    changed, with ``state``: its public state, read after the change was committed."""
    after_response(lambda: publish(session_id, "live", state))


def announce(session_id: int, what: str = "deals") -> None:
    """Once the current transaction commits, tell the session's followers that ``what``
    changed (``"deals"``: the scoreboard; ``"live"``: the deal in progress, with its
    public state)."""
    collecting = _collecting.get()
    if what == "live" and collecting is not None:
        collecting.append(session_id)
        return

    def committed() -> None:
        state = _public_state(session_id) if what == "live" else None
        after_response(lambda: publish(session_id, what, state))

    transaction.on_commit(committed, robust=True)


def _public_state(session_id: int) -> dict[str, Any] | None:
    from games.live.state import public_state
    from games.models import Session

    session = Session.objects.filter(pk=session_id).first()
    return None if session is None else public_state(session)


def nudged(session_id: int, seat: int) -> None:
    """Once committed: the phone of ``seat`` is asked to finish its hand."""
    message = {"type": NUDGE, "seat": seat}
    transaction.on_commit(lambda: after_response(lambda: _send(session_id, message)))


def revoked(session_id: int, link_id: int) -> None:
    """Once committed: the sockets opened with seat link ``link_id`` are closed."""
    message = {"type": REVOKED, "link": link_id}
    transaction.on_commit(lambda: after_response(lambda: _send(session_id, message)))


def left(session_ids: list[int], user_id: int) -> None:
    """Once committed: user ``user_id``'s sockets on these sessions are closed (they left
    the group, or were removed from it)."""
    message = {"type": LEFT, "user": user_id}

    def send() -> None:
        for session_id in session_ids:
            _send(session_id, message)

    transaction.on_commit(lambda: after_response(send))


def publish(session_id: int, what: str, state: dict[str, Any] | None = None) -> None:
    """Send the change now (``announce`` is the one to call from a write)."""
    message: dict[str, Any] = {"type": CHANGED, "what": what}
    if state is not None:
        message["state"] = state
    _send(session_id, message)


# How long a send may take before it is given up (and logged).
SEND_TIMEOUT = 10.0


def _send(session_id: int, message: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    group = session_group(session_id)
    try:
        if isinstance(layer, InMemoryChannelLayer):
            async_to_sync(layer.group_send)(group, message)
        else:
            sent = asyncio.run_coroutine_threadsafe(layer.group_send(group, message), _loop())
            try:
                sent.result(timeout=SEND_TIMEOUT)
            finally:
                sent.cancel()  # a send that timed out is stopped; a finished one stays
    except Exception:
        log.exception("could not announce a change to session %s", session_id)


_kept: tuple[int, asyncio.AbstractEventLoop] | None = None
_keeping = threading.Lock()


def _loop() -> asyncio.AbstractEventLoop:
    """This process's loop for the layer's sends, started on first use (again in a process
    forked from one that had it: the thread running it stayed behind)."""
    global _kept
    with _keeping:
        if _kept is None or _kept[0] != os.getpid():
            loop = asyncio.new_event_loop()
            thread = threading.Thread(target=loop.run_forever, name="live-push", daemon=True)
            thread.start()
            _kept = (os.getpid(), loop)
        return _kept[1]
