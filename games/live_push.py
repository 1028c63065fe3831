"""Telling the phones that follow a session that something changed.

Every page that follows a session live (the scoreboard, a seat's entry) holds a WebSocket
(``games.consumers``) in the group ``session_group(session_id)``. A write that changes what
those pages show calls ``announce`` inside its transaction; once the transaction commits
and the response has gone out (``games.after_response``), one message goes to the group,
and each page fetches what it shows afresh over HTTP, exactly as a page without WebSockets
does when it polls. So the push carries no data and needs no permission of its own: the
fetch is checked like any other request.

A channel layer that cannot be reached is logged, not raised: the write is stored, and the
pages still poll.
"""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

from games.after_response import after_response

log = logging.getLogger(__name__)

# The message type the consumer handles (``SessionConsumer.session_changed``).
CHANGED = "session.changed"


def session_group(session_id: int) -> str:
    """The channel-layer group of the pages that follow session ``session_id``."""
    return f"session-{session_id}"


def announce(session_id: int, what: str = "deals") -> None:
    """Once the current transaction commits, tell the session's followers that ``what``
    changed (``"deals"``: the scoreboard; ``"live"``: the deal in progress)."""

    def send() -> None:
        publish(session_id, what)

    transaction.on_commit(lambda: after_response(send), robust=True)


def publish(session_id: int, what: str) -> None:
    """Send the change now (``announce`` is the one to call from a write)."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(session_group(session_id), {"type": CHANGED, "what": what})
    except Exception:
        log.exception("could not announce a change to session %s", session_id)
