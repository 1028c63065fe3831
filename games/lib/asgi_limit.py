"""At most ``ASGI_MAX_REQUESTS`` HTTP requests at once in one ASGI (Daphne) process.

Django runs the sync code of each ASGI request in a thread of its own (asgiref's
``ThreadSensitiveContext``), and every thread opens its own database connection: 200
phones asking at once made Daphne open 200 PostgreSQL connections, and past the server's
``max_connections`` requests failed with "too many clients" (benchmarks/live_table.py,
50 tables). The requests beyond the limit wait here, before Django, in the order they
came, holding no thread and no connection. WebSockets are not counted: an open socket
holds neither.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[Mapping[str, Any]]]
Send = Callable[[Mapping[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def limited(app: ASGIApp, limit: int) -> ASGIApp:
    """``app`` running at most ``limit`` requests at once (per event loop)."""
    gates: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = (
        weakref.WeakKeyDictionary()
    )

    async def application(scope: Scope, receive: Receive, send: Send) -> None:
        loop = asyncio.get_running_loop()
        gate = gates.get(loop)
        if gate is None:
            gate = gates[loop] = asyncio.Semaphore(limit)
        async with gate:
            await app(scope, receive, send)

    return application
