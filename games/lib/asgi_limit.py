"""At most ``ASGI_MAX_REQUESTS`` HTTP requests at once in one ASGI (Daphne) process.

Django runs the sync code of each ASGI request in a thread of its own (asgiref's
``ThreadSensitiveContext``), and every thread opens its own database connection: 200
phones asking at once made Daphne open 200 PostgreSQL connections, and past the server's
``max_connections`` requests failed with "too many clients" (benchmarks/live_table.py,
50 tables). The requests beyond the limit wait here, before Django, in the order they
came, holding no thread and no connection. WebSockets are not counted: an open socket
holds neither.

A request that cannot start within ``max_wait`` seconds (``ASGI_MAX_WAIT``) is turned away
with 503 and ``Retry-After`` (``games.lib.busy``), without Django: the process has more
than it can do in time, and the phone sends it again after the pause rather than waiting
past its own patience or a proxy's timeout.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from games.lib import busy

log = logging.getLogger("scorekeeper.busy")

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[Mapping[str, Any]]]
Send = Callable[[Mapping[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def limited(app: ASGIApp, limit: int, max_wait: float = 0) -> ASGIApp:
    """``app`` running at most ``limit`` requests at once (per event loop); with
    ``max_wait``, a request still waiting after that many seconds gets the busy answer."""
    gates: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = (
        weakref.WeakKeyDictionary()
    )

    async def application(scope: Scope, receive: Receive, send: Send) -> None:
        loop = asyncio.get_running_loop()
        gate = gates.get(loop)
        if gate is None:
            gate = gates[loop] = asyncio.Semaphore(limit)
        if max_wait:
            try:
                await asyncio.wait_for(gate.acquire(), max_wait)
            except TimeoutError:
                await turn_away(scope, send, max_wait)
                return
        else:
            await gate.acquire()
        try:
            await app(scope, receive, send)
        finally:
            gate.release()

    return application


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key.lower() == name:
            return bytes(value).decode("latin-1")
    return None


def _cookie(scope: Scope, name: str) -> str | None:
    for part in (_header(scope, b"cookie") or "").split(";"):
        key, _, value = part.strip().partition("=")
        if key == name:
            return value
    return None


async def turn_away(scope: Scope, send: Send, waited: float) -> None:
    """The busy answer (``games.lib.busy``) to a request that waited ``waited`` seconds."""
    from django.conf import settings

    path = str(scope.get("path", ""))
    lang = busy.language(
        _cookie(scope, settings.LANGUAGE_COOKIE_NAME), _header(scope, b"accept-language")
    )
    content_type, body = busy.answer(path, lang)
    log.warning(
        "turned away after %.1f s waiting to start: %s %s",
        waited,
        scope.get("method"),
        path,
        extra={"path": path, "waited": waited},
    )
    await send(
        {"type": "http.response.start", "status": 503, "headers": busy.headers(content_type, body)}
    )
    await send({"type": "http.response.body", "body": body})
