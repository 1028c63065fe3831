"""games.lib.after_response under ASGI (Daphne): the work a request leaves runs once, after the
response has been sent, as under gunicorn.

Under ASGI Django sends request_started from the event loop (its receivers wrapped in
sync_to_async), runs the view in a task of its own and request_finished inside
``response.close()`` in yet another thread; the context variable that holds the work must
reach all three. Here a deal is recorded through scorekeeper.asgi's HTTP application, the
ASGI messages it sends and the work it leaves written down in one list, in order.
"""

from __future__ import annotations

import asyncio
import json
import threading
from typing import Any
from unittest import mock

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.contrib.auth.models import User
from django.test import override_settings

from games.live import push
from games.models import DeviceToken, Session
from games.services import reviews
from scorekeeper.asgi import application
from tests.services.hands import deal

pytestmark = pytest.mark.django_db(transaction=True)


def http_scope(method: str, path: str, token: str, payload: bytes) -> dict[str, Any]:
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "headers": [
            (b"host", b"localhost"),
            (b"content-type", b"application/json"),
            (b"content-length", str(len(payload)).encode()),
            (b"authorization", f"Token {token}".encode()),
        ],
        "client": ("127.0.0.1", 50000),
        "server": ("localhost", 80),
    }


def asgi_request(
    method: str, path: str, token: str, body: Any, events: list[str]
) -> tuple[int, Any]:
    """Sends one HTTP request through the ASGI application; its status and JSON body.
    Each ASGI message it sends is appended to ``events`` as it goes out."""
    payload = json.dumps(body).encode() if body is not None else b""
    scope = http_scope(method, path, token, payload)
    status: list[int] = []
    chunks: list[bytes] = []

    async def call() -> None:
        never = asyncio.Event()
        sent_body = False

        async def receive() -> dict[str, Any]:
            nonlocal sent_body
            if not sent_body:
                sent_body = True
                return {"type": "http.request", "body": payload, "more_body": False}
            await never.wait()  # the client never goes away
            return {"type": "http.disconnect"}

        async def send(message: dict[str, Any]) -> None:
            events.append(message["type"])
            if message["type"] == "http.response.start":
                status.append(message["status"])
            else:
                chunks.append(message.get("body", b""))

        await application(scope, receive, send)

    async_to_sync(call)()
    content = b"".join(chunks)
    return status[0], json.loads(content) if content else None


@override_settings(CELERY_TASK_ALWAYS_EAGER=False)
def test_a_deal_recorded_through_asgi_announces_once_and_queues_its_review_after_the_response(
    session: Session, ann_user: User
) -> None:
    _, token = DeviceToken.issue(ann_user, "asgi test")
    events: list[str] = []
    queued: list[int] = []

    def publish(session_id: int, what: str, state: object = None) -> None:
        events.append(f"announce {session_id} {what}")

    def delay(deal_pk: int) -> None:
        events.append("review queued")
        queued.append(deal_pk)

    deals = f"/api/v1/sessions/{session.pk}/deals/"
    body = {"players": deal(Ann="A", Bob="B", Cy="C", Di="D")}
    with (
        mock.patch.object(push, "publish", publish),
        mock.patch.object(reviews.review_deal, "delay", delay),
    ):
        status, recorded = asgi_request("POST", deals, token, body, events)
        # A request that leaves no work runs nothing left over from the first.
        listed, _ = asgi_request("GET", deals, token, None, events)

    assert (status, listed) == (201, 200), recorded
    assert events == [
        "http.response.start",
        "http.response.body",
        # Only once the answer is out (the order of the two follows their commit hooks).
        "review queued",
        f"announce {session.pk} deals",
        # The GET: nothing after it.
        "http.response.start",
        "http.response.body",
    ]
    assert queued == [session.deals.get(number=recorded["number"]).pk]


@override_settings(CELERY_TASK_ALWAYS_EAGER=False)
def test_the_work_is_done_even_when_the_server_gives_up_on_a_request_waiting_for_the_thread(
    session: Session, ann_user: User
) -> None:
    """Daphne sends http.disconnect as soon as a response is finished and, from
    application_close_timeout later, cancels the request's application on every tick until
    it ends. Under load (50 tables, benchmarks/live_table.py) the sync thread that closed
    the response and ran the work left over was busy with other requests for longer than
    that (here: another request holds it): the work waiting for it was cancelled with the
    request, and a table's phones were never told their deal was recorded (nor was its
    review queued)."""
    _, token = DeviceToken.issue(ann_user, "asgi test")
    done: list[str] = []
    told = threading.Event()
    release = threading.Event()

    def publish(session_id: int, what: str, state: object = None) -> None:
        done.append(f"announce {session_id} {what}")
        told.set()

    def delay(deal_pk: int) -> None:
        done.append("review queued")

    def other_request() -> None:  # holds the thread that runs every request's sync code
        release.wait(10)

    body = {"players": deal(Ann="A", Bob="B", Cy="C", Di="D")}
    payload = json.dumps(body).encode()
    scope = http_scope("POST", f"/api/v1/sessions/{session.pk}/deals/", token, payload)

    async def call() -> bool:
        finished = asyncio.Event()
        busy: list[asyncio.Future[None]] = []
        received = False

        async def receive() -> dict[str, Any]:
            nonlocal received
            if not received:
                received = True
                return {"type": "http.request", "body": payload, "more_body": False}
            await finished.wait()
            return {"type": "http.disconnect"}  # as Daphne once the response is finished

        async def send(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.body" and not message.get("more_body"):
                busy.append(asyncio.ensure_future(sync_to_async(other_request)()))
                finished.set()

        app = asyncio.ensure_future(application(scope, receive, send))
        await finished.wait()
        for _ in range(200):  # Daphne's checker, its timeout passed: cancel until it ends
            if app.done():
                break
            app.cancel()
            await asyncio.sleep(0.02)
        answered = await asyncio.to_thread(told.wait, 5)
        release.set()
        await asyncio.gather(*busy, return_exceptions=True)
        return answered

    with (
        mock.patch.object(push, "publish", publish),
        mock.patch.object(reviews.review_deal, "delay", delay),
    ):
        answered = async_to_sync(call)()

    assert answered
    assert sorted(done) == [f"announce {session.pk} deals", "review queued"]


def test_outside_a_request_the_work_still_runs_at_once() -> None:
    # The ASGI requests above leave no request open behind them in this thread.
    from games.lib.after_response import after_response

    ran: list[str] = []
    after_response(lambda: ran.append("now"))

    assert ran == ["now"]
