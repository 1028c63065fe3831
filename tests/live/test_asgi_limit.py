"""games.lib.asgi_limit: one ASGI process runs at most ASGI_MAX_REQUESTS requests at once."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any

from asgiref.sync import async_to_sync

from games.lib.asgi_limit import limited


def test_requests_beyond_the_limit_wait_their_turn_and_all_are_answered() -> None:
    running = 0
    most = 0
    answered: list[int] = []

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        nonlocal running, most
        running += 1
        most = max(most, running)
        await asyncio.sleep(0.01)  # the view, its thread and its connection
        running -= 1
        await send({"type": "http.response.start", "status": 200, "n": scope["n"]})

    async def many() -> None:
        app_limited = limited(app, 3)

        async def one(n: int) -> None:
            async def send(message: Mapping[str, Any]) -> None:
                answered.append(message["n"])

            async def receive() -> Mapping[str, Any]:
                return {"type": "http.request", "body": b"", "more_body": False}

            await app_limited({"type": "http", "n": n}, receive, send)

        await asyncio.gather(*(one(n) for n in range(20)))

    async_to_sync(many)()
    async_to_sync(many)()  # another event loop, as each test's: a gate of its own

    assert most == 3
    assert sorted(answered) == sorted(list(range(20)) * 2)


def test_the_process_serves_http_through_the_limit() -> None:
    from django.conf import settings

    from scorekeeper.asgi import application

    http = application.application_mapping["http"]
    assert http.__qualname__ == limited(http, 1).__qualname__
    assert settings.ASGI_MAX_REQUESTS >= 1
