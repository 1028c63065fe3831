"""games.lib.asgi_limit: one ASGI process runs at most ASGI_MAX_REQUESTS requests at once."""

from __future__ import annotations

import asyncio
import json
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


def _call(app: Any, path: str, headers: list[tuple[bytes, bytes]] | None = None) -> Any:
    """One request through ``app``: what it sent (start and body messages)."""
    sent: list[Mapping[str, Any]] = []

    async def send(message: Mapping[str, Any]) -> None:
        sent.append(message)

    async def receive() -> Mapping[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    scope = {"type": "http", "path": path, "method": "POST", "headers": headers or []}
    return app(scope, receive, send), sent


def test_a_request_that_cannot_start_in_time_is_turned_away_with_retry_after() -> None:
    release = asyncio.Event()
    started: list[str] = []

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        started.append(scope["path"])
        await release.wait()  # a slow view holding the only slot
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})

    results: dict[str, list[Mapping[str, Any]]] = {}

    async def run() -> None:
        gate = limited(app, 1, max_wait=0.2)
        slow, slow_sent = _call(gate, "/api/v1/slow/")
        api, api_sent = _call(gate, "/api/v1/sessions/1/live/seats/1/submit/")
        page, page_sent = _call(
            gate, "/groups/", [(b"accept-language", b"vi-VN,vi;q=0.9,en;q=0.5")]
        )
        first = asyncio.ensure_future(slow)
        await asyncio.sleep(0)
        await asyncio.gather(api, page)
        release.set()
        await first
        results.update(slow=slow_sent, api=api_sent, page=page_sent)

    async_to_sync(run)()

    assert started == ["/api/v1/slow/"]  # the two others never reached the application
    assert results["slow"][0]["status"] == 200
    for name in ("api", "page"):
        start, body = results[name]
        headers = dict(start["headers"])
        assert start["status"] == 503
        assert headers[b"retry-after"] == b"2"
        assert headers[b"cache-control"] == b"no-store"
        assert int(headers[b"content-length"]) == len(body["body"])
    api_body = json.loads(results["api"][1]["body"])
    assert api_body == {"error": api_body["error"], "field": None}
    assert "busy" in api_body["error"]
    page = results["page"][1]["body"].decode()
    assert '<html lang="vi">' in page
    assert "busy" not in page  # in Vietnamese


def test_a_request_that_gets_its_turn_within_the_wait_is_served() -> None:
    served: list[int] = []

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        await asyncio.sleep(0.02)
        served.append(1)
        await send({"type": "http.response.start", "status": 200, "headers": []})

    async def run() -> list[int]:
        gate = limited(app, 2, max_wait=5)
        calls = [_call(gate, "/api/v1/x/") for _ in range(10)]
        await asyncio.gather(*(call for call, _sent in calls))
        return [sent[0]["status"] for _call_, sent in calls]

    statuses = async_to_sync(run)()

    assert statuses == [200] * 10
    assert len(served) == 10
